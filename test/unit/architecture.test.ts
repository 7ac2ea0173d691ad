/**
 * The architecture invariants of ARCHITECTURE.md that are facts of the import graph, executed: every
 * import of every source file is read from its syntax tree and checked against the layer it is in. A new
 * forbidden import fails here with its file. The rules about what source code does (messages, process
 * state, the kind test, severities, path look-ups, typed requests) are lint rules: eslint-rules/, with
 * their planted breaks in test/unit/architecture-rules.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import ts from 'typescript';

const root = resolve(__dirname, '../..');
const SRC = join(root, 'server/src');

interface Import {
  file: string; // repo-relative
  spec: string;
  /** Repo-relative target for relative imports. */
  target?: string;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (n.endsWith('.ts') && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/**
 * Every import of a source text, read from its syntax tree (TypeScript's parser): `import`, `export …
 * from`, `import x = require(…)`, and `import(…)`/`require(…)` calls anywhere. `typeOnly` is an
 * `import type`/`export type` statement.
 */
function importsOfText(text: string, abs: string): Import[] {
  const file = relative(root, abs);
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean) =>
    out.push({ file, spec, target: spec.startsWith('.') ? relative(root, resolve(dirname(abs), spec)) : workspaceTarget(spec), typeOnly });
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier.text, !!node.importClause?.isTypeOnly);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier.text, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression;
      if (ts.isStringLiteral(e)) add(e.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      add(node.arguments[0].text, false);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, false, /\.m?js$/.test(abs) ? ts.ScriptKind.JS : ts.ScriptKind.TS));
  return out;
}

/**
 * The workspace packages (package.json `workspaces`) by name: an import of `@appset-tools/engine` or
 * `@appset-tools/protocol/settingsTable` targets that package's folder or the file under it, as a relative
 * import of the same file would.
 */
const WORKSPACES = new Map<string, string>(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces as string[]).map((dir) => [
    JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).name as string,
    dir,
  ]),
);
function workspaceTarget(spec: string): string | undefined {
  for (const [name, dir] of WORKSPACES) if (spec === name || spec.startsWith(name + '/')) return dir + spec.slice(name.length);
  return undefined;
}

const importsOf = (abs: string) => importsOfText(readFileSync(abs, 'utf8'), abs);
const all = [...sources(SRC), ...sources(join(root, 'client/src'))].flatMap(importsOf);
const under = (p: string | undefined, dir: string) => !!p && (p === dir || p.startsWith(dir + '/'));
type ImportRule = (i: Import) => string | undefined;
/** Each import rule by a short name, as its test first runs it (the planted-breaks test below runs them again). */
const IMPORT_RULES = new Map<string, ImportRule>();
const violations = (pred: ImportRule, name?: string, imports = all) => {
  if (name) IMPORT_RULES.set(name, pred);
  return imports.map((i) => pred(i)).filter((x): x is string => !!x);
};

const NODE_IO = /^(node:)?(fs|fs\/promises|child_process|worker_threads|http|https)$/;
const EDITOR =
  /^(vscode|vscode-languageserver|vscode-languageserver\/node|vscode-languageclient|vscode-languageclient\/node|vscode-languageserver-textdocument|vscode-languageserver-protocol)$/;

test('the engine touches no file system, process, editor or LSP API: the outside world comes through EngineHost', () => {
  const bad = violations(
    (i) =>
      under(i.file, 'server/src/engine') && (NODE_IO.test(i.spec) || EDITOR.test(i.spec)) ? `${i.file} imports ${i.spec}` : undefined,
    'engine-io',
  );
  assert.deepEqual(bad, []);
});

// The process global (`process.env`, `globalThis.process`, …) is eslint-rules/noProcessState.mjs's.
test('the engine imports no Node built-in module (os, path, process, …)', () => {
  const builtin = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const bad = violations(
    (i) => (under(i.file, 'server/src/engine') && builtin.has(i.spec) ? `${i.file} imports ${i.spec}` : undefined),
    'engine-builtin',
  );
  assert.deepEqual(bad, []);
});

test('only host/, cli/ and the process glue touch files and processes (fs, child_process, os)', () => {
  // host/: EngineHost over the disk and over a git revision, and the one safe read; cli/: the CLI's
  // own inputs, --output files and its index cache; codeCache.ts, cacheDir.ts: the loaders' V8 cache.
  const allowed = ['server/src/host', 'server/src/cli', 'server/src/codeCache.ts', 'server/src/cacheDir.ts'];
  const SYSTEM = /^(node:)?(fs|fs\/promises|child_process|os)$/;
  const bad = violations(
    (i) => (SYSTEM.test(i.spec) && !allowed.some((a) => under(i.file, a)) ? `${i.file} imports ${i.spec}` : undefined),
    'system',
  );
  assert.deepEqual(bad, []);
});

test('the engine never reaches up into a front (lsp, cli, host)', () => {
  const bad = violations(
    (i) =>
      under(i.file, 'server/src/engine') && ['server/src/lsp', 'server/src/cli', 'server/src/host'].some((d) => under(i.target, d))
        ? `${i.file} imports ${i.spec}`
        : undefined,
    'engine-up',
  );
  assert.deepEqual(bad, []);
});

test('the Go template library imports nothing outside itself', () => {
  const bad = violations((i) => {
    if (!under(i.file, 'server/src/gotemplate')) return undefined;
    if (i.target && !under(i.target, 'server/src/gotemplate')) return `${i.file} imports ${i.spec}`;
    if (!i.target && (NODE_IO.test(i.spec) || EDITOR.test(i.spec))) return `${i.file} imports ${i.spec}`;
    return undefined;
  }, 'gotemplate');
  assert.deepEqual(bad, []);
});

/** The source file an import's target names: `x` is `x.ts`, or `x/index.ts` for a folder. */
const fileOf = (target: string, exists: (f: string) => boolean) =>
  [`${target}.ts`, `${target}/index.ts`, target].find((f) => exists(f)) ?? target;

/**
 * The import circles among the given imports (type-only ones included: they tie the files together for
 * a reader just as much), each once, as the files around it from its first-met file.
 */
function circlesOf(imports: Import[], exists: (f: string) => boolean): string[] {
  const next = new Map<string, string[]>();
  for (const i of imports) {
    if (!i.target) continue;
    const list = next.get(i.file) ?? [];
    list.push(fileOf(i.target, exists));
    next.set(i.file, list);
  }
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found = new Set<string>();
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of next.get(f) ?? []) {
      if (state.get(t) === 'open') found.add([...stack.slice(stack.indexOf(t)), t].join(' -> '));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of [...next.keys()].sort()) if (!state.has(f)) visit(f);
  return [...found];
}

const existsInRepo = (f: string) => existsSync(join(root, f)) && statSync(join(root, f)).isFile();

test('no import circles: a file never reaches itself through its imports (inside a folder, shared parts move below both)', () => {
  assert.deepEqual(circlesOf(all, existsInRepo), []);
});

test('the circle check finds a circle, also through a folder index and a type-only import', () => {
  const imp = (file: string, target: string, typeOnly = false): Import => ({ file, spec: target, target, typeOnly });
  const files = new Set(['g/index.ts', 'g/matrix.ts', 'g/list.ts']);
  const exists = (f: string) => files.has(f);
  assert.deepEqual(circlesOf([imp('g/index.ts', 'g/matrix'), imp('g/matrix.ts', 'g', true), imp('g/index.ts', 'g/list')], exists), [
    'g/index.ts -> g/matrix.ts -> g/index.ts',
  ]);
  assert.deepEqual(circlesOf([imp('g/index.ts', 'g/matrix'), imp('g/matrix.ts', 'g/list')], exists), []);
});

test('fronts import the engine only through server/src/engine/index.ts, and the template library only through it', () => {
  const fronts = ['server/src/lsp', 'server/src/cli', 'server/src/host', 'server/src/web', 'server/src/server.ts', 'server/src/cli.ts'];
  const bad = violations((i) => {
    if (!fronts.some((f) => under(i.file, f))) return undefined;
    if (under(i.target, 'server/src/gotemplate')) return `${i.file} imports ${i.spec}`;
    if (under(i.target, 'server/src/engine') && i.target !== 'server/src/engine' && i.target !== 'server/src/engine/index')
      return `${i.file} imports ${i.spec}`;
    return undefined;
  }, 'fronts');
  assert.deepEqual(bad, []);
});

test('the VS Code client imports only the protocol from the server (never the engine)', () => {
  const bad = violations((i) => {
    if (!under(i.file, 'client/src')) return undefined;
    if (i.target && !under(i.target, 'client/src') && i.target !== 'server/src/protocol') return `${i.file} imports ${i.spec}`;
    return undefined;
  }, 'client');
  assert.deepEqual(bad, []);
});

/** The files a bundle starting at `entry` carries: its runtime imports, followed (type-only imports add no code). */
function reachedFrom(entry: string): Set<string> {
  const next = new Map<string, string[]>();
  for (const i of all) if (i.target && !i.typeOnly) next.set(i.file, [...(next.get(i.file) ?? []), fileOf(i.target, existsInRepo)]);
  const seen = new Set<string>([entry]);
  const todo = [entry];
  while (todo.length)
    for (const t of next.get(todo.pop()!) ?? [])
      if (!seen.has(t)) {
        seen.add(t);
        todo.push(t);
      }
  return seen;
}

test("the web worker's server (server/src/web) carries no Node host and no Node I/O; the web client no Node module", () => {
  const server = reachedFrom('server/src/web/server.ts');
  // Sanity: the walk reaches the engine and the shared handlers.
  assert.ok(server.has('server/src/lsp/main.ts') && server.has('server/src/engine/index.ts'), [...server].slice(0, 5).join(', '));
  const NODE_ONLY = [
    'server/src/host/nodeHost.ts',
    'server/src/host/gitRevisionHost.ts',
    'server/src/host/files.ts',
    'server/src/lsp/nodeMain.ts',
    'server/src/cli',
  ];
  const bad = [...server].filter((f) => NODE_ONLY.some((n) => under(f, n)));
  for (const i of all) if (server.has(i.file) && !i.typeOnly && NODE_IO.test(i.spec)) bad.push(`${i.file} imports ${i.spec}`);
  const client = reachedFrom('client/src/web/extension.ts');
  assert.ok(client.has('client/src/start.ts'));
  // (vscode-languageclient/node is fine there: esbuild.js builds the web client with it aliased to /browser.)
  for (const i of all)
    if (client.has(i.file) && !i.typeOnly && /^(node:)?(path|fs|child_process|os|net)$/.test(i.spec))
      bad.push(`${i.file} imports ${i.spec}`);
  assert.deepEqual(bad, []);
});

test('the protocol package has no runtime imports (types only), so the client bundle never pulls in engine code', () => {
  const bad = violations(
    (i) => (under(i.file, 'server/src/protocol') && !i.typeOnly ? `${i.file} imports ${i.spec} at run time` : undefined),
    'protocol',
  );
  assert.deepEqual(bad, []);
});

/**
 * The engine's layers, bottom-up. A module may import its own layer and those below it; the model
 * stages never import the editor features or the facade.
 */
const LAYERS: string[][] = [
  [
    'server/src/engine/types',
    'server/src/engine/host',
    'server/src/engine/inputs',
    'server/src/engine/codeLists',
    'server/src/engine/diagnostics',
    'server/src/engine/rules',
    'server/src/engine/objects',
    'server/src/engine/memoized',
    'server/src/engine/didYouMean',
    'server/src/engine/steps',
    'server/src/engine/paths',
    'server/src/protocol/index',
    'server/src/protocol/settingsTable',
  ],
  // The YAML reader: values, located trees, ranges and syntax findings, nothing about Argo CD.
  ['server/src/engine/yaml'],
  // What a document is (an ApplicationSet, argocd-apps values, a Helm chart template): each document
  // the reader hands on is asked (kinds/file.ts), so the reader never imports this floor.
  ['server/src/engine/kinds'],
  // The located fields of an ApplicationSet with their places, read from the located tree.
  ['server/src/engine/fields'],
  ['server/src/engine/workspace'],
  // Argo CD's releases and the version evidence of its install files; the install model, which reads
  // that evidence, and decides which release an ApplicationSet is checked against (install/target.ts);
  // then the stages that read both.
  ['server/src/engine/versions'],
  ['server/src/engine/install'],
  ['server/src/engine/generators', 'server/src/engine/validate', 'server/src/engine/config'],
  ['server/src/engine/expand'],
  ['server/src/engine/rollout'],
  ['server/src/engine/features'],
  ['server/src/engine/service'],
  ['server/src/engine/index'],
];
const layerOf = (p: string | undefined) => (p ? LAYERS.findIndex((l) => l.some((d) => under(p, d) || p === d)) : -1);

test('engine layers only import downwards (types → yaml → kinds → view → workspace → versions → install → generators/validate/config → expand → rollout → features → service → index)', () => {
  const bad = violations((i) => {
    if (!under(i.file, 'server/src/engine') || i.typeOnly) return undefined;
    const from = layerOf(i.file.replace(/\.ts$/, ''));
    const to = layerOf(i.target);
    if (from < 0 || to < 0) return undefined;
    return to > from ? `${i.file} (layer ${from}) imports ${i.spec} (layer ${to})` : undefined;
  }, 'layers');
  assert.deepEqual(bad, []);
});

test('the YAML reader knows only YAML: engine/yaml/ imports nothing from a floor above it, not even a type', () => {
  const yamlFloor = layerOf('server/src/engine/yaml');
  const bad = violations(
    (i) => (under(i.file, 'server/src/engine/yaml') && layerOf(i.target) > yamlFloor ? `${i.file} imports ${i.spec}` : undefined),
    'yaml-only',
  );
  assert.deepEqual(bad, []);
});

test('ARCHITECTURE.md states the layers this test checks, in the same order', () => {
  const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const block = doc.slice(doc.indexOf('<!-- layers -->'), doc.indexOf('<!-- /layers -->'));
  const stated = [...block.matchAll(/^\d+\. (.*)$/gm)].map((m) =>
    [...m[1].matchAll(/`([^`]+)`/g)].map((n) => n[1].replace(/\/$|\.ts$/g, '')).sort(),
  );
  // The protocol package's two files are named as before it was a package: protocol.ts is its index.
  const checked = LAYERS.map((l) =>
    l.map((d) => d.replace(/^server\/src\/protocol\/index$/, 'protocol').replace(/^server\/src\/(engine\/|protocol\/)?/, '')).sort(),
  );
  assert.deepEqual(stated, checked);
});

test('every engine file belongs to a layer', () => {
  const files = sources(join(SRC, 'engine')).map((f) => relative(root, f).replace(/\.ts$/, ''));
  assert.deepEqual(
    files.filter((f) => layerOf(f) < 0),
    [],
  );
});

test("the yaml library is an implementation detail of engine/yaml/ (and of the template library's fromYaml/toYaml)", () => {
  // kinds/argocdApps.ts builds the virtual documents of argocd-apps values from the file's own nodes.
  const bad = violations(
    (i) =>
      (i.spec === 'yaml' || i.spec.startsWith('yaml/')) &&
      under(i.file, 'server/src/engine') &&
      !under(i.file, 'server/src/engine/yaml') &&
      i.file !== 'server/src/engine/kinds/argocdApps.ts'
        ? `${i.file} imports ${i.spec}`
        : undefined,
    'yaml-library',
  );
  assert.deepEqual(bad, []);
});

test('the import reader reads multi-line imports whose comments hold quotes and apostrophes', () => {
  const text = [
    'import {',
    "  a, // the client's own name",
    '  b, /* a "quoted" word */',
    "} from './x';",
    "export type { C } from './y'; // it's here",
    "import './z';",
    "const s = 'import nothing from here';",
  ].join('\n');
  const read = importsOfText(text, join(SRC, 'engine/f.ts')).map((i) => `${i.spec}${i.typeOnly ? ' (type)' : ''}`);
  assert.deepEqual(read, ['./x', './y (type)', './z']);
});

test('the YAML reader has one door: outside engine/yaml/ it is imported only as engine/yaml (its index.ts)', () => {
  const bad = violations(
    (i) =>
      under(i.target, 'server/src/engine/yaml') &&
      !under(i.file, 'server/src/engine/yaml') &&
      i.target !== 'server/src/engine/yaml' &&
      i.target !== 'server/src/engine/yaml/index'
        ? `${i.file} imports ${i.spec}`
        : undefined,
    'yaml-door',
  );
  assert.deepEqual(bad, []);
});

/** The `export * from …` lines of a source text: a door that names nothing hands on whatever is behind it. */
function starExports(text: string): string[] {
  const sf = ts.createSourceFile('door.ts', text, ts.ScriptTarget.Latest, false);
  return sf.statements.filter((s) => ts.isExportDeclaration(s) && !s.exportClause).map((s) => s.getText(sf));
}

test("the YAML reader's door and the kinds' door name each thing they export (no export *)", () => {
  for (const door of ['server/src/engine/yaml/index.ts', 'server/src/engine/kinds/index.ts'])
    assert.deepEqual(starExports(readFileSync(join(root, door), 'utf8')), [], door);
  // Planted: the door as it was before it named its exports.
  assert.equal(starExports("export * from './document';\nexport { nodeAt } from './document';").length, 1);
});

test('the import reader sees imports (guards the checks above against reading nothing)', () => {
  assert.ok(all.length > 200, `only ${all.length} imports read`);
  assert.ok(all.some((i) => i.file === 'server/src/lsp/main.ts' && i.target === 'server/src/engine'));
  assert.ok(all.some((i) => i.file === 'client/src/request.ts' && i.target === 'server/src/protocol' && i.typeOnly));
});

test('the repository tracks no local tool links or installs (.tools, node_modules, shared)', () => {
  const r = spawnSync('git', ['ls-files', '--', '.tools', 'node_modules', 'shared'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) return; // not a git checkout (e.g. an unpacked VSIX): nothing to check
  assert.equal(
    r.stdout.trim(),
    '',
    'remove them with `git rm --cached <path>` (.gitignore ignores them; a committed .tools link replaces the code-server install of every checkout)',
  );
});

/**
 * Tests go through the doors. A test of behaviour imports the engine only through
 * `server/src/engine/index.ts` (or drives a front: the CLI as a process, the built server over
 * stdio); a unit test of one module's internals lives in `test/unit/engine/<module>/`, named for
 * the engine folder it tests, and imports only that folder's files besides the doors. The YAML
 * reader's door (`engine/yaml`, its index.ts) and the kinds' (`engine/kinds`: a file read with its
 * ApplicationSets) count as doors. So moving a file inside the engine
 * breaks only the tests in that module's folder.
 */
const TESTS = join(root, 'test');
function testSources(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (['fixtures', 'data', '.tmp', 'workspace', 'node_modules'].includes(n)) continue;
    if (statSync(p).isDirectory()) out.push(...testSources(p));
    else if (/\.(ts|mts|js|mjs)$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
const ENGINE_DOORS = [
  'server/src/engine',
  'server/src/engine/index',
  'server/src/engine/yaml',
  'server/src/engine/yaml/index',
  'server/src/engine/kinds',
  'server/src/engine/kinds/index',
];
const INTERNAL_TESTS = 'test/unit/engine';
/** The engine folder a test's own folder is named for (`test/unit/engine/yaml/x.test.ts` → `server/src/engine/yaml`). */
const moduleOfTest = (file: string) =>
  under(file, INTERNAL_TESTS) ? 'server/src/engine/' + relative(INTERNAL_TESTS, dirname(file)) : undefined;
function testDoorViolations(imports: Import[]): string[] {
  return imports.flatMap((i) => {
    const own = moduleOfTest(i.file);
    if (under(i.target, 'server/src/engine') && !ENGINE_DOORS.includes(i.target!) && !(own && under(i.target, own)))
      return [
        `${i.file} imports ${i.spec}, an engine internal: test behaviour through server/src/engine/index.ts (or the CLI, the built server); ` +
          (dirname(i.target!) === 'server/src/engine'
            ? 'the door exports the engine vocabulary'
            : `a unit test of that module's internals belongs in ${INTERNAL_TESTS}/${relative('server/src/engine', dirname(i.target!))}/`),
      ];
    // A test outside a module's folder borrowing a helper from inside it reaches the internals through it.
    if (under(i.target, INTERNAL_TESTS) && moduleOfTest(i.target!) !== own && !under(i.file, dirname(i.target!)))
      return [`${i.file} imports ${i.spec}, a helper of ${dirname(i.target!)}'s internal tests`];
    return [];
  });
}
const testImports = testSources(TESTS).flatMap(importsOf);

test("tests import the engine through its door; only a module's own folder in test/unit/engine/ imports its internals", () => {
  assert.deepEqual(testDoorViolations(testImports), []);
});

test('every internal-tests folder is named for an engine folder', () => {
  const folders = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? [join(dir, n), ...folders(join(dir, n))] : []));
  const bad = folders(join(root, INTERNAL_TESTS))
    .map((d) => relative(join(root, INTERNAL_TESTS), d))
    .filter((d) => !existsSync(join(SRC, 'engine', d)));
  assert.deepEqual(bad, []);
});

test('the test-door check fails a test that imports an engine internal from outside its module folder', () => {
  const read = (file: string, text: string) => importsOfText(text, join(root, file));
  const outside = read(
    'test/unit/x.test.ts',
    "import { parseYamlFile } from '../../server/src/engine/yaml/document';\nimport { a } from '../../server/src/engine';",
  );
  assert.equal(testDoorViolations(outside).length, 1);
  assert.match(testDoorViolations(outside)[0], /engine internal: test behaviour through server\/src\/engine\/index\.ts/);
  const inside = read('test/unit/engine/yaml/x.test.ts', "import { fastRead } from '../../../../server/src/engine/yaml/fastRead';");
  assert.deepEqual(testDoorViolations(inside), []);
  const neighbour = read(
    'test/unit/engine/yaml/x.test.ts',
    "import { runChecks } from '../../../../server/src/engine/validate/checks/index';",
  );
  assert.equal(testDoorViolations(neighbour).length, 1);
  const helper = read('test/unit/x.test.ts', "import { validateText } from './engine/validate/helpers';");
  assert.equal(testDoorViolations(helper).length, 1);
  assert.ok(testImports.length > 300, `only ${testImports.length} test imports read`);
});

/** Breaks of the import graph, planted as source texts: each is caught by the rule named. */
const IMPORT_BREAKS: [rule: string, file: string, text: string][] = [
  ['engine-io', 'server/src/engine/validate/x.ts', "import { readFileSync } from 'node:fs';"],
  ['engine-io', 'server/src/engine/validate/x.ts', "const cp = require('child_process');"],
  ['engine-io', 'server/src/engine/features/x.ts', "import type { Range } from 'vscode-languageserver';"],
  ['engine-builtin', 'server/src/engine/validate/x.ts', "import { join } from 'node:path';"],
  ['engine-builtin', 'server/src/engine/validate/x.ts', "const os = await import('os');"],
  ['system', 'server/src/lsp/x.ts', "import { homedir } from 'os';"],
  ['engine-up', 'server/src/engine/service/x.ts', "import { URI } from '../../lsp/uri';"],
  ['gotemplate', 'server/src/gotemplate/x.ts', "import { own } from '../engine/objects';"],
  ['fronts', 'server/src/cli/x.ts', "import { runChecks } from '../engine/validate/checks';"],
  ['fronts', 'server/src/lsp/x.ts', "export { execute } from '../gotemplate/exec';"],
  ['client', 'client/src/x.ts', "import { createService } from '../../server/src/engine';"],
  ['protocol', 'server/src/protocol/index.ts', "import { CODES } from '../engine/codeLists';"],
  ['protocol', 'server/src/protocol/settingsTable.ts', "import { CODES } from '@appset-tools/engine';"],
  ['fronts', 'server/src/cli/x.ts', "import { execute } from '@appset-tools/gotemplate';"],
  ['client', 'client/src/x.ts', "import { createService } from '@appset-tools/engine';"],
  ['layers', 'server/src/engine/yaml/x.ts', "import { fieldsOf } from '../fields';"],
  ['layers', 'server/src/engine/yaml/x.ts', "import {\n  parseFile, // what a document is\n} from '../kinds';"],
  ['layers', 'server/src/engine/yaml/x.ts', "import { isAppSetValue } from '../kinds/appset';"],
  ['yaml-library', 'server/src/engine/validate/x.ts', "import { parseDocument } from 'yaml';"],
  ['yaml-door', 'server/src/engine/validate/x.ts', "import { parseYamlFile } from '../yaml/document';"],
  ['yaml-only', 'server/src/engine/yaml/x.ts', "import type { AppSetDoc } from '../kinds';"],
  ['yaml-door', 'server/src/engine/kinds/x.ts', "import { fastRead } from '../yaml/fastRead';"],
];

test('every planted break of the import graph is caught by its rule', () => {
  const missed = IMPORT_BREAKS.filter(([rule, file, text]) => {
    const check = IMPORT_RULES.get(rule);
    assert.ok(check, `no import rule ${rule}`);
    return violations(check, undefined, importsOfText(text, join(root, file))).length !== 1;
  });
  assert.deepEqual(missed, []);
  // The same texts in a place where they are allowed are not reported by that rule.
  const fine: [string, string, string][] = [
    ['engine-io', 'server/src/host/x.ts', "import { readFileSync } from 'node:fs';"],
    ['layers', 'server/src/engine/fields/x.ts', "import { parseFile } from '../kinds';"],
    ['layers', 'server/src/engine/kinds/x.ts', "import { parseYamlFile } from '../yaml';"],
    ['yaml-library', 'server/src/engine/yaml/x.ts', "import { parseDocument } from 'yaml';"],
    ['protocol', 'server/src/protocol/index.ts', "import type { CODES } from '../engine/codeLists';"],
    ['client', 'client/src/x.ts', "import type { RolloutPlan } from '@appset-tools/protocol';"],
  ];
  for (const [rule, file, text] of fine)
    assert.deepEqual(violations(IMPORT_RULES.get(rule)!, undefined, importsOfText(text, join(root, file))), [], text);
});

const CODEMOD = join(root, 'scripts/arch/workspace-imports.mjs');

test('imports between the workspace packages are by name: the workspace codemod finds nothing to rewrite', () => {
  const r = spawnSync(process.execPath, [CODEMOD, '--check'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, `run: node scripts/arch/workspace-imports.mjs\n${r.stdout}${r.stderr}`);
});

test("the workspace codemod rewrites a branch's relative imports to package names once, follows moved files, and names an import past a door", () => {
  const dir = mkdtempSync(join(tmpdir(), 'workspace-codemod-'));
  const files: Record<string, string> = {
    '.prettierrc.json': readFileSync(join(root, '.prettierrc.json'), 'utf8'),
    'package.json': JSON.stringify({ workspaces: ['server/src/gotemplate', 'server/src/protocol', 'server/src/engine', 'server'] }),
    'server/src/gotemplate/package.json': JSON.stringify({ name: '@appset-tools/gotemplate', exports: { '.': './index.ts' } }),
    'server/src/gotemplate/index.ts': 'export const a = 1;\n',
    'server/src/gotemplate/exec.ts': 'export const b = 2;\n',
    'server/src/protocol/package.json': JSON.stringify({
      name: '@appset-tools/protocol',
      exports: { '.': './index.ts', './settingsTable': './settingsTable.ts' },
    }),
    'server/src/protocol/index.ts': 'export interface P {\n  x: number;\n}\n',
    'server/src/protocol/settingsTable.ts': 'export const SETTINGS = [];\n',
    'server/src/engine/package.json': JSON.stringify({ name: '@appset-tools/engine', exports: { '.': './index.ts' } }),
    // Written before the packages: the settings table where it was, the template library by path.
    'server/src/engine/index.ts':
      "import { a } from '../gotemplate';\nimport { SETTINGS } from '../settingsTable';\nimport { c } from './own';\nexport { a, c, SETTINGS };\n",
    'server/src/engine/own.ts': 'export const c = 3;\n',
    'server/src/engine/deep.ts': "export { b } from '../gotemplate/exec';\n",
    'server/package.json': JSON.stringify({ name: '@appset-tools/server', exports: {} }),
    'server/src/lsp/main.ts':
      "import { a } from '../engine';\nimport type { P } from '../protocol';\nexport const f = (p: P) => a + p.x;\n",
    'test/unit/x.test.ts':
      "import { a } from '../../server/src/engine';\nimport { b } from '../../server/src/gotemplate/exec';\nexport const g = a + b;\n",
  };
  try {
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    const run = () => spawnSync(process.execPath, [CODEMOD, `--root=${dir}`], { encoding: 'utf8' });
    const first = run();
    assert.equal(first.status, 1, first.stdout + first.stderr);
    assert.match(first.stderr, /server\/src\/engine\/deep\.ts: \.\.\/gotemplate\/exec reaches past @appset-tools\/gotemplate's door/);
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    assert.equal(
      read('server/src/engine/index.ts'),
      "import { a } from '@appset-tools/gotemplate';\nimport { SETTINGS } from '@appset-tools/protocol/settingsTable';\nimport { c } from './own';\nexport { a, c, SETTINGS };\n",
    );
    assert.equal(read('server/src/engine/deep.ts'), "export { b } from '@appset-tools/gotemplate/exec';\n");
    assert.equal(
      read('server/src/lsp/main.ts'),
      "import { a } from '@appset-tools/engine';\nimport type { P } from '@appset-tools/protocol';\nexport const f = (p: P) => a + p.x;\n",
    );
    // A test reaches a door by name and a module's internals by its path (the test-door rules above hold which).
    assert.equal(
      read('test/unit/x.test.ts'),
      "import { a } from '@appset-tools/engine';\nimport { b } from '../../server/src/gotemplate/exec';\nexport const g = a + b;\n",
    );
    const second = run();
    assert.match(second.stdout, /^0 import\(s\) rewritten; 1 past a door\.$/m, second.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
