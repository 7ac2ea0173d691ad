// Issue 25's probe, kept as a test: every hostile input the issue lists, written here (small,
// generated in a temporary folder), run through the CLI as a process. Each must end in one clear
// finding or the documented exit status (docs/cli.md), never a hang (process timeouts are only a
// hang guard, generous for shared machines), never a read outside the root (a canary file beside the
// root must never be quoted) and never an output line that starts with what the user wrote (`::` is
// a GitHub Actions workflow command). The language-server leftovers (a 100,000-folder tree, a bad
// Content-Length) are tested over stdio in test/lsp/hostile.test.ts.
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, git, runCli, writeFiles, type CliRun } from '../helpers/cli';
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';
import { clusterSecret } from '../helpers/clusters';

const CANARY = 'canaryTokenOutside7f3a';
const REPO = 'https://github.com/org/repo.git';
let cli = '';
let work = '';
before(() => {
  ({ cli, work } = bundleCli('hostile-probe-'));
  // The canary beside every root: an ApplicationSet whose field name is a token, which no output may quote.
  writeFiles(work, { 'outside/secret.yaml': `${appsetHead('outside')}  ${CANARY}: 1\n` });
});
// HOSTILE_PROBE_KEEP=1 keeps the inputs (to time them by hand: docs/limits.md's numbers).
after(() => (process.env.HOSTILE_PROBE_KEEP ? console.log(`inputs kept in ${work}`) : fs.rmSync(work, { recursive: true, force: true })));

/** A folder for one case (beside the canary, never holding it). */
function root(name: string, files: Record<string, string>): string {
  return writeFiles(path.join(work, name), files);
}

/** The CLI in `cwd`; a hang guard only. */
const run = (cwd: string, ...args: string[]): CliRun => runCli(cli, args, { cwd, timeout: 180_000, maxBuffer: 64 * 2 ** 20 });

/** What every run must hold: it ended, with no crash, no internal error, no canary, no injected line start. */
function sane(r: CliRun, what: string): string {
  const all = r.out + r.err;
  assert.equal(r.signal, null, `${what}: killed (${r.signal}); ${r.err.slice(0, 400)}`);
  assert.doesNotMatch(
    all,
    /internal error|RangeError|TypeError|URI malformed|\[object Object\]|bad_alloc/,
    `${what}: ${all.slice(0, 800)}`,
  );
  assert.ok(!all.includes(CANARY), `${what}: quoted a file outside the root`);
  const injected = all.split(/\r\n|\r|\n|\u2028|\u2029/).filter((l) => /^\s*::/.test(l));
  assert.deepEqual(injected, [], `${what}: lines that start a workflow command`);
  return all;
}

/** Findings of one code in a text report (`path:line:col severity code message`). */
const count = (out: string, code: string) => out.split('\n').filter((l) => l.includes(` ${code} `)).length;

/** An ApplicationSet; its Applications are named by the parameter `n` (a cluster generator's `name`). */
const appset = (name: string, generators: string, extra = '') =>
  `${appsetHead(name)}  generators:\n${generators}${extra}  template:\n    metadata:\n      name: '${name}-{{ ${generators.includes('clusters:') ? '.name' : '.n'} }}'\n${MINIMAL_TEMPLATE_SPEC}`;
const listOfN = (n: number) => `    - list:\n        elements:\n${Array.from({ length: n }, (_, i) => `          - n: a${i}\n`).join('')}`;
const clustersGen = '    - clusters: {}\n';

test('glob patterns: a backtracking git path and an ignore pattern end quickly', () => {
  const long = 'a'.repeat(200);
  const dir = root('glob', {
    [`repo/${long}`]: '{}',
    'appset.yaml': appset(
      'glob',
      `    - git:\n        repoURL: ${REPO}\n        revision: HEAD\n        files:\n          - path: '*a*a*a*a*a*a*b'\n`,
    ),
    [`ignored/${'a'.repeat(120)}.yaml`]: appset('ign', listOfN(1)),
    'ignored/.appset-tools.yaml': "ignore:\n  - '*a*a*a*a*a*a*b'\n",
  });
  const r = run(dir, 'lint', 'appset.yaml', '--repo-map', `${REPO}=repo`);
  sane(r, 'git path');
  assert.equal(r.code, 0, r.out + r.err);
  const i = run(dir, 'lint', 'ignored');
  sane(i, 'ignore');
  assert.equal(i.code, 0, i.out + i.err);
});

test('many keys: 90,000 keys in a cluster Secret, 60,000 annotations — read, linear, no finding', () => {
  const data = Array.from({ length: 90_000 }, (_, i) => `  k${i}: dg==\n`).join('');
  const annotations = Array.from({ length: 60_000 }, (_, i) => `        k${i}: v\n`).join('');
  const dir = root('keys', {
    'clusters.yaml': clusterSecret({ name: 'big' }) + 'data:\n' + data,
    'appset.yaml': appset('keys', clustersGen),
    'annotated.yaml': appset('ann', listOfN(1)).replace(
      "      name: 'ann-{{ .n }}'\n",
      `      name: 'ann-{{ .n }}'\n      annotations:\n${annotations}`,
    ),
  });
  const r = run(dir, 'lint', '.');
  sane(r, 'many keys');
  assert.equal(r.code, 0, r.out.slice(-600) + r.err);
  assert.match(r.out, /2 ApplicationSets in 2 files: 0 errors/);
});

test("Helm detection: 50,000 unclosed '{{ a' in one annotation is one template finding", () => {
  const dir = root('helm', { 'appset.yaml': appset('helm', listOfN(1), `  templatePatch: ${JSON.stringify('{{ a'.repeat(50_000))}\n`) });
  const r = run(dir, 'lint', 'appset.yaml');
  const all = sane(r, 'helm');
  assert.equal(r.code, 1, all.slice(0, 600));
  assert.equal(count(r.out, 'template/parse-error'), 1, r.out.slice(0, 600));
});

test(
  'appset diff and lint read nothing but regular files inside the root: /dev/zero, a FIFO, links out',
  { skip: process.platform === 'win32' },
  () => {
    const dir = root('reads', { 'apps/appset.yaml': appset('reads', listOfN(2)) });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'base');
    fs.symlinkSync('/dev/zero', path.join(dir, 'apps', 'zero.yaml'));
    fs.symlinkSync('/dev/urandom', path.join(dir, 'apps', 'random.yaml'));
    fs.symlinkSync(path.join(work, 'outside', 'secret.yaml'), path.join(dir, 'apps', 'out.yaml'));
    assert.equal(spawnSync('mkfifo', [path.join(dir, 'apps', 'fifo.yaml')]).status, 0);
    const d = run(dir, 'diff', '--base', 'main', 'apps');
    const said = sane(d, 'diff');
    assert.equal(d.code, 0, said);
    for (const f of ['zero.yaml', 'random.yaml', 'fifo.yaml', 'out.yaml']) assert.match(d.err, new RegExp(`${f}: skipped`), said);
    const l = run(dir, 'lint', 'apps');
    const lsaid = sane(l, 'lint folder');
    assert.equal(l.code, 0, lsaid);
    assert.match(l.err, /out\.yaml: skipped: it is a symbolic link to a file outside the folder, not followed/);
    assert.match(l.err, /fifo\.yaml: skipped: it is not a regular file/);
  },
);

test('appset diff --inventory reads exactly that file, on both sides: a stray Secret beside it is no cluster', () => {
  const dir = root('inventory', {
    'apps/appset.yaml': appset('inv', clustersGen),
    'inv/clusters.yaml': clusterSecret({ name: 'prod' }),
    'inv/stray.yaml': clusterSecret({ name: 'strayone' }),
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  const r = run(dir, 'diff', '--base', 'main', 'apps', '--inventory', 'inv/clusters.yaml', '--format', 'json');
  const said = sane(r, 'inventory');
  assert.equal(r.code, 0, said);
  assert.doesNotMatch(r.out, /strayone/, 'the stray Secret is not a cluster');
  assert.doesNotMatch(r.out, /"added": \[\s*\{/, 'nothing added: the base side reads the inventory too');
});

test('workflow-command injection in a file name, an ApplicationSet name and a list parameter: no line starts with it', () => {
  const inj = '\n::error file=x::pwned';
  const text = appset('inj', `    - list:\n        elements:\n          - n: ${JSON.stringify(`p${inj}`)}\n`).replace(
    'name: inj',
    `name: ${JSON.stringify(`inj${inj}`)}`,
  );
  const dir = root('inject', { [`apps/f${inj}.yaml`]: text });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  fs.writeFileSync(path.join(dir, 'apps', `f${inj}.yaml`), text.replace('p\\n', 'q\\n'));
  for (const args of [
    ['lint', 'apps'],
    ['render', `apps/f${inj}.yaml`],
    ['diff', '--base', 'main', 'apps'],
    ['plan', `apps/f${inj}.yaml`],
  ]) {
    const r = run(dir, ...args);
    sane(r, args[0]);
    assert.ok(r.code !== null && r.code <= 1, `${args[0]}: exit ${r.code}: ${r.err}`);
  }
});

test('the gate fails closed: a value nested 100 levels deep, a line over 262,144 characters — exit 3, NOT CHECKED', () => {
  const deep = `${'{a: '.repeat(101)}1${'}'.repeat(101)}`;
  const dir = root('gate', {
    'deep.yaml': appset('deep', listOfN(1), `  x: ${deep}\n`),
    'long.yaml': appset('long', listOfN(1), `  x: ${'y'.repeat(262_145)}\n`),
  });
  for (const [f, code] of [
    ['deep.yaml', 'yaml/too-deep'],
    ['long.yaml', 'yaml/line-too-long'],
  ]) {
    const r = run(dir, 'lint', f);
    sane(r, f);
    assert.equal(r.code, 3, r.out + r.err);
    assert.equal(count(r.out, code), 1, r.out);
    assert.match(r.err, /NOT CHECKED/);
  }
});

test('a suppression that is text of a block scalar silences nothing', () => {
  const text = appset(
    'supp',
    listOfN(1),
    '  templatePatch: |\n    # appset-tools: ignore appset/unknown-field -- not a comment\n  bogusField: 1\n',
  );
  const dir = root('suppress', { 'appset.yaml': text });
  const r = run(dir, 'lint', 'appset.yaml');
  sane(r, 'suppression');
  assert.equal(r.code, 1, r.out + r.err);
  assert.equal(count(r.out, 'appset/unknown-field'), 1, r.out);
});

test("'%' in file names is a character: bad%zz.yaml and p%41.yaml are checked and counted, pA.yaml never named", () => {
  const dir = root('percent', { 'bad%zz.yaml': appset('bad', listOfN(1)), 'p%41.yaml': appset('p41', listOfN(1)) });
  const r = run(dir, 'lint', '.', '--format', 'json');
  const said = sane(r, 'percent');
  assert.equal(r.code, 0, said);
  const report = JSON.parse(r.out) as { summary: { files: number; applicationSets: number } };
  assert.equal(report.summary.applicationSets, 2, r.out.slice(0, 400));
  assert.doesNotMatch(r.out, /pA\.yaml/);
});

test('YAML readers: an unterminated quote before ---, a mis-indented line in a 100 KiB list — one finding each', () => {
  const list = Array.from({ length: 4000 }, (_, i) => `          - n: item-${String(i).padStart(8, '0')}\n`);
  list[2000] = '\t         - n: tabbed\n';
  const dir = root('readers', {
    'quote.yaml': `${appset('q', listOfN(1))}  x: "unterminated\n---\n${appset('q2', listOfN(1))}`,
    'tabbed.yaml': appset('t', `    - list:\n        elements:\n${list.join('')}`),
  });
  const q = run(dir, 'lint', 'quote.yaml');
  sane(q, 'quote');
  assert.equal(q.code, 1, q.out + q.err);
  assert.ok(count(q.out, 'yaml/syntax') >= 1, q.out);
  const t = run(dir, 'lint', 'tabbed.yaml');
  sane(t, 'tabbed');
  assert.ok(t.code === 1 || t.code === 3, t.out + t.err);
  assert.ok(t.out.split('\n').filter((l) => / error yaml\//.test(l)).length <= 2, t.out.slice(0, 800));
});

test('leftovers: a templatePatch ranging 2,000 items over 500 Applications ends; 50,001 folder entries are said; an alias-bomb cluster Secret is said and fails closed; no [object Object]', () => {
  const patch =
    "  templatePatch: |\n    metadata:\n      annotations:\n        last: '{{ range $i := until 2000 }}{{ if eq $i 1999 }}{{ $.n }}{{ end }}{{ end }}'\n";
  const bomb = [clusterSecret({ name: 'bomb' }).trimEnd(), '  a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 12; i++)
    bomb.push(
      `  a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  const dir = root('leftovers', {
    'patch/appset.yaml': appset('patch', listOfN(500), patch),
    'bomb/appset.yaml': appset('bomb', clustersGen),
    'bomb/secret.yaml': bomb.join('\n') + '\n',
    'objects/appset.yaml': appset('obj', '    - git: {repoURL: {z: 1}, revision: [1], directories: [{path: {p: 1}}]}\n'),
  });
  const p = run(dir, 'lint', 'patch/appset.yaml');
  sane(p, 'templatePatch');
  assert.equal(p.code, 0, p.out + p.err);
  const b = run(dir, 'lint', 'bomb');
  sane(b, 'alias bomb');
  assert.equal(b.code, 3, b.out + b.err);
  assert.equal(count(b.out, 'yaml/alias-limit'), 1, b.out);
  assert.match(b.out, /bomb\/secret\.yaml:1:1 error yaml\/alias-limit/);
  const plan = run(dir, 'plan', 'bomb/appset.yaml');
  sane(plan, 'plan');
  assert.match(plan.out, /secret\.yaml \(line 1\) was skipped, not read: it expands more than 100 YAML aliases/);
  const o = run(dir, 'lint', 'objects/appset.yaml');
  sane(o, 'objects');
  assert.equal(o.code, 1, o.out);
  // A tree past the scan's entry cap: the note says where the scan stopped.
  const wide = path.join(dir, 'wide');
  for (let i = 0; i <= 50; i++) {
    const d = path.join(wide, `d${String(i).padStart(2, '0')}`);
    fs.mkdirSync(d, { recursive: true });
    for (let j = 0; j < 1000; j++) fs.writeFileSync(path.join(d, `f${j}.txt`), '');
  }
  fs.writeFileSync(path.join(wide, 'appset.yaml'), appset('wide', clustersGen));
  const w = run(wide, 'lint', 'appset.yaml', '--workspace', '.');
  sane(w, 'wide tree');
  assert.equal(w.code, 0, w.out + w.err);
  assert.match(w.err, /note: the workspace scan stopped after 50,000 folder entries/);
});
