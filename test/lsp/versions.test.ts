/**
 * The Argo CD version over LSP: detected from the workspace's install (and re-detected when the
 * install file changes on disk), overridden by the `argocdVersion` setting, and said in the
 * diagnostics (message + related location) and in the preview header.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { messageOf, startServer, type TestServer } from './client';
import { appsetHead } from '../helpers/appsets';

const KUSTOMIZATION = (ref: string) =>
  `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=${ref}\n`;

const APPSET = `${appsetHead('guestbook')}  generators:
    - list:
        elements:
          - name: a
  template:
    metadata:
      name: 'gb-{{ .name }}'
    spec:
      project: default
      source: {repoURL: https://example.com/gb.git, targetRevision: main, path: guestbook}
      destination: {server: https://kubernetes.default.svc, namespace: guestbook}
  templatePatch: |
    metadata:
      labels:
        patched: "true"
`;

let s: TestServer;
before(async () => {
  s = await startServer({ 'argocd/kustomization.yaml': KUSTOMIZATION('v2.9.3') });
  await s.open('apps/guestbook.yaml', APPSET);
});
after(async () => s?.shutdown());

const unknown = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'appset/unknown-field');
const preview = async () => (await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('apps/guestbook.yaml') })) as { yaml: string };

test('a field newer than the detected install: flagged at the key, linked to the install', async () => {
  const ds = await s.eventually('apps/guestbook.yaml', (d) => unknown(d).length === 1, 'templatePatch is unknown to 2.9');
  const d = unknown(ds)[0];
  const line = APPSET.split('\n').findIndex((l) => l.startsWith('  templatePatch:'));
  assert.deepEqual(d.range, { start: { line, character: 2 }, end: { line, character: 15 } });
  assert.match(messageOf(d), /^"templatePatch" was added in Argo CD 2\.10: Argo CD 2\.9\.3's API server drops it without a word/);
  const rel = d.relatedInformation?.[0];
  assert.ok(rel, 'related information points at the install');
  assert.equal(rel.location.uri, s.uriOf('argocd/kustomization.yaml'));
  assert.equal(rel.location.range.start.line, 4);
  const p = await preview();
  assert.match(
    p.yaml,
    /# note: checked against Argo CD 2\.9\.3 \(detected: kustomize remote base of argoproj\/argo-cd \?ref=v2\.9\.3 in argocd\/kustomization\.yaml\)/,
  );
  assert.doesNotMatch(p.yaml, /patched/, 'the 2.9 controller never sees the patch');
});

test('the setting overrides detection; an upgraded install on disk is picked up', async () => {
  await s.setSettings({ argocdVersion: '3.5' });
  await s.eventually('apps/guestbook.yaml', (d) => unknown(d).length === 0, 'the setting says 3.5');
  assert.match((await preview()).yaml, /# note: checked against Argo CD 3\.5 \(set by argocdVersion "3\.5"\)/);
  await s.setSettings({ argocdVersion: 'not a version' });
  await s.eventually('apps/guestbook.yaml', (d) => unknown(d).length === 1, 'an unreadable setting means auto');
  await s.writeFile('argocd/kustomization.yaml', KUSTOMIZATION('v2.10.7'));
  await s.eventually('apps/guestbook.yaml', (d) => unknown(d).length === 0, 'the install was upgraded to 2.10');
  assert.match((await preview()).yaml, /patched: "true"/);
  await s.setSettings({});
});

test('a superseded bootstrap install over LSP: an error while it is the only install, information once an argo-cd chart install without a version appears', async () => {
  const boot = 'infra/terraform/cluster/manifests/argocd';
  const b = await startServer({
    [`${boot}/kustomization.yaml`]: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - install.yaml\n',
    [`${boot}/install.yaml`]:
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: argocd-server\nspec:\n  template:\n    spec:\n      containers:\n        - name: server\n          image: quay.io/argoproj/argocd:v2.9.3\n',
  });
  try {
    await b.open('apps/guestbook.yaml', APPSET);
    const only = await b.eventually('apps/guestbook.yaml', (d) => unknown(d).length === 1, 'the bootstrap is the only install');
    assert.equal(unknown(only)[0].severity, 1, 'an error');
    const hoverAt = async () =>
      (
        (await b.conn.sendRequest('textDocument/hover', {
          textDocument: { uri: b.uriOf('apps/guestbook.yaml') },
          position: { line: APPSET.split('\n').findIndex((l) => l.startsWith('  templatePatch:')), character: 4 },
        })) as { contents: { value: string } } | null
      )?.contents.value ?? '';
    assert.match(await hoverAt(), /Unknown to the release .*2\.9\.3/, 'the only install: the hover says 2.9.3 drops it');
    await b.writeFile('platform/argocd/values.yaml', 'configs:\n  params:\n    server.insecure: true\n');
    const ds = await b.eventually(
      'apps/guestbook.yaml',
      (d) => unknown(d).length === 1 && unknown(d)[0].severity === 3,
      'the running version is not known: information',
    );
    assert.match(messageOf(unknown(ds)[0]), /if Argo CD 2\.9\.3 runs this ApplicationSet, its API server drops it .*set argocdVersion/);
    assert.equal(unknown(ds)[0].relatedInformation?.[0]?.location.uri, b.uriOf(`${boot}/install.yaml`));
    assert.doesNotMatch(await hoverAt(), /Unknown to the release/, 'the hover does not claim 2.9.3 runs it');
  } finally {
    await b.shutdown();
  }
});
