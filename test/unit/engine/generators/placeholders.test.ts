// Placeholder cluster Secrets and inventory entries (CLUSTER_NAME, ${…}, <<…>>, changeme, {{ … }}) are
// templates, not clusters: left out of cluster generators, reported once where the placeholder is.
// Fixtures: test/fixtures/real-world/placeholder-clusters/ (written for these tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundledCli, findingHeads, posix, REAL_WORLD, serviceOver, shownIn } from '../../../helpers/realworld';
import { placeholderIn } from '../../../../server/src/engine/generators/placeholders';
import { tempFolder } from '../../../helpers/cli';

const dir = path.join(REAL_WORLD, 'placeholder-clusters');
const cli = bundledCli('rw-ph-');

const service = () => serviceOver(dir);

test('placeholder shapes seen in public repositories are recognised; real names and servers are not', () => {
  for (const [field, v] of [
    ['name', 'CLUSTER_NAME'],
    ['server', 'https://CLUSTER_ENDPOINT'],
    ['server', '${SERVER}'],
    ['server', '$CLUSTER_SERVER'],
    ['server', '<<platform_url>>'],
    ['server', 'https://<cluster-endpoint>'],
    ['name', 'changeme'],
    ['name', '{{ .Values.name }}'],
    ['server', '${var.cluster_endpoint}'],
    ['name', 'XXXX'],
    ['name', { '.Name': null }],
  ] as const)
    assert.ok(placeholderIn(field, v), `${field}: ${JSON.stringify(v)}`);
  for (const [field, v] of [
    ['name', 'in-cluster'],
    ['name', 'prod-eu-1'],
    ['name', 'PROD'],
    ['server', 'https://kubernetes.default.svc'],
    ['server', 'https://ABCDEF0123.gr7.eu-west-1.eks.amazonaws.com'],
    ['name', 'arn:aws:eks:eu-west-1:123456789012:cluster/prod'],
    ['server', ''],
  ] as const)
    assert.equal(placeholderIn(field, v), undefined, `${field}: ${v}`);
});

test('the cluster generator sees only real clusters; placeholder entries never become Applications', () => {
  const s = service();
  const abs = posix(path.join(dir, 'apps', 'guestbook.yaml'));
  const a = s.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
  const exp = s.applications(a)!;
  assert.deepEqual(exp.apps.map((x) => (x.app.metadata as { name: string }).name).sort(), ['guestbook-prod-eu', 'guestbook-prod-us']);
  assert.ok(!s.diagnostics(a).some((d) => d.code === 'generator/invalid-application'));
});

test('each placeholder is reported once, on its value in the Secret file, in the editor too', () => {
  const s = service();
  const abs = posix(path.join(dir, 'clusters', 'envsubst.yaml'));
  const text = fs.readFileSync(abs, 'utf8');
  const a = s.analyze(abs, text, abs);
  const shown = s.diagnosticsToShow(a);
  assert.deepEqual(
    shown.map((d) => [d.code, text.slice(d.span.start, d.span.end)]),
    [
      ['inventory/placeholder-cluster', '${WORKLOAD_SERVER}'],
      ['inventory/placeholder-cluster', '<<hub_endpoint>>'],
      ['inventory/placeholder-cluster', 'changeme'],
    ],
  );
  assert.match(
    shown[0].message,
    /^this cluster Secret "workload" is a template, not a cluster: its server is the placeholder "\$\{WORKLOAD_SERVER\}"/,
  );
});

test('when every cluster Secret is a template, the preview says so instead of "no cluster Secrets found"', () => {
  const tmp = tempFolder('rw-ph-only-');
  fs.copyFileSync(path.join(dir, 'clusters', '_template.yaml'), path.join(tmp, 'template.yaml'));
  const s = serviceOver(tmp);
  const abs = posix(path.join(dir, 'apps', 'guestbook.yaml'));
  const a = s.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
  const notes = s.applications(a)!.notes.join('\n');
  assert.match(notes, /the workspace's cluster Secrets are templates, not clusters \(.*template\.yaml: name "CLUSTER_NAME"\)/);
});

test('appset lint of a folder prints the placeholder notes of the cluster Secrets in it, once each', () => {
  const shown = shownIn(dir);
  assert.deepEqual(findingHeads(cli.run(['lint', '.', '--workspace', '.'], dir)), [
    `${shown('clusters/_template.yaml')}:11:9 information inventory/placeholder-cluster`,
    `${shown('clusters/envsubst.yaml')}:11:11 information inventory/placeholder-cluster`,
    `${shown('clusters/envsubst.yaml')}:23:11 information inventory/placeholder-cluster`,
    `${shown('clusters/envsubst.yaml')}:33:9 information inventory/placeholder-cluster`,
    `${shown('clusters/inventory.yaml')}:7:11 information inventory/placeholder-cluster`,
    '1 ApplicationSet in',
  ]);
});
