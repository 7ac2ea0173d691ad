/**
 * Issue 10: one finding per authored site, through the built server. A typo in the template of a
 * 6-cluster × 4-service matrix fails 24 renders; the editor shows ONE diagnostic that says so, names
 * the first Applications and points (related information) at the cluster Secrets and list elements
 * their parameter sets came from.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { messageOf, startServer, type TestServer } from './client';
import { clusterSecrets } from '../helpers/clusters';
import { appsetHead, clusterListMatrix, serviceElements } from '../helpers/appsets';

const CLUSTERS = ['prod-af1', 'prod-af2', 'prod-eu1', 'prod-eu2', 'prod-us1', 'prod-us2'];
const SERVICES = ['auth-service', 'billing', 'cart', 'search'];

const appset = (name: string, path: string) => `${appsetHead('shop')}  generators:
${clusterListMatrix({ env: 'prod' }, serviceElements(SERVICES))}  template:
    metadata:
      name: '${name}'
    spec:
      project: default
      source:
        repoURL: https://example.com/shop/services.git
        targetRevision: main
        path: '${path}'
      destination:
        server: '{{ .server }}'
        namespace: '{{ .service }}'
`;

let s: TestServer;
before(async () => {
  s = await startServer({
    'clusters/secrets.yaml': clusterSecrets(CLUSTERS.map((name) => ({ name, labels: { env: 'prod' }, opaque: true }))),
  });
});
after(async () => s?.shutdown());

test('an exec error in a 24-Application matrix is ONE diagnostic naming the Applications, with related information', async () => {
  // `.servic` does not exist; with missingkey=error every one of the 24 renders fails at the same place.
  const text = appset('{{ .service }}-{{ .name }}', 'services/{{ .servic }}').replace(
    'goTemplate: true',
    'goTemplate: true\n  goTemplateOptions: ["missingkey=error"]',
  );
  const ds = await s.open('apps/shop.yaml', text);
  const errors = ds.filter((d) => d.severity === 1);
  assert.equal(errors.length, 1, JSON.stringify(errors.map((d) => [d.code, messageOf(d)])));
  const d = errors[0];
  assert.equal(d.code, 'template/missing-key');
  assert.equal(text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character), '.servic');
  assert.match(messageOf(d), /— in 24 of 24 Applications \(auth-service-prod-af1, billing-prod-af1, cart-prod-af1, …\)$/);
  const rel = d.relatedInformation ?? [];
  assert.ok(rel.length >= 2 && rel.length <= 5, JSON.stringify(rel));
  const secrets = rel.filter((r) => r.location.uri === s.uriOf('clusters/secrets.yaml'));
  const elements = rel.filter((r) => r.location.uri === s.uriOf('apps/shop.yaml'));
  assert.ok(secrets.length >= 1, 'points at a cluster Secret');
  assert.ok(elements.length >= 1, 'points at a list element');
  assert.match(secrets[0].message, /^auth-service-prod-af1: parameter set from cluster Secret "cluster-prod-af1"$/);
  // The Secret's location is its document (the apiVersion line of the first Secret).
  assert.equal(secrets[0].location.range.start.line, 0);
  assert.match(elements[0].message, /parameter set from list element 1$/);
  assert.equal(text.split('\n')[elements[0].location.range.start.line].trim(), '- service: auth-service');
});

test('a duplicate name hit by every parameter set is one diagnostic, not one per copy', async () => {
  const text = appset('{{ .service }}', 'services/{{ .service }}');
  const ds = await s.change('apps/shop.yaml', text);
  const dup = ds.filter((d) => d.code === 'generator/duplicate-name');
  assert.equal(dup.length, 1, JSON.stringify(ds.map((d) => [d.code, messageOf(d)])));
  assert.match(messageOf(dup[0]), /\("auth-service", "billing", "cart", and 1 more\).* — the controller skips these 24 Applications/);
  assert.ok((dup[0].relatedInformation ?? []).length > 0);
});

test('an unclosed {{ .name in the template: one parse error for all 24 Applications', async () => {
  const text = appset('{{ .service }}-{{ .name', 'services/{{ .service }}');
  const ds = await s.change('apps/shop.yaml', text);
  const errors = ds.filter((d) => d.severity === 1);
  assert.equal(errors.length, 1, JSON.stringify(errors.map((d) => [d.code, messageOf(d)])));
  assert.equal(errors[0].code, 'template/parse-error');
  // A template that does not parse fails alike for every parameter set: the consequence, no parameter sets listed.
  assert.match(messageOf(errors[0]), /unclosed action — so no Application is generated from this template$/);
  assert.equal(errors[0].relatedInformation?.length ?? 0, 0);
});
