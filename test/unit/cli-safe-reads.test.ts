/**
 * Every file a command reads goes through the one safe reader (host/files.ts): `appset diff`'s work
 * tree side and `appset lint <folder>` read regular files inside the repository / folder only,
 * size-capped, never blocking; devices, FIFOs and links out of the root are skipped and said.
 * `--inventory FILE` reads exactly that file on both sides of a diff and does not make its folder a
 * root. File names with `%` are file names. The CLI runs as a process (hang guard, never a clock).
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { bundleCli, git, runCli, writeFiles } from '../helpers/cli';
import { clusterSecrets } from '../helpers/clusters';
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';

let cli: string;
let work: string;
before(() => {
  ({ cli, work } = bundleCli('cli-safe-reads-'));
});
const run = (args: string[], cwd: string) => runCli(cli, args, { cwd, timeout: 120_000 });

/** An ApplicationSet over the cluster generator: one Application per cluster. */
const perCluster = (name: string) =>
  `${appsetHead(name)}  generators:\n    - clusters: {}\n  template:\n    metadata:\n      name: '${name}-{{.name}}'\n${MINIMAL_TEMPLATE_SPEC}`;

const listAppSet = (name: string, extra = '') =>
  `${appsetHead(name)}  generators:\n    - list:\n        elements:\n          - {env: dev}\n  template:\n    metadata:\n      name: '${name}-{{.env}}'${extra}\n${MINIMAL_TEMPLATE_SPEC}`;

function repo(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  return dir;
}

const mkfifo = (p: string) => spawnSync('mkfifo', [p]).status === 0;

test('diff: the work tree is read safely — /dev/zero, /dev/urandom, a FIFO, a link out of the repository and a 3 MB file are skipped and said', () => {
  const outside = path.join(work, 'outside-diff');
  writeFiles(outside, { 'secret.yaml': listAppSet('stolen', '\n      labels: {token: TOKEN-OUTSIDE-1234}') });
  const dir = repo('diff-hostile', { 'apps/app.yaml': listAppSet('app') });
  fs.symlinkSync('/dev/zero', path.join(dir, 'apps/zero.yaml'));
  fs.symlinkSync('/dev/urandom', path.join(dir, 'apps/random.yaml'));
  fs.symlinkSync(path.join(outside, 'secret.yaml'), path.join(dir, 'apps/out.yaml'));
  fs.writeFileSync(path.join(dir, 'apps/big.yaml'), `${listAppSet('big')}# ${'x'.repeat(3 * 1024 * 1024)}\n`);
  const fifo = mkfifo(path.join(dir, 'apps/fifo.yaml'));
  const r = run(['diff', '--base', 'main', '--format', 'json'], dir);
  assert.equal(r.signal, null, 'the diff finished');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.deepEqual(
    j.appsets.map((a: { name: string }) => a.name),
    ['app'],
  );
  assert.doesNotMatch(r.out, /TOKEN-OUTSIDE|stolen/);
  for (const f of ['zero', 'random', 'out'])
    assert.match(r.err, new RegExp(`apps/${f}\\.yaml: skipped: it is a symbolic link to a file outside the repository, not followed`));
  assert.match(r.err, /apps\/big\.yaml: skipped: it is 3\.0 MB, larger than the 2\.0 MB limit/);
  if (fifo) assert.match(r.err, /apps\/fifo\.yaml: skipped: it is not a regular file \(a FIFO\)/);
});

test('lint <folder>: a file link out of the folder is not followed and its text is never quoted', () => {
  const outside = path.join(work, 'outside-lint');
  writeFiles(outside, { 'appset.yaml': listAppSet('outside', '\n      TOKEN-FIELD-5678: x') });
  const dir = path.join(work, 'lint-link');
  writeFiles(dir, { 'apps/own.yaml': listAppSet('own') });
  fs.symlinkSync(path.join(outside, 'appset.yaml'), path.join(dir, 'apps/link.yaml'));
  // A link that stays inside the folder is read as before.
  fs.symlinkSync(path.join(dir, 'apps/own.yaml'), path.join(dir, 'apps/inside.yaml'));
  const r = run(['lint', '--format', 'json', 'apps'], dir);
  assert.equal(r.signal, null);
  assert.doesNotMatch(r.out + r.err, /TOKEN-FIELD|outside-lint\/appset/);
  assert.match(r.err, /apps\/link\.yaml: skipped: it is a symbolic link to a file outside the folder, not followed/);
  const j = JSON.parse(r.out);
  assert.deepEqual(j.files.map((f: { path: string }) => f.path).sort(), ['apps/inside.yaml', 'apps/own.yaml']);
});

test('diff --inventory FILE: exactly that file, on both sides; its folder is not a root', () => {
  const inv = path.join(work, 'inventory-diff');
  writeFiles(inv, {
    'clusters.yaml': clusterSecrets([{ name: 'c1' }, { name: 'c2' }]),
    // A stray Secret beside the inventory is not a cluster of either side.
    'stray.yaml': clusterSecrets([{ name: 'stray' }]),
  });
  const dir = repo('diff-inventory', { 'apps/fleet.yaml': perCluster('fleet') });
  // A rename: the same ApplicationSet in a new file.
  git(dir, 'mv', 'apps/fleet.yaml', 'apps/renamed.yaml');
  const r = run(['diff', '--base', 'main', '--format', 'json', '--inventory', path.join(inv, 'clusters.yaml')], dir);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.summary.added, 0, 'the base side read the inventory too: nothing reported as added');
  assert.equal(j.summary.removed, 0);
  assert.doesNotMatch(r.out, /stray/);
  const edited = path.join(dir, 'apps/renamed.yaml');
  fs.writeFileSync(edited, perCluster('fleet').replace("'fleet-{{.name}}'", "'fleet2-{{.name}}'"));
  const r2 = run(['diff', '--base', 'main', '--format', 'json', '--inventory', path.join(inv, 'clusters.yaml')], dir);
  const j2 = JSON.parse(r2.out);
  // The inventory's two clusters and the local cluster the cluster generator always adds.
  assert.deepEqual(
    j2.appsets[0].changes.filter((c: { change: string }) => c.change === 'added').map((c: { name: string }) => c.name),
    ['fleet2-c1', 'fleet2-c2', 'fleet2-in-cluster'],
  );
  assert.equal(j2.summary.removed, 3);
  assert.doesNotMatch(r2.out, /stray/);
});

test('file names with % are file names: bad%zz.yaml is checked, p%41.yaml points into itself, not pA.yaml', () => {
  // An upper-case list value makes an invalid Application name: one error whose affected sources and
  // related locations point at the list element in the same file.
  const bad = (name: string) => listAppSet(name).replace('{env: dev}', '{env: Dev}');
  const dir = path.join(work, 'percent');
  writeFiles(dir, { 'apps/bad%zz.yaml': bad('bad'), 'apps/p%41.yaml': bad('pa'), 'apps/pA.yaml': listAppSet('other') });
  const r = run(['lint', '--format', 'json', 'apps'], dir);
  assert.equal(r.signal, null);
  assert.doesNotMatch(r.out + r.err, /internal error|URI malformed/);
  const j = JSON.parse(r.out);
  const byPath = new Map(j.files.map((f: { path: string }) => [f.path, f]));
  assert.deepEqual([...byPath.keys()].sort(), ['apps/bad%zz.yaml', 'apps/p%41.yaml', 'apps/pA.yaml']);
  for (const name of ['apps/bad%zz.yaml', 'apps/p%41.yaml']) {
    const f = byPath.get(name) as {
      diagnostics: { severity: string; related?: { path: string }[]; affected?: { sources: { path?: string }[] } }[];
    };
    assert.ok(
      f.diagnostics.some((d) => d.severity === 'error'),
      `${name} is checked`,
    );
    const paths = f.diagnostics.flatMap((d) => [
      ...(d.related ?? []).map((x) => x.path),
      ...(d.affected?.sources ?? []).map((x) => x.path),
    ]);
    assert.ok(paths.length > 0, `${name} has locations`);
    assert.ok(
      paths.every((p) => p === name),
      `${name}: ${paths.join(', ')}`,
    );
  }
  assert.equal(j.summary.files ?? j.files.length, 3);
  const text = run(['lint', 'apps'], dir);
  assert.match(text.out, /apps\/bad%zz\.yaml:\d+:\d+ error/);
  assert.match(text.out, /apps\/p%41\.yaml:\d+:\d+ error/);
});
