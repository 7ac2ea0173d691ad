// Hostile inputs of issue 16, each bounded in time and memory: the bundled CLI in a child process
// with a small heap and a timeout (a V8 abort shows as exit 134 / a signal, a hang as the timeout),
// and the pieces (pre-scan, host reads, workspace walk) in process.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { bundleCli, repoRoot as repo, runCli } from '../helpers/cli';
import * as YAML from 'yaml';
import { checkYamlLimits, YAML_LIMITS } from '@appset-tools/gotemplate';
import { guardYaml } from '../../server/src/engine/yaml';
import { parseFile } from '../../server/src/engine/kinds';
import { createNodeHost } from '../../server/src/host/nodeHost';
import { decodeText, readTextFile } from '../../server/src/host/files';
import { getLanguageService } from '@appset-tools/engine';
import { clusterSecret } from '../helpers/clusters';
import { appsetHead, gitGenerator, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';
import { HANG_GUARD_MS } from '../helpers/guard';

let cli = '';
let work = '';

before(() => {
  ({ cli, work } = bundleCli('robust-'));
});

/** The CLI with a 256 MB heap and a hang guard: crashes and hangs become failed assertions. */
const appset = (args: string[], cwd = work) =>
  runCli(cli, args, { cwd, timeout: HANG_GUARD_MS, nodeArgs: ['--max-old-space-size=256'], maxBuffer: 64 * 1024 * 1024 });

const BOMBS: [string, string][] = [
  ['dash-line.yaml', '- '.repeat(1000) + 'x\n'], // aborted V8 (RegExpCompiler) before
  ['nested-maps.yaml', Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + '\n'], // RangeError, exit 3
  ['brackets.yaml', '['.repeat(100000) + '\n'], // "Maximum call stack size exceeded" as the finding
  ['braces-in-map.yaml', 'a:\n  b: ' + '{a: '.repeat(5000) + '\n'],
  // Found by the long fuzz run: where the parser's error recovery ends a scalar or a flow collection
  // earlier than YAML's grammar says, what follows is structure again.
  ['block-scalar-unindent.yaml', 'a: >-\n    k:\n   ' + Array.from({ length: 300 }, (_, i) => ' '.repeat(i + 4) + 'k:').join('\n') + '\n'],
  ['flow-with-items.yaml', '{\n  a: b,\n' + Array.from({ length: 300 }, (_, i) => ' '.repeat(2 * i + 2) + '- k:').join('\n') + '\n'],
  ['quote-unindent.yaml', "a:\n  b: 'x k:\n" + Array.from({ length: 300 }, (_, i) => ' '.repeat(i + 1) + 'k:').join('\n') + '\n'],
];

for (const [name, text] of BOMBS) {
  test(`lint ${name}: one yaml/too-deep finding, no crash`, () => {
    fs.writeFileSync(path.join(work, name), text);
    const r = appset(['lint', name]);
    assert.equal(r.signal, null, r.err);
    // Fail closed (issue 25): a document that could not be checked is exit status 3, said on stderr.
    assert.equal(r.code, 3, r.err + r.out);
    assert.match(r.err, /a document was NOT CHECKED \(.*: yaml\/too-deep\); exit status 3/);
    const lines = r.out.trim().split('\n');
    assert.equal(lines.length, 2, r.out);
    assert.match(
      lines[0],
      new RegExp(
        `^${name.replace('.', '\\.')}:\\d+:\\d+ warning yaml/too-deep This document is not checked: it nests more than 100 levels deep`,
      ),
    );
    assert.doesNotMatch(r.out, /call stack|RangeError|internal error/);
  });
}

test('a too-deep document is blanked; the other documents of the file are still checked, at their offsets', () => {
  const text = 'a: 1\n---\n' + '- '.repeat(300) + 'x\n---\nb: [\n';
  const f = parseFile(text);
  assert.deepEqual(
    f.diagnostics.map((d) => [d.code, text.slice(0, d.span.start).split('\n').length]),
    [
      ['yaml/too-deep', 3],
      ['yaml/syntax', 6],
    ],
  );
  assert.deepEqual(f.docs[0].value, { a: 1 });
  assert.equal(f.text, text);
});

test('a file over the size limit is not parsed; a long line blanks its document', () => {
  const big = 'a: ' + 'x'.repeat(YAML_LIMITS.maxChars) + '\n';
  const t0 = Date.now();
  const g = guardYaml(big);
  assert.equal(g.text, '');
  assert.deepEqual(
    g.diagnostics.map((d) => d.code),
    ['yaml/too-large'],
  );
  assert.match(g.diagnostics[0].message, /^This file is not checked: it has 2\.0 MB characters/);
  assert.ok(Date.now() - t0 < 2000);
  const long = 'a: 1\n---\nb: ' + 'y'.repeat(YAML_LIMITS.maxLineChars + 1) + '\n';
  const f = parseFile(long);
  assert.deepEqual(
    f.diagnostics.map((d) => d.code),
    ['yaml/line-too-long'],
  );
  assert.match(f.diagnostics[0].message, /line 3 is 262,148 characters long/);
  assert.deepEqual(f.docs[0].value, { a: 1 });
});

test('NUL characters (UTF-16 without a byte-order mark) are one yaml/encoding finding', () => {
  const f = parseFile('a\0:\0 \0b\0\n\0');
  assert.deepEqual(
    f.diagnostics.map((d) => d.code),
    ['yaml/encoding'],
  );
});

test('the depth estimate never under-counts: nested values in block and flow style stay under the limit only when shallow', () => {
  // A value nested n deep in every style the yaml library writes: the estimate must reach n.
  for (const n of [1, 5, 20, 60, 99]) {
    let v: unknown = 'x';
    for (let i = 0; i < n; i++) v = i % 3 === 0 ? [v] : i % 3 === 1 ? { k: v } : { [`key${i}`]: [v, 1] };
    for (const style of [{}, { flowCollectionPadding: false, collectionStyle: 'flow' as const }]) {
      const text = YAML.stringify(v, style);
      const limits = { ...YAML_LIMITS, maxDepth: n - 1 };
      if (n > 1) assert.ok(checkYamlLimits(text, limits), `depth ${n} not noticed in:\n${text.slice(0, 300)}`);
    }
  }
});

test('no YAML file of the repository or of the shared Argo CD material is anywhere near the depth limit', () => {
  const files = execFileSync('git', ['ls-files', '*.yaml', '*.yml'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');
  assert.ok(files.length > 20);
  for (const f of files) {
    const text = fs.readFileSync(path.join(repo, f), 'utf8');
    assert.equal(checkYamlLimits(text, { ...YAML_LIMITS, maxDepth: 50 }), undefined, f);
  }
});

test(
  'host reads: a FIFO named *.yaml and a symlink to /dev/zero are skipped at once, with the reason',
  { skip: process.platform === 'win32' },
  () => {
    const root = fs.mkdtempSync(path.join(work, 'fifo-'));
    execFileSync('mkfifo', [path.join(root, 'pipe.yaml')]);
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.yaml'));
    const t0 = Date.now();
    assert.deepEqual(readTextFile(path.join(root, 'pipe.yaml')), { skipped: 'it is not a regular file (a FIFO)' });
    assert.deepEqual(readTextFile(path.join(root, 'zero.yaml')), { skipped: 'it is not a regular file (a character device)' });
    const logs: string[] = [];
    const host = createNodeHost([root], {}, (m) => logs.push(m));
    assert.equal(host.readFile(path.join(root, 'pipe.yaml')), undefined);
    assert.ok(Date.now() - t0 < 5000);
    assert.match(logs.join('\n'), /pipe\.yaml: it is not a regular file \(a FIFO\)/);
    // The CLI over that folder: skipped with a word on stderr, no hang.
    fs.writeFileSync(path.join(root, 'ok.yaml'), 'a: 1\n');
    const r = appset(['lint', root]);
    assert.equal(r.signal, null);
    assert.equal(r.code, 4, 'no ApplicationSet in the folder: ' + r.err);
    assert.match(r.err, /pipe\.yaml: skipped: it is not a regular file \(a FIFO\)/);
  },
);

test('UTF-16 and UTF-8 byte-order marks are decoded as go-yaml reads them', () => {
  const s = 'kind: ApplicationSet\n';
  assert.equal(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')])), s);
  assert.equal(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(s, 'utf16le').swap16()])), s);
  assert.equal(decodeText(Buffer.from('\ufeff' + s, 'utf8')), s);
});

test('render and plan: a missing or null spec.template and YAML errors are findings with exit 1, never a stack trace', () => {
  const head =
    'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: x, namespace: argocd}\nspec:\n  generators: [{list: {elements: [{name: a}]}}]\n';
  const cases: [string, string, RegExp][] = [
    ['no-template.yaml', head, /appset\/missing-field missing required field "template" in spec/],
    ['null-template.yaml', head + '  template: null\n', /appset\/missing-field "template" in spec is required but empty/],
    [
      'syntax.yaml',
      head +
        '  template: {metadata: {name: a}, spec: {project: default, destination: {server: "https://kubernetes.default.svc", namespace: d}}}\n---\nb: [\n',
      /yaml\/syntax/,
    ],
  ];
  for (const [name, text, want] of cases) {
    fs.writeFileSync(path.join(work, name), text);
    for (const cmd of ['render', 'plan']) {
      const r = appset([cmd, name]);
      assert.equal(r.signal, null);
      assert.equal(r.code, 1, `${cmd} ${name}: ${r.err}`);
      assert.match(r.err + r.out, want, `${cmd} ${name}`);
      assert.doesNotMatch(r.err, /internal error|TypeError|    at /, `${cmd} ${name}`);
    }
  }
});

test('bcrypt 1,000 times in the CLI ends under the time budget; --no-limits lifts it', () => {
  const t0 = Date.now();
  const r = appset(['template', '{{ range until 1000 }}{{ bcrypt (print .) | len }}{{ end }}', '--go-template']);
  assert.equal(r.code, 1);
  assert.match(r.out + r.err, /bcrypt skipped by the offline preview: .*appset --no-limits lifts this budget/);
  assert.ok(Date.now() - t0 < 25_000);
  const lifted = appset(['template', '{{ range until 3 }}{{ bcrypt (print .) | len }}{{ end }}', '--go-template', '--no-limits']);
  assert.equal(lifted.out.trim(), '606060');
});

test(
  'git generator: symlinks are files as git lists them, never followed; a "../repo" mapping outside the workspace is honoured',
  { skip: process.platform === 'win32' },
  () => {
    const base = fs.mkdtempSync(path.join(work, 'gitgen-'));
    const ws = path.join(base, 'ws');
    const repoDir = path.join(base, 'repo');
    fs.mkdirSync(path.join(repoDir, 'apps', 'a'), { recursive: true });
    fs.writeFileSync(path.join(repoDir, 'apps', 'a', 'config.json'), '{"name": "a"}');
    for (let i = 0; i < 4; i++) fs.symlinkSync('..', path.join(repoDir, 'apps', 'a', `loop${i}`));
    fs.mkdirSync(ws);
    const text = `${appsetHead('g')}  generators:
${gitGenerator('https://github.com/org/repo.git', 'files', 'apps/**/config.json', { compact: true })}  template:
    metadata: {name: '{{.name}}'}
    spec: {project: default, source: {repoURL: x, path: p}, destination: {server: 'https://kubernetes.default.svc', namespace: d}}
`;
    fs.writeFileSync(path.join(ws, 'appset.yaml'), text);
    const t0 = Date.now();
    const service = getLanguageService({ host: createNodeHost([ws], { repoMappings: { 'https://github.com/org/repo.git': '../repo' } }) });
    const a = service.analyze(path.join(ws, 'appset.yaml'), text, path.join(ws, 'appset.yaml'));
    const exp = service.applications(a)!;
    assert.deepEqual(
      exp.apps.map((x) => x.name),
      ['a'],
    );
    assert.ok(Date.now() - t0 < 10_000);
    // A mapping to a folder that does not exist is said, not dropped.
    const s2 = getLanguageService({ host: createNodeHost([ws], { repoMappings: { 'https://github.com/org/repo.git': '../nope' } }) });
    const e2 = s2.applications(s2.analyze(path.join(ws, 'appset.yaml'), text, path.join(ws, 'appset.yaml')))!;
    assert.match(
      e2.problems.map((p) => p.message).join('\n'),
      /repo mapping .* sends https:\/\/github\.com\/org\/repo\.git to "\.\.\/nope", but .*\/nope is not a readable folder/,
    );
  },
);

test('inventoryFiles outside the workspace ("../clusters.yaml") are read; one that names no readable file is said in the preview', () => {
  const base = fs.mkdtempSync(path.join(work, 'inventory-'));
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(base, 'clusters.yaml'), clusterSecret({ name: 'outside' }));
  const text = `${appsetHead('c')}  generators:
    - clusters: {}
  template:
    metadata:
      name: 'app-{{ .name }}'
${MINIMAL_TEMPLATE_SPEC}`;
  const file = path.join(ws, 'appset.yaml');
  const expansion = (inventoryFiles: string[]) => {
    const s = getLanguageService({ host: createNodeHost([ws], { inventoryFiles }) });
    return s.applications(s.analyze(file, text, file))!;
  };
  assert.deepEqual(
    expansion(['../clusters.yaml']).apps.map((a) => a.name),
    ['app-outside', 'app-in-cluster'],
  );
  const missing = expansion(['../nope.yaml']);
  assert.ok(
    missing.notes.some((n) => /appsetTools\.inventoryFiles names "\.\.\/nope\.yaml", but no readable file matches it/.test(n)),
    JSON.stringify(missing.notes),
  );
});

test('a templatePatch printing a value doubled 15 times is one finding, in linear time (fuzz seed 5163 input 1683: two minutes before)', () => {
  // The printed value is one 130 KB line of Go's `[[1] [1]]` form, which YAML reads with an error at
  // every `] [`: the YAML library's pretty errors copied the whole line for each of them.
  const text = `${appsetHead('p')}  generators:
    - list:
        elements: [{n: one}]
  template:
    metadata:
      name: 'app-{{ .n }}'
${MINIMAL_TEMPLATE_SPEC}  templatePatch: '{{ $d := list 1 }}${'{{ $d = list $d $d }}'.repeat(15)}{{ print $d }}'
`;
  const file = path.join(work, 'patch-print.yaml');
  const t0 = Date.now();
  const service = getLanguageService({ host: createNodeHost([work]) });
  const exp = service.applications(service.analyze(file, text, file))!;
  assert.match(exp.problems.map((p) => p.message).join('\n'), /error while converting template to json "\[\[\[/);
  assert.ok(Date.now() - t0 < 30_000, `a hang guard (took ${Date.now() - t0} ms)`);
});

// Issue 25: globs the user writes are matched without backtracking; many keys are checked with a Map.
test('a git generator pattern *a*a*a*a*a*a*b against a folder and a file named with 200 a, and the same pattern in ignore: linear (no freeze)', () => {
  const dir = path.join(work, 'glob-bomb');
  const long = 'a'.repeat(200);
  fs.mkdirSync(path.join(dir, 'repo', long), { recursive: true });
  fs.writeFileSync(path.join(dir, 'repo', long, `${long}.json`), '{}');
  const pattern = '*a*a*a*a*a*a*b';
  const gen = (kind: 'files' | 'directories', p: string) =>
    `${appsetHead(`g-${kind}`)}  generators:\n${gitGenerator('https://example.com/r.git', kind, p)}  template:\n    metadata:\n      name: 'x-{{.path.basename}}'\n${MINIMAL_TEMPLATE_SPEC}`;
  fs.writeFileSync(path.join(dir, 'dirs.yaml'), gen('directories', pattern));
  fs.writeFileSync(path.join(dir, 'files.yaml'), gen('files', `${long}/${pattern}`));
  fs.writeFileSync(path.join(dir, `${long}.yaml`), 'x: 1\n');
  fs.writeFileSync(path.join(dir, '.appset-tools.yaml'), `ignore: ["${pattern}", "**/${pattern}/**"]\n`);
  const r = appset(['lint', '--format', 'json', '--repo-map', `https://example.com/r.git=${path.join(dir, 'repo')}`, dir], dir);
  assert.equal(r.signal, null, 'finished under the hang guard');
  assert.ok(r.code === 0 || r.code === 1, r.err);
  const j = JSON.parse(r.out);
  assert.deepEqual(j.files.map((f: { path: string }) => f.path).sort(), ['dirs.yaml', 'files.yaml']);
});

test('a cluster Secret with 90,000 keys in data (0.9 MB, not a named file) is read in linear time', () => {
  const dir = path.join(work, 'many-keys');
  fs.mkdirSync(dir, { recursive: true });
  const keys = Array.from({ length: 90000 }, (_, i) => `  k${i.toString(36)}: x\n`).join('');
  fs.writeFileSync(
    path.join(dir, 'secret.yaml'),
    `${clusterSecret({ name: 'c1' }).replace('stringData:', 'data:\n' + keys + 'stringData:')}`,
  );
  fs.writeFileSync(
    path.join(dir, 'appset.yaml'),
    `${appsetHead('fleet')}  generators:\n    - clusters: {}\n  template:\n    metadata:\n      name: 'fleet-{{.name}}'\n${MINIMAL_TEMPLATE_SPEC}`,
  );
  const r = appset(['render', 'appset.yaml'], dir);
  assert.equal(r.signal, null, 'finished under the hang guard');
  assert.match(r.out, /fleet-c1/, r.err);
});

test("one tab-indented line in a ~100 KiB list: the library's stack overflow is ONE yaml/parser-overflow finding, lint exit 3 (issue 25)", () => {
  const items = Array.from({ length: 3000 }, (_, i) => [`          - cluster: c${i}`, `            url: https://c${i}.example`]).flat();
  items[1] = '\t' + items[1].trimStart();
  const text = `${appsetHead('tabbed')}  generators:
    - list:
        elements:
${items.join('\n')}
  template:
    metadata:
      name: '{{.cluster}}'
${MINIMAL_TEMPLATE_SPEC}`;
  assert.ok(text.length > 100 * 1024);
  const tabLine = text.slice(0, text.indexOf('\t')).split('\n').length;
  const f = parseFile(text);
  assert.deepEqual(
    f.diagnostics.map((d) => [d.code, text.slice(0, d.span.start).split('\n').length]),
    [['yaml/parser-overflow', tabLine]],
  );
  assert.match(
    f.diagnostics[0].message,
    /^This document is not checked: the YAML parser ran out of stack reading it, after this syntax error: a tab in the indentation/,
  );
  // The language service answers every request on it (the server's path), and the CLI fails closed.
  const service = getLanguageService({ host: createNodeHost([work], {}) });
  const a = service.analyze(path.join(work, 'tabbed.yaml'), text, path.join(work, 'tabbed.yaml'));
  assert.deepEqual(
    service.lint(a).map((d) => d.code),
    ['yaml/parser-overflow'],
  );
  for (const at of [0, text.indexOf('\t'), text.length - 5]) service.hover(a, at);
  fs.writeFileSync(path.join(work, 'tabbed.yaml'), text);
  const r = appset(['lint', 'tabbed.yaml']);
  assert.equal(r.code, 3, r.out + r.err);
  assert.match(r.out, new RegExp(`^tabbed\\.yaml:${tabLine}:1 error yaml/parser-overflow `, 'm'));
  assert.doesNotMatch(r.out + r.err, /internal error|RangeError/);
  assert.match(r.err, /NOT CHECKED \(tabbed\.yaml: yaml\/parser-overflow\)/);
});

test('mappings where the CRD wants strings: no message says "[object Object]" (issue 25)', () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: {a: 1}
  namespace: {b: 2}
spec:
  goTemplate: {c: 1}
  goTemplateOptions: [{d: 1}]
  generators:
    - list:
        elements:
          - cluster: {e: 1}
            url: [1]
        elementsYaml: {f: 1}
      selector:
        matchLabels: {g: {h: 1}}
        matchExpressions: [{key: {i: 1}, operator: {j: 1}, values: [{k: 1}]}]
    - clusters:
        selector: {matchLabels: {env: {x: 1}}}
        values: {v: {y: 1}}
    - git: {repoURL: {z: 1}, revision: [1], directories: [{path: {p: 1}, exclude: {q: 1}}], files: [{path: {r: 1}}]}
  strategy:
    type: {s: 1}
    rollingSync:
      steps:
        - matchExpressions: [{key: {t: 1}, operator: In, values: [{u: 1}]}]
          maxUpdate: {w: 1}
  syncPolicy: {applicationsSync: {x: 1}, preserveResourcesOnDeletion: {y: 1}}
  preservedFields: {annotations: [{z: 1}]}
  ignoreApplicationDifferences: [{jsonPointers: [{a: 1}], name: {b: 1}}]
  templatePatch: {c: 1}
  template:
    metadata:
      name: '{{.cluster}}'
      labels: {l: {m: 1}}
      finalizers: [{n: 1}]
    spec:
      project: {o: 1}
      source: {repoURL: {p: 1}, path: p, targetRevision: HEAD}
      destination: {server: '{{.url}}', namespace: {q: 1}}
`;
  const file = path.join(work, 'objects.yaml');
  const service = getLanguageService({ host: createNodeHost([work], {}) });
  const a = service.analyze(file, text, file);
  const said = [...service.lint(a).map((d) => d.message), service.preview(a, 0)?.yaml ?? ''];
  assert.ok(said.length > 5);
  for (const m of said) assert.doesNotMatch(m, /object Object/, m);
  assert.ok(
    said.some((m) => m.includes('"{\\"j\\":1}" is not a valid pod selector operator')),
    said.join('\n'),
  );
});
