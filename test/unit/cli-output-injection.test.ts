// Text output that cannot start a line with something the user wrote: file names, ApplicationSet
// names and list parameters holding line breaks, carriage returns, U+2028, terminal escapes and
// workflow commands (`::error …`, `::add-mask::`, `::stop-commands::`), through the CLI as a process,
// in every format of lint, render, plan, diff and template. A GitHub Actions runner reads a line whose
// first non-blank characters are `::` as a command: only `--format github`'s own lines may.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, git, runCli, writeFiles } from '../helpers/cli';

let cli = '';
let work = '';
before(() => {
  ({ cli, work } = bundleCli('cli-injection-'));
});
const run = (args: string[], cwd: string) => runCli(cli, args, { cwd, timeout: 120_000 });

/** The hostile strings: each would start a line of its own (or a command) if printed raw. */
const INJECTIONS = [
  '\n::error file=x::pwned',
  '\n::add-mask::x',
  '\r::stop-commands::tok',
  '\u2028::warning::sep',
  '\u001b[2K\r::notice::ansi',
  '\n  ##[add-mask]legacy',
];

const appset = (i: number, inj: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ${JSON.stringify(`set${inj}`)}
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - cluster: ${JSON.stringify(`c${i}${inj}`)}
            url: https://kubernetes.default.svc
  template:
    metadata:
      name: '{{.cluster}}'
      labels:
        ${JSON.stringify(`::key${i}`)}: ${JSON.stringify(`v${inj}`)}
    spec:
      project: default
      source: {repoURL: https://example.com/x.git, path: p, targetRevision: HEAD}
      destination: {server: '{{.url}}', namespace: default}
`;

/** File name → text: every injection in a file name, and one file whose name starts with `::`. */
const files = (): Record<string, string> => {
  const out: Record<string, string> = {};
  INJECTIONS.forEach((inj, i) => (out[`apps/f${i}${inj}.yaml`] = appset(i, inj)));
  out['apps/::error file=y::lead.yaml'] = appset(9, INJECTIONS[0]);
  return out;
};

/** Lines a runner would read as workflow commands: `::` after blanks, or the legacy `##[` anywhere. */
function commandLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((l) => /^\s*::/.test(l) || l.includes('##['));
}

function assertNoCommands(what: string, r: { out: string; err: string }) {
  assert.deepEqual(commandLines(r.out), [], `${what}: stdout`);
  assert.deepEqual(commandLines(r.err), [], `${what}: stderr`);
  // JSON may hold U+2028 inside a string (valid JSON, and inside quotes: it starts nothing).
  const texts = what.includes('json') ? [r.err] : [r.out, r.err];
  for (const s of texts) assert.doesNotMatch(s, /[\u001b\u2028]/, `${what}: a control character or U+2028 printed raw`);
}

test('lint (text, markdown), render, plan and template print no line the user starts', () => {
  const dir = writeFiles(path.join(work, 'lint'), files());
  for (const format of ['text', 'markdown']) {
    const r = run(['lint', 'apps', '--format', format], dir);
    assert.equal(r.code, 1, r.err);
    assertNoCommands(`lint --format ${format}`, r);
    // The names are still there, escaped visibly.
    if (format === 'text') assert.match(r.out, /^apps\/f0\\n::error file=x::pwned\.yaml:\d+:\d+ /m);
  }
  // A named file that does not exist, its name an injection: the problem line too.
  assertNoCommands('lint missing file', run(['lint', 'apps', 'no\n::error::missing.yaml'], dir));
  for (const rel of [
    'apps/f0\n::error file=x::pwned.yaml',
    'apps/f3\u2028::warning::sep.yaml',
    'apps/f4\u001b[2K\r::notice::ansi.yaml',
    'apps/::error file=y::lead.yaml',
  ]) {
    for (const args of [
      ['render', rel],
      ['render', rel, '--output', 'json'],
      ['plan', rel],
      ['plan', rel, '--output', 'json'],
    ]) {
      const r = run(args, dir);
      assert.notEqual(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assertNoCommands(args.join(' '), r);
    }
  }
  const rendered = run(['render', 'apps/f0\n::error file=x::pwned.yaml'], dir).out;
  assert.match(rendered, /^ {2}name: "c0\\n::error file=x::pwned"$/m, 'render quotes a multi-line value');
  assert.match(rendered, /^# Preview of ApplicationSet "set\\n::error file=x::pwned": 1 Application$/m);
  const t = run(['template', '--go-template', '{{ fail "a\n::error file=t::x" }}'], dir);
  assert.equal(t.code, 1);
  assertNoCommands('template', t);
  assertNoCommands('unknown command', run(['\n::error::cmd'], dir));
});

test('diff (text, markdown) prints no line the user starts', () => {
  const dir = path.join(work, 'diff');
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, { 'apps/keep.yaml': appset(7, '') });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  writeFiles(dir, files());
  for (const format of ['text', 'markdown']) {
    const r = run(['diff', '--base', 'main', '--format', format], dir);
    assert.notEqual(r.code, 2, r.err);
    assert.match(
      r.out,
      format === 'text' ? /c0\\n::error file=x::pwned/ : /c0 ::error file=x::pwned/,
      `${format}: the Application is listed`,
    );
    assertNoCommands(`diff --format ${format}`, r);
  }
});

test('--format github: only our own commands, user text escaped the workflow-command way', () => {
  const dir = writeFiles(path.join(work, 'github'), files());
  const r = run(['lint', 'apps', '--format', 'github'], dir);
  assert.equal(r.code, 1, r.err);
  const commands = commandLines(r.out);
  assert.ok(commands.length >= INJECTIONS.length, r.out);
  for (const l of commands)
    assert.match(l, /^::(error|warning|notice) file=[^:,]*,line=\d+,endLine=\d+,col=\d+(,endColumn=\d+)?,title=[^:]+::/, l);
  assert.match(r.out, /file=apps\/f0%0A%3A%3Aerror file=x%3A%3Apwned\.yaml,/);
  assert.match(r.out, /file=apps\/f2%0D%3A%3Astop-commands%3A%3Atok\.yaml,/);
  // Every line of stdout is a command of ours or the summary.
  for (const l of r.out.trimEnd().split(/\r\n|\r|\n/)) assert.ok(l.startsWith('::') || /^\d+ ApplicationSets? in /.test(l), l);
});

/** Markdown a GitHub renderer would make live from user text: links, images, HTML, mentions, bare URLs. */
const LIVE_MD = [
  '[click](https://evil.example/x)',
  '![img](https://evil.example/i.png)',
  '<img src=x onerror=y>',
  '@octocat',
  'www.evil.example',
];

const mdAppSet = (name: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ${JSON.stringify(name)}
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - cluster: ${JSON.stringify(`c ${LIVE_MD.join(' ')}`)}
  template:
    metadata:
      name: '{{.cluster}}'
    spec:
      project: ${JSON.stringify(`p ${LIVE_MD.join(' ')}`)}
      source: {repoURL: https://example.com/x.git, path: p, targetRevision: HEAD}
      destination: {server: https://kubernetes.default.svc, namespace: default}
`;

/** The markdown outside its code spans (whatever their fence), where GitHub renders constructs. */
const outsideCode = (md: string) => md.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');

function assertInertMarkdown(what: string, md: string) {
  const live = outsideCode(md);
  // Our own links (to docs/codes.md) stay; none to the user's target.
  assert.doesNotMatch(live, /(?<!\\)\]\((?!https:\/\/github\.com\/)/, `${what}: a live link from user text\n${md}`);
  assert.doesNotMatch(live, /(?<!\\)!(?<!\\)\[/, `${what}: a live image\n${md}`);
  assert.doesNotMatch(live, /(?<!\\)<img/i, `${what}: live HTML\n${md}`);
  assert.doesNotMatch(live, /@octocat/, `${what}: a live mention\n${md}`);
  assert.doesNotMatch(live, /https:\/\/evil|www\.evil/, `${what}: a live URL\n${md}`);
}

test('issue 38: markdown (lint, plan, diff) keeps no link, image, HTML, mention or URL from user text live', () => {
  const name = `shop ${LIVE_MD.join(' ')}`;
  const dir = path.join(work, 'md');
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, { 'apps/keep.yaml': appset(7, '') });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  writeFiles(dir, { 'apps/shop.yaml': mdAppSet(name) });
  const lint = run(['lint', 'apps', '--format', 'markdown', '--no-fail'], dir);
  assert.match(lint.out, /octocat/, `lint: the finding quotes the user's text\n${lint.out}${lint.err}`);
  assertInertMarkdown('lint --format markdown', lint.out);
  const plan = run(['plan', 'apps/shop.yaml', '--output', 'markdown'], dir);
  assert.match(plan.out, /octocat/, `plan\n${plan.out}${plan.err}`);
  assertInertMarkdown('plan --output markdown', plan.out);
  const diff = run(['diff', '--base', 'main', '--format', 'markdown'], dir);
  assert.match(diff.out, /octocat/, `diff\n${diff.out}${diff.err}`);
  assertInertMarkdown('diff --format markdown', diff.out);
});
