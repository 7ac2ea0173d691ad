/**
 * argocd-apps chart values over LSP: an ApplicationSet declared under `applicationsets:` in a Helm
 * values file gets its diagnostics, hover, lenses and preview at positions in the values file.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { HoverRequest, CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';

const VALUES = `argo-cd:
  configs:
    params:
      applicationsetcontroller.enable.progressive.syncs: true
argocd-apps:
  applicationsets:
    shop:
      goTemplate: true
      generators:
        - list:
            elements:
              - service: cart
              - service: checkout
      template:
        metadata:
          name: '{{ .service }}-{{ .servce }}'
        spec:
          project: default
          source: {repoURL: 'https://example.com/shop.git', targetRevision: main, path: 'services/{{ .service }}'}
          destination: {server: 'https://kubernetes.default.svc', namespace: '{{ .service }}'}
          revisionHistoryLimit: 5
`;
const lines = VALUES.split('\n');
const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle));

let s: TestServer;
before(async () => {
  s = await startServer({ 'Chart.yaml': 'apiVersion: v2\nname: root\nversion: 0.1.0\n' });
});
after(async () => s?.shutdown());

test('diagnostics of a values-file ApplicationSet point at the values file lines', async () => {
  const diags = await s.open('values.yaml', VALUES);
  const byCode = (c: string) => diags.filter((d) => d.code === c);
  const ignored = byCode('helm/values-ignored-field');
  assert.equal(ignored.length, 1, JSON.stringify(diags.map((d) => [d.code, d.range.start])));
  assert.deepEqual(ignored[0].range.start, {
    line: lineOf('revisionHistoryLimit'),
    character: lines[lineOf('revisionHistoryLimit')].indexOf('revisionHistoryLimit'),
  });
  const missing = diags.filter((d) => d.range.start.line === lineOf("name: '{{ .service }}-{{ .servce }}'"));
  assert.ok(missing.length >= 1, JSON.stringify(diags.map((d) => [d.code, d.range.start.line, d.message])));
  assert.ok(missing.every((d) => d.range.start.character >= lines[lineOf('name: ')].indexOf("'")));
});

test('hover on a template string in the values file shows its values', async () => {
  const line = lineOf("path: 'services/");
  const character = lines[line].indexOf('services/') + 2;
  const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: s.uriOf('values.yaml') }, position: { line, character } });
  const md = h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  assert.match(md, /`services\/cart`/);
  assert.match(md, /`services\/checkout`/);
});

test('code lens on the generators of the values entry, and the preview request', async () => {
  const lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('values.yaml') } })) ?? [];
  assert.ok(
    lenses.some((l) => l.range.start.line === lineOf('generators:') && /2 Applications/.test(l.command?.title ?? '')),
    JSON.stringify(lenses.map((l) => [l.range.start.line, l.command?.title])),
  );
  const r = (await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('values.yaml') })) as {
    name: string;
    apps: number;
    yaml: string;
  };
  assert.equal(r.name, 'shop');
  assert.equal(r.apps, 2);
  assert.match(r.yaml, /path: services\/checkout/);
});
