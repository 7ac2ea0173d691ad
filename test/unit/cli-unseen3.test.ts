/**
 * Issue 40, through the CLI as a user runs it: messages carry repository-relative paths only, and what
 * the workspace scan left out is in the JSON report as well as on stderr. Fixtures written here.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, runCli } from '../helpers/cli';

let cli = '';
let work = '';
before(() => ({ cli, work } = bundleCli('appset-unseen3-')));

const appset = (revision: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: apps, namespace: argocd}
spec:
  generators:
    - git:
        repoURL: https://example.com/org/deploy.git
        revision: ${revision}
        directories: [{path: 'services/*'}]
  template:
    metadata: {name: '{{path.basename}}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/org/deploy.git', targetRevision: HEAD, path: '{{path}}'}
      destination: {server: 'https://kubernetes.default.svc', namespace: apps}
`;

test('lint: the checkout is named relative to the workspace, an empty revision is HEAD, and oversized files are notes in the JSON report', () => {
  const ws = path.join(work, 'ws');
  fs.mkdirSync(path.join(ws, 'deploy/services/api'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'deploy/services/api/k.yaml'), 'a: 1\n');
  fs.writeFileSync(path.join(ws, 'big.yaml'), 'a: ' + 'x'.repeat(1_200_000) + '\n');
  fs.writeFileSync(path.join(ws, 'appset.yaml'), appset("''"));
  const r = runCli(
    cli,
    ['lint', 'appset.yaml', '--format', 'json', '--workspace', '.', '--repo-map', 'https://example.com/org/deploy.git=deploy'],
    {
      cwd: ws,
    },
  );
  const report = JSON.parse(r.out) as { notes?: string[]; files: { diagnostics: { code: string; message: string }[] }[] };
  const note = report.files[0].diagnostics.find((d) => d.code === 'generator/working-tree')!;
  assert.equal(note.message, 'the git generator read the working tree of deploy, not revision HEAD of https://example.com/org/deploy.git');
  assert.ok(!r.out.includes(ws), 'no absolute path of the runner in the report');
  assert.deepEqual(report.notes, ['big.yaml was not read: it is 1.1 MB, larger than the 1 MB limit']);
  assert.match(r.err, /appset lint: note: big\.yaml was not read/);
});
