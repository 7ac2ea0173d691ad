// The gate fails closed: an ApplicationSet that the tool could not check (a value nested past our
// depth limit, a line past our line limit) is exit status 3 with a clear word on stderr, never
// "0 ApplicationSets, exit 0" — unless the repository configuration lowers that code's severity.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, runCli, writeFiles } from '../helpers/cli';
import { YAML_LIMITS } from '@appset-tools/gotemplate';

let cli = '';
let work = '';
before(() => {
  ({ cli, work } = bundleCli('cli-fail-closed-'));
});
const run = (args: string[], cwd: string) => runCli(cli, args, { cwd, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });

/** An ApplicationSet with an unknown field and a wrong type (mistakes a gate must see) and `extra` in its list element. */
const appset = (extra: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: gate
spec:
  goTemplate: true
  sneaky: true
  generators:
    - list:
        elements:
          - cluster: a
            extra: ${extra}
  template:
    metadata:
      name: '{{.cluster}}'
    spec:
      project: default
      source: {repoURL: https://example.com/x.git, path: p, targetRevision: HEAD}
      destination: {server: https://kubernetes.default.svc, namespace: default}
`;

const DEEP = appset('['.repeat(100) + '1' + ']'.repeat(100));
const LONG = appset(`"${'x'.repeat(YAML_LIMITS.maxLineChars)}"`);

test('a value nested 100 levels deep: exit 3, NOT CHECKED in the summary and on stderr', () => {
  const dir = writeFiles(path.join(work, 'deep'), { 'apps/deep.yaml': DEEP, 'apps/ok.yaml': appset('1') });
  const r = run(['lint', 'apps'], dir);
  assert.equal(r.code, 3, r.out + r.err);
  assert.match(r.out, /^apps\/deep\.yaml:12:\d+ warning yaml\/too-deep This document is not checked/m);
  // The other file is still checked, and its findings are reported.
  assert.match(r.out, /^apps\/ok\.yaml:7:3 error appset\/unknown-field/m);
  assert.match(r.out, /; 1 document NOT CHECKED\n$/);
  assert.match(r.err, /appset lint: a document was NOT CHECKED \(apps\/deep\.yaml: yaml\/too-deep\); exit status 3\./);
  // Every format: the same exit status; JSON says how many.
  for (const format of ['json', 'sarif', 'github', 'markdown', 'codequality'])
    assert.equal(run(['lint', 'apps', '--format', format], dir).code, 3, format);
  assert.equal(JSON.parse(run(['lint', 'apps', '--format', 'json'], dir).out).summary.unchecked, 1);
  // --quiet (errors only) and --no-fail do not open the gate either.
  assert.equal(run(['lint', 'apps', '--quiet'], dir).code, 3);
  assert.equal(run(['lint', 'apps', '--no-fail'], dir).code, 3);
});

test('a line over the line limit: exit 3', () => {
  const dir = writeFiles(path.join(work, 'long'), { 'long.yaml': LONG });
  const r = run(['lint', 'long.yaml'], dir);
  assert.equal(r.code, 3, r.err);
  assert.match(r.err, /\(long\.yaml: yaml\/line-too-long\)/);
});

test('the user may accept it: the code lowered in .appset-tools.yaml, turned off, or suppressed inline', () => {
  const lowered = writeFiles(path.join(work, 'lowered'), {
    '.appset-tools.yaml': 'severity:\n  yaml/too-deep: information\n',
    'deep.yaml': DEEP,
  });
  const r = run(['lint', 'deep.yaml'], lowered);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /information yaml\/too-deep/);
  const off = writeFiles(path.join(work, 'off'), { '.appset-tools.yaml': 'severity:\n  yaml/*: off\n', 'deep.yaml': DEEP });
  assert.equal(run(['lint', 'deep.yaml'], off).code, 0);
  // Raised to error: still not checked, still 3.
  const raised = writeFiles(path.join(work, 'raised'), { '.appset-tools.yaml': 'severity:\n  yaml/too-deep: error\n', 'deep.yaml': DEEP });
  assert.equal(run(['lint', 'deep.yaml'], raised).code, 3);
  const inline = writeFiles(path.join(work, 'inline'), {
    'deep.yaml': DEEP.replace(
      '            extra:',
      '            # appset-tools: ignore yaml/too-deep -- generated fixture\n            extra:',
    ),
  });
  assert.equal(run(['lint', 'deep.yaml'], inline).code, 0, run(['lint', 'deep.yaml'], inline).out);
});

test('no YAML file in the inputs: exit 4 (a CI job pointed at the wrong folder does not pass)', () => {
  const dir = writeFiles(path.join(work, 'empty'), { 'docs/readme.md': '# x\n' });
  const r = run(['lint', 'docs'], dir);
  assert.equal(r.code, 4, r.out + r.err);
  assert.match(r.err, /appset lint: no YAML file found in docs/);
});

/**
 * Issue 38: a file found in a linted folder that cannot be read was not checked, so the run fails (exit 2,
 * an input that cannot be read, docs/cli.md), beside a readable one and alone. The tests run as root, which
 * reads a `chmod 000` file: the CLI runs as the unprivileged `nobody` user instead (skipped when this
 * process cannot switch users).
 */
test('issue 38: an ApplicationSet that cannot be opened (EACCES) in a linted folder fails the run: exit 2, NOT CHECKED, not exit 0 or 4', (t) => {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return t.skip('needs root to run the CLI as another user');
  const nobody = { uid: 65534, gid: 65534 };
  const dir = path.join(work, 'eacces');
  writeFiles(dir, { 'apps/readable.yaml': appset('1'), 'apps/locked.yaml': appset('2'), 'alone/locked.yaml': appset('3') });
  for (const d of [work, dir, path.join(dir, 'apps'), path.join(dir, 'alone')]) fs.chmodSync(d, 0o755);
  fs.chmodSync(cli, 0o644);
  fs.chmodSync(path.join(dir, 'apps/readable.yaml'), 0o644);
  fs.chmodSync(path.join(dir, 'apps/locked.yaml'), 0o000);
  fs.chmodSync(path.join(dir, 'alone/locked.yaml'), 0o000);
  const asNobody = (args: string[]) => runCli(cli, args, { cwd: dir, user: nobody, env: { ...process.env, HOME: dir } });
  const probe = asNobody(['--version']);
  if (probe.code !== 0) return t.skip(`the CLI cannot run as nobody here: ${probe.err}`);

  const beside = asNobody(['lint', '--no-cache', '--format', 'json', 'apps']);
  assert.equal(beside.code, 2, beside.err);
  assert.match(beside.err, /appset lint: apps\/locked\.yaml: NOT CHECKED: it cannot be opened \(EACCES\)/);
  const j = JSON.parse(beside.out);
  assert.deepEqual(
    j.problems.map((p: { path: string }) => p.path),
    ['apps/locked.yaml'],
  );
  assert.deepEqual(
    j.files.map((f: { path: string }) => f.path),
    ['apps/readable.yaml'],
  );

  const alone = asNobody(['lint', '--no-cache', 'alone']);
  assert.equal(alone.code, 2, alone.err);
  assert.match(alone.err, /alone\/locked\.yaml: NOT CHECKED: it cannot be opened \(EACCES\)/);
  assert.doesNotMatch(alone.err, /no (ApplicationSet|YAML file) found/);
});
