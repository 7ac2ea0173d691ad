// The CLI's workspace (issue 10): the linted file's git work tree or --workspace; --inventory and
// --repo-map read exactly what they name; stderr carries only our own messages. The bundled CLI runs
// as a child process, as a user runs it.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, runCli, writeFiles } from '../helpers/cli';
import { flowClusterSecret } from '../helpers/clusters';
import { rollingSyncBy } from '../helpers/appsets';

let cli = '';
let base = '';

before(() => {
  ({ cli, work: base } = bundleCli('cli-ws-'));
});

const tree = (files: Record<string, string>) => writeFiles(fs.mkdtempSync(path.join(base, 't-')), files);
const run = (cwd: string, args: string[]) => runCli(cli, args, { cwd });

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: guestbook, namespace: argocd}
spec:
  generators:
  - clusters: {}
${rollingSyncBy('env', [{ values: ['prod'] }], { compact: true })}  template:
    metadata: {name: 'guestbook-{{name}}', labels: {env: prod}}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: guestbook}
      destination: {server: '{{server}}', namespace: guestbook}
`;
const secret = (name: string) => flowClusterSecret({ name, secretName: name });
const ENABLE = `apiVersion: v1
kind: ConfigMap
metadata: {name: argocd-cmd-params-cm}
data: {applicationsetcontroller.enable.progressive.syncs: "true"}
`;
const INVENTORY = `apiVersion: appset-tools/v1
kind: ClusterInventory
clusters:
- {name: edge-1, server: 'https://edge-1.example.com'}
`;

// The cluster generator always adds the local cluster (in-cluster); the others come from the workspace.
const names = (out: string) => [...out.matchAll(/^  name: guestbook-(\S+)$/gm)].map((m) => m[1]).filter((n) => n !== 'in-cluster');

test('--inventory reads exactly that file: its neighbours (a stranger cluster, progressive-sync settings) stay out', () => {
  const dir = tree({
    'proj/.git/HEAD': 'ref: refs/heads/main\n',
    'proj/apps/appset.yaml': APPSET,
    'proj/clusters/prod.yaml': secret('prod'),
    'elsewhere/inventory/clusters.yaml': INVENTORY,
    'elsewhere/inventory/stranger.yaml': secret('stranger'),
    'elsewhere/inventory/argocd-cmd-params-cm.yaml': ENABLE,
  });
  const r = run(dir, ['render', 'proj/apps/appset.yaml', '--inventory', 'elsewhere/inventory/clusters.yaml']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(names(r.out).sort(), ['edge-1', 'prod']);
  const lint = run(dir, ['lint', 'proj/apps/appset.yaml', '--inventory', 'elsewhere/inventory/clusters.yaml']);
  assert.match(lint.out, /rollout\/progressive-syncs-not-found/, 'the settings next to the inventory do not enable progressive syncs');
  assert.equal(lint.err, '');
});

test('without a git work tree the workspace is the input folder, not the current directory', () => {
  const dir = tree({ 'a/appset.yaml': APPSET, 'a/prod.yaml': secret('prod'), 'b/stranger.yaml': secret('stranger') });
  const r = run(dir, ['render', 'a/appset.yaml']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(names(r.out), ['prod']);
});

test('--workspace DIR chooses the workspace explicitly; a missing folder is a usage error', () => {
  const dir = tree({ 'apps/appset.yaml': APPSET, 'fleet/prod.yaml': secret('prod'), 'fleet/eu.yaml': secret('eu') });
  assert.deepEqual(names(run(dir, ['render', 'apps/appset.yaml']).out), []);
  const r = run(dir, ['render', 'apps/appset.yaml', '--workspace', '.']);
  assert.deepEqual(names(r.out).sort(), ['eu', 'prod']);
  const lint = run(dir, ['lint', 'apps', '--workspace', 'fleet']);
  assert.equal(lint.err, '');
  const bad = run(dir, ['lint', 'apps', '--workspace', 'nope']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--workspace must be a folder, got "nope"/);
});

test('stderr stays empty when workspace YAML has collection keys (the yaml library would warn)', () => {
  const dir = tree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'appset.yaml': APPSET,
    'chart-ish/values.yaml': 'labels:\n  { a: b }: x\n  [1, 2]: y\n',
    'prod.yaml': secret('prod'),
  });
  const r = run(dir, ['lint', '.']);
  assert.equal(r.err, '');
  assert.match(r.out, /1 ApplicationSet in 1 file/);
});
