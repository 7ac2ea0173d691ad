/**
 * The preview of a Helm chart template whose render cannot be reproduced here (issue 38): the editor's
 * preview says why, in the sentence `appset render` prints, instead of answering nothing.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { repoRoot, startServer, type TestServer } from './client';
import { git, runCli } from '../helpers/cli';
import { Commands, Requests, type PreviewResult } from '@appset-tools/protocol';

// `include` is Helm's own (it calls the chart's named templates): not rendered here (engine/service/helmRender.ts).
const TEMPLATE = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: {{ include "shop.fullname" . }}
spec:
  generators:
  - list:
      elements:
{{- range .Values.services }}
      - svc: {{ . }}
{{- end }}
  template:
    metadata:
      name: '{{\`{{svc}}\`}}'
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: '{{\`{{svc}}\`}}', targetRevision: HEAD}
      destination: {server: 'https://kubernetes.default.svc', namespace: shop}
`;

let s: TestServer | undefined;
after(async () => s?.shutdown());

test('the preview of a chart template it cannot render says why, as `appset render` does', async () => {
  s = await startServer({
    'chart/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
    'chart/values.yaml': 'services: [api, web]\n',
    'chart/templates/appset.yaml': TEMPLATE,
  });
  await s.open('chart/templates/appset.yaml', TEMPLATE);
  const p = (await s.conn.sendRequest(Requests.preview, { uri: s.uriOf('chart/templates/appset.yaml') })) as PreviewResult | null;
  assert.ok(p, 'an answer, not null');
  assert.ok(p.cannot, JSON.stringify(p));
  assert.match(p.cannot, /include/, 'the reason names what is not rendered');
  assert.equal(p.apps, 0);
  assert.equal(p.exact, false);
  // The preview document (client/src/preview.ts shows `yaml`) says it, as YAML comments.
  assert.match(p.yaml, /^# a Helm chart template whose ApplicationSets are not rendered here: /);
  assert.ok(
    p.yaml.split('\n').every((l) => l === '' || l.startsWith('#')),
    p.yaml,
  );

  // The same sentence as the CLI's (run in a git work tree: the CLI reads the chart's folder from the work tree's root).
  git(s.workspace, 'init', '-q');
  const r = runCli(join(repoRoot, 'dist', 'cli.js'), ['render', 'chart/templates/appset.yaml'], { cwd: s.workspace });
  assert.equal(r.code, 4, r.err);
  const said = p.notes[0];
  assert.ok(r.err.includes(said), `the CLI says ${JSON.stringify(r.err)}; the preview ${JSON.stringify(said)}`);

  // Editors without the preview view: the preview command answers the same text.
  const text = await s.conn.sendRequest(ExecuteCommandRequest.type, {
    command: Commands.preview,
    arguments: [s.uriOf('chart/templates/appset.yaml')],
  });
  assert.equal(text, p.yaml);
});
