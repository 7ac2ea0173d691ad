/**
 * The repository configuration in the editor: the language server reads the same `.appset-tools.yaml`
 * as `appset lint` (severities, `off`, inline suppressions, policy gates), follows it when it changes
 * on disk, and reports problems in the file itself when it is open.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { messageOf, startServer, type TestServer } from './client';

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: fleet
spec:
  goTemplat: true
  owner: team-a # appset-tools: ignore appset/unknown-field -- read by our portal
  generators:
    - list:
        elements: [{env: a}, {env: b}, {env: c}]
  template:
    metadata: {name: 'web-{{env}}'}
    spec:
      project: default
      source: {repoURL: https://example.com/gb.git, targetRevision: main, path: web}
      destination: {server: https://kubernetes.default.svc, namespace: '{{env}}'}
`;

let s: TestServer;
before(async () => {
  s = await startServer({ '.appset-tools.yaml': 'severity:\n  appset/unknown-field: warning\npolicy:\n  maxSyncAtOnce: 2\n' });
});
after(async () => s?.shutdown());

const byCode = (ds: Diagnostic[], code: string) => ds.filter((d) => d.code === code);

test('severities, suppressions and policy gates from .appset-tools.yaml reach the editor', async () => {
  const ds = await s.open('apps/fleet.yaml', APPSET);
  const unknown = byCode(ds, 'appset/unknown-field');
  assert.equal(unknown.length, 1, 'the suppressed "owner" finding is hidden');
  assert.equal(unknown[0].severity, DiagnosticSeverity.Warning);
  assert.match(messageOf(unknown[0]), /goTemplat/);
  const policy = byCode(ds, 'policy/max-sync-at-once');
  assert.equal(policy.length, 1);
  assert.match(messageOf(policy[0]), /^One commit can sync 3 Applications at the same time \(policy: at most 2\)/);
});

test('a change of the config file on disk applies to open documents', async () => {
  await s.writeFile('.appset-tools.yaml', 'severity:\n  appset/unknown-field: "off"\n');
  await s.eventually(
    'apps/fleet.yaml',
    (ds) => !byCode(ds, 'appset/unknown-field').length && !byCode(ds, 'policy/max-sync-at-once').length,
    'unknown-field turned off, policy removed',
  );
});

test('problems in the open config file are shown on it', async () => {
  const ds = await s.open('.appset-tools.yaml', 'severity:\n  appset/unknown-field: loud\nmaxApplication: 3\n');
  assert.deepEqual(
    ds.map((d) => [d.code, d.range.start.line]),
    [
      ['config/invalid', 1],
      ['config/invalid', 2],
    ],
  );
  assert.match(messageOf(ds[1]), /unknown setting "maxApplication".*did you mean "maxApplications"\?/);
});
