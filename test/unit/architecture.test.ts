/**
 * The architecture invariants of ARCHITECTURE.md, executed: every import of every source file is
 * read and checked against the layer it is in. A new forbidden import fails here with its file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';

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

/** A statement that starts with `import` or `export` at the start of a line. */
const STATEMENT = /^[ \t]*(?:import|export)\b/gm;
/** The statement's specifier once its comments are gone: `import … from 'x'`, `export … from 'x'`, `import 'x'`. */
const FROM = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/;

/**
 * Every import of a source text. Each `import`/`export` statement is read on its own with its
 * comments removed first, so a multi-line import whose comment holds an apostrophe or a quote is
 * still read (a quote in a comment used to end the match early and lose the import).
 */
function importsOfText(text: string, abs: string): Import[] {
  const file = relative(root, abs);
  const out: Import[] = [];
  for (const s of text.matchAll(STATEMENT)) {
    // An import statement ends at its `;` (Prettier writes one); 4,000 characters cover the longest.
    const end = text.indexOf(';', s.index);
    const statement = text
      .slice(s.index, end < 0 ? s.index + 4000 : end + 1)
      .replace(/\/\*[\s\S]*?\*\//g, ' ')
      .replace(/\/\/[^\n]*/g, ' ');
    const m = FROM.exec(statement);
    if (!m) continue;
    const spec = m[3];
    const typeOnly = !!m[2];
    let target: string | undefined;
    if (spec.startsWith('.')) {
      target = relative(root, resolve(dirname(abs), spec));
    }
    out.push({ file, spec, target, typeOnly });
  }
  // dynamic imports and require() count too
  for (const m of text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = m[1];
    out.push({ file, spec, target: spec.startsWith('.') ? relative(root, resolve(dirname(abs), spec)) : undefined, typeOnly: false });
  }
  return out;
}

const importsOf = (abs: string) => importsOfText(readFileSync(abs, 'utf8'), abs);
const all = [...sources(SRC), ...sources(join(root, 'client/src'))].flatMap(importsOf);
const under = (p: string | undefined, dir: string) => !!p && (p === dir || p.startsWith(dir + '/'));
const violations = (pred: (i: Import) => string | undefined) => all.map((i) => pred(i)).filter((x): x is string => !!x);

const NODE_IO = /^(node:)?(fs|fs\/promises|child_process|worker_threads|http|https)$/;
const EDITOR =
  /^(vscode|vscode-languageserver|vscode-languageserver\/node|vscode-languageclient|vscode-languageclient\/node|vscode-languageserver-textdocument|vscode-languageserver-protocol)$/;

test('the engine touches no file system, process, editor or LSP API: the outside world comes through EngineHost', () => {
  const bad = violations((i) =>
    under(i.file, 'server/src/engine') && (NODE_IO.test(i.spec) || EDITOR.test(i.spec)) ? `${i.file} imports ${i.spec}` : undefined,
  );
  assert.deepEqual(bad, []);
});

test('the engine imports no Node built-in module (os, path, process, …) and reads no process state', () => {
  const builtin = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const bad = violations((i) => (under(i.file, 'server/src/engine') && builtin.has(i.spec) ? `${i.file} imports ${i.spec}` : undefined));
  for (const f of sources(join(SRC, 'engine'))) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((l, n) => {
        if (/\bprocess\.(env|cwd|platform|argv|exit)\b/.test(l) && !/^\s*(\*|\/\/)/.test(l))
          bad.push(`${relative(root, f)}:${n + 1}: ${l.trim()}`);
      });
  }
  assert.deepEqual(bad, []);
});

test('only host/, cli/ and the process glue touch files and processes (fs, child_process, os)', () => {
  // host/: EngineHost over the disk and over a git revision, and the one safe read; cli/: the CLI's
  // own inputs, --output files and its index cache; codeCache.ts, cacheDir.ts: the loaders' V8 cache.
  const allowed = ['server/src/host', 'server/src/cli', 'server/src/codeCache.ts', 'server/src/cacheDir.ts'];
  const SYSTEM = /^(node:)?(fs|fs\/promises|child_process|os)$/;
  const bad = violations((i) =>
    SYSTEM.test(i.spec) && !allowed.some((a) => under(i.file, a)) ? `${i.file} imports ${i.spec}` : undefined,
  );
  assert.deepEqual(bad, []);
});

test('custom requests go through the typed request table (protocol.ts RequestTypes)', () => {
  // The client sends only through client/src/request.ts; the server registers custom requests only through handle().
  const bad: string[] = [];
  for (const f of sources(join(root, 'client/src'))) {
    if (f.endsWith('/request.ts')) continue;
    if (/\.sendRequest\s*[<(]/.test(readFileSync(f, 'utf8'))) bad.push(`${relative(root, f)} calls sendRequest directly`);
  }
  for (const f of sources(join(SRC, 'lsp'))) {
    if (/\.onRequest\(\s*Requests\./.test(readFileSync(f, 'utf8'))) bad.push(`${relative(root, f)} registers a custom request untyped`);
  }
  assert.deepEqual(bad, []);
});

test('the engine never reaches up into a front (lsp, cli, host)', () => {
  const bad = violations((i) =>
    under(i.file, 'server/src/engine') && ['server/src/lsp', 'server/src/cli', 'server/src/host'].some((d) => under(i.target, d))
      ? `${i.file} imports ${i.spec}`
      : undefined,
  );
  assert.deepEqual(bad, []);
});

test('the Go template library imports nothing outside itself', () => {
  const bad = violations((i) => {
    if (!under(i.file, 'server/src/gotemplate')) return undefined;
    if (i.target && !under(i.target, 'server/src/gotemplate')) return `${i.file} imports ${i.spec}`;
    if (!i.target && (NODE_IO.test(i.spec) || EDITOR.test(i.spec))) return `${i.file} imports ${i.spec}`;
    return undefined;
  });
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
  });
  assert.deepEqual(bad, []);
});

test('the VS Code client imports only the protocol from the server (never the engine)', () => {
  const bad = violations((i) => {
    if (!under(i.file, 'client/src')) return undefined;
    if (i.target && !under(i.target, 'client/src') && i.target !== 'server/src/protocol') return `${i.file} imports ${i.spec}`;
    return undefined;
  });
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

test('protocol.ts has no runtime imports (types only), so the client bundle never pulls in engine code', () => {
  const bad = violations((i) =>
    i.file === 'server/src/protocol.ts' && !i.typeOnly ? `${i.file} imports ${i.spec} at run time` : undefined,
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
    'server/src/engine/didYouMean',
    'server/src/engine/steps',
    'server/src/engine/paths',
    'server/src/protocol',
    'server/src/settingsTable',
  ],
  // What a document is (an ApplicationSet, argocd-apps values, a Helm chart template): tests on texts
  // and values that the reader asks when it lists a file's ApplicationSets.
  ['server/src/engine/kinds'],
  ['server/src/engine/yaml'],
  // The typed view of an ApplicationSet: its fields with their places, read from the located tree.
  ['server/src/engine/view'],
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

test('engine layers only import downwards (types → kinds → yaml → view → workspace → versions → install → generators/validate/config → expand → rollout → features → service → index)', () => {
  const bad = violations((i) => {
    if (!under(i.file, 'server/src/engine') || i.typeOnly) return undefined;
    const from = layerOf(i.file.replace(/\.ts$/, ''));
    const to = layerOf(i.target);
    if (from < 0 || to < 0) return undefined;
    return to > from ? `${i.file} (layer ${from}) imports ${i.spec} (layer ${to})` : undefined;
  });
  assert.deepEqual(bad, []);
});

test('ARCHITECTURE.md states the layers this test checks, in the same order', () => {
  const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const block = doc.slice(doc.indexOf('<!-- layers -->'), doc.indexOf('<!-- /layers -->'));
  const stated = [...block.matchAll(/^\d+\. (.*)$/gm)].map((m) =>
    [...m[1].matchAll(/`([^`]+)`/g)].map((n) => n[1].replace(/\/$|\.ts$/g, '')).sort(),
  );
  const checked = LAYERS.map((l) => l.map((d) => d.replace(/^server\/src\/(engine\/)?/, '')).sort());
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
  // kinds/argocdApps.ts builds the virtual documents of argocd-apps values from the file's own nodes;
  // kinds/documents.ts names the library's document type in the reader's output types (type only).
  const bad = violations((i) =>
    (i.spec === 'yaml' || i.spec.startsWith('yaml/')) &&
    under(i.file, 'server/src/engine') &&
    !under(i.file, 'server/src/engine/yaml') &&
    i.file !== 'server/src/engine/kinds/argocdApps.ts' &&
    !(i.file === 'server/src/engine/kinds/documents.ts' && i.typeOnly)
      ? `${i.file} imports ${i.spec}`
      : undefined,
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
  const bad = violations((i) =>
    under(i.target, 'server/src/engine/yaml') &&
    !under(i.file, 'server/src/engine/yaml') &&
    i.target !== 'server/src/engine/yaml' &&
    i.target !== 'server/src/engine/yaml/index'
      ? `${i.file} imports ${i.spec}`
      : undefined,
  );
  assert.deepEqual(bad, []);
});

test('one test of "is this an ApplicationSet" (engine/kinds/appset.ts): no other `kind: ApplicationSet` pattern', () => {
  const bad = sources(SRC).filter(
    (f) => !f.endsWith('engine/kinds/appset.ts') && /kind:(?:\[ \\t\]\*|\\s\*)[^\n]*ApplicationSet/.test(readFileSync(f, 'utf8')),
  );
  assert.deepEqual(bad, []);
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

test("a finding's severity comes from the code registry: no check writes a severity of its own", () => {
  // The code lists (`X_CODES = [...] as const`, plain data in engine/codeLists/) are the one place a
  // severity is written; everywhere else it is `finding(code, …)` or `severityOf(code)`.
  const REGISTRY_LIST = /export const \w+_CODES = \[[\s\S]*?\] as const(?: satisfies readonly CodeInfo\[\])?;/g;
  const LITERAL = /severity:[^,\n;]*'(error|warning|information|hint)'/;
  const files = sources(join(SRC, 'engine'));
  const bad = files.flatMap((f) => {
    const text = readFileSync(f, 'utf8').replace(REGISTRY_LIST, '');
    return text
      .split('\n')
      .map((l, i) => (LITERAL.test(l) ? `${relative(root, f)}:${i + 1}: ${l.trim()}` : ''))
      .filter(Boolean);
  });
  assert.deepEqual(bad, []);
  // …and the pattern still sees the registry lists it strips (guards against checking nothing).
  assert.ok(files.filter((f) => new RegExp(REGISTRY_LIST.source).test(readFileSync(f, 'utf8'))).length >= 8);
});

/**
 * Spans come from the view. A check or feature that knows which field of an ApplicationSet it speaks
 * of takes the field's place from the typed view (engine/view/), read once with the value; it never
 * looks a JSON path or an offset up in the tree afterwards (`nodeAt`, `spanAt`, `pathAt`,
 * engine/yaml/document.ts). Outside engine/yaml/ and engine/view/, only the files below call them,
 * each with the look-ups it may make and why; `calls` is a ratchet: a file may make fewer (then
 * lower it here), never more. The ajv translation (validate/instancePath.ts) walks the view's fields
 * and calls none of them.
 */
const PATH_LOOKUP = /\b(nodeAt|spanAt|pathAt)\s*\(/g;
const PATH_LOOKUPS_ALLOWED: Record<string, { names: string[]; calls: number; why: string }> = {
  // The node-at-offset door: the question arrives as a cursor offset (ARCHITECTURE.md).
  'server/src/engine/features/editor/navigation.ts': { names: ['pathAt'], calls: 1, why: 'go to definition starts from the cursor' },
  'server/src/engine/features/rollout/hover.ts': { names: ['pathAt'], calls: 1, why: 'a hover starts from the cursor' },
  'server/src/engine/features/validation/assist.ts': {
    names: ['pathAt'],
    calls: 1,
    why: 'completion and field hovers start from the cursor',
  },
  'server/src/engine/features/preview/contributor.ts': {
    names: ['pathAt'],
    calls: 1,
    why: 'the generator hover starts from the cursor (its trail)',
  },
  // Documents that are not ApplicationSets have no view.
  'server/src/engine/config/load.ts': { names: ['nodeAt'], calls: 2, why: '.appset-tools.yaml' },
  'server/src/engine/install/scan.ts': { names: ['nodeAt'], calls: 1, why: "Argo CD's install manifests" },
  'server/src/engine/rollout/syncWindows.ts': { names: ['nodeAt'], calls: 1, why: "an AppProject's syncWindows" },
  'server/src/engine/features/inventory/contributor.ts': { names: ['spanAt'], calls: 2, why: 'cluster Secrets and ClusterInventory files' },
  'server/src/engine/features/editor/paramDefs.ts': {
    names: ['nodeAt'],
    calls: 3,
    why: "a cluster Secret, a git generator's parameter file, the YAML inside elementsYaml",
  },
};

/** The path look-ups a source text calls (comments left out). */
const lookupsIn = (text: string) =>
  [
    ...text
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
      .matchAll(PATH_LOOKUP),
  ].map((m) => m[1]);

/** Each source file's path look-ups that the list above does not allow. */
function pathLookupViolations(files: { file: string; text: string }[]): string[] {
  const bad: string[] = [];
  for (const { file, text } of files) {
    if (under(file, 'server/src/engine/yaml') || under(file, 'server/src/engine/view')) continue;
    const names = lookupsIn(text);
    if (!names.length) continue;
    const allowed = PATH_LOOKUPS_ALLOWED[file];
    const other = names.filter((n) => !allowed?.names.includes(n));
    if (!allowed || other.length)
      bad.push(`${file} looks up ${[...new Set(other)].join(', ')} by path or offset: take the span from the view (engine/view/)`);
    else if (names.length > allowed.calls)
      bad.push(`${file} makes ${names.length} path look-ups, ${allowed.calls} allowed: take the span from the view (engine/view/)`);
  }
  return bad;
}
const sourceTexts = () => sources(SRC).map((f) => ({ file: relative(root, f), text: readFileSync(f, 'utf8') }));

test('checks take spans from the view: path and offset look-ups only in yaml/, view/ and the listed files', () => {
  const files = sourceTexts();
  assert.deepEqual(pathLookupViolations(files), []);
  // The list stays true: each file still makes exactly the look-ups it is allowed (lower it when it makes fewer).
  const count = (file: string) => lookupsIn(files.find((f) => f.file === file)?.text ?? '').length;
  const stale = Object.entries(PATH_LOOKUPS_ALLOWED)
    .filter(([file, a]) => count(file) !== a.calls)
    .map(([file, a]) => `${file}: ${count(file)} look-ups, ${a.calls} listed`);
  assert.deepEqual(stale, []);
});

test('the path look-up check fails a check that looks a span up by path, and reads the real sources', () => {
  const bad = pathLookupViolations([
    { file: 'server/src/engine/validate/checks/x.ts', text: "import { spanAt } from '../../yaml';\nconst s = spanAt(doc.doc, ['spec']);" },
    { file: 'server/src/engine/features/rollout/hover.ts', text: 'pathAt(d, 1); nodeAt(d, []);' },
    { file: 'server/src/engine/config/load.ts', text: 'nodeAt(a, []); nodeAt(b, []); nodeAt(c, []);' },
  ]);
  assert.equal(bad.length, 3, bad.join('\n'));
  assert.deepEqual(pathLookupViolations([{ file: 'server/src/engine/view/x.ts', text: 'spanAt(d, [])' }]), []);
  assert.deepEqual(
    pathLookupViolations([{ file: 'server/src/engine/validate/x.ts', text: '// nodeAt(d, []) said once\n/* spanAt(d) */' }]),
    [],
  );
  // The door itself defines them (guards against a pattern that reads nothing).
  assert.ok([...readFileSync(join(SRC, 'engine/yaml/document.ts'), 'utf8').matchAll(PATH_LOOKUP)].length >= 3);
});

/**
 * Tests go through the doors. A test of behaviour imports the engine only through
 * `server/src/engine/index.ts` (or drives a front: the CLI as a process, the built server over
 * stdio); a unit test of one module's internals lives in `test/unit/engine/<module>/`, named for
 * the engine folder it tests, and imports only that folder's files besides the doors. The YAML
 * reader's door (`engine/yaml`, its index.ts) counts as a door. So moving a file inside the engine
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
const ENGINE_DOORS = ['server/src/engine', 'server/src/engine/index', 'server/src/engine/yaml', 'server/src/engine/yaml/index'];
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
    "import { parseFile } from '../../server/src/engine/yaml/document';\nimport { a } from '../../server/src/engine';",
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

/**
 * Problems are structured values: nothing in server/src or client/src decides by reading an error's or
 * a finding's message (ARCHITECTURE.md, "Problems are values, not text"). A message is built, or copied
 * through as the library words it; what a caller decides by is a code, a reason, a kind, a class or a
 * place carried with it. Read as code lines (comments left out): a message — `.message`, a `msg` or
 * `message` variable, `String(e)`, and the plain-words `why` and `description` of installs and
 * evidence — searched, split, matched by a RegExp or compared.
 */
const MESSAGE = String.raw`(?:\.(?:message|why|description)\b|\bmsg|\bmessage|String\(\s*(?:e|err|error)\s*\))`;
const MESSAGE_READS = [
  new RegExp(MESSAGE + String.raw`\??\.(?:match|matchAll|includes|startsWith|endsWith|search|indexOf|lastIndexOf|split)\(`),
  /(?<!typeof\s+[\w.?]*)\.message\s*[!=]==?|[!=]==?\s*[\w.?]*\.message\b/,
];

/** The arguments of every `.test(…)` and `.exec(…)` call on a line (a RegExp run over them), parentheses matched. */
function regexArguments(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/\.(?:test|exec)\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < code.length && depth > 0; i++) depth += code[i] === '(' ? 1 : code[i] === ')' ? -1 : 0;
    out.push(code.slice(m.index + m[0].length, i - 1));
  }
  return out;
}
/**
 * The places allowed to read a message, each because nothing else tells the fact. Keep it short.
 * - gotemplate/stackOverflow.ts: JavaScript's stack overflow is a plain RangeError with no code; it is
 *   told by the engine's own text for it, measured once there (never a guessed wording).
 */
const MESSAGE_READ_ALLOWED = new Set(['server/src/gotemplate/stackOverflow.ts']);

function messageReads(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(?:\*|\/\*)/.test(code)) return [];
    const read = MESSAGE_READS.some((p) => p.test(code)) || regexArguments(code).some((arg) => new RegExp(MESSAGE).test(arg));
    if (!read) return [];
    return [`${file}:${i + 1}: ${line.trim()}`];
  });
}

test("nothing decides by a message's text: problems carry codes, reasons and places", () => {
  const files = [...sources(SRC), ...sources(join(root, 'client/src'))].map((f) => relative(root, f));
  const bad = files.filter((f) => !MESSAGE_READ_ALLOWED.has(f)).flatMap((f) => messageReads(f, readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(bad, []);
  // Every allowed place still exists and still reads a message (an entry that no longer does is removed).
  for (const f of MESSAGE_READ_ALLOWED) assert.ok(messageReads(f, readFileSync(join(root, f), 'utf8')).length > 0, f);
});

test('the message check fails on the ways a message was read before (guards it against reading nothing)', () => {
  const reads = [
    'const m = /function "([^"]+)" not defined/.exec(d.message);',
    "if (diagnostics[diagnostics.length - 1].message.startsWith('a tab in the indentation')) break;",
    'const exhausted = doc.errors.filter((e) => /call stack/i.test(e.message));',
    "const first = m.split('\\n')[0]; const x = e.message.split('\\n')[0];",
    'const why = /alias/i.test(String((e as Error)?.message));',
    'return e.message === MISSING_VALUE;',
    'if (msg.includes("not found")) return;',
    "if (/x/.test(v)) message += 'x'; else if (/y/.test(err.message)) return;",
    "if (String(e).startsWith('Error: x')) return;",
    "if (!inst?.name && inst?.why.includes(' was found, but '))",
    "const unbuilt = en.evidence.find((e) => e.effect === 'ignored' && e.description.includes(' is not part of '));",
    'en.instance && /^(mapped|chosen|given)/.test(en.instance.why)',
    'for (const e of c.evidence.slice(before)) if (/: "true"/i.test(e.description)) e.undeployed = missing;',
  ];
  for (const r of reads) assert.equal(messageReads('x.ts', r).length, 1, r);
  const fine = [
    'message: `${err.message} (line ${line})`,',
    "message: typeof d.message === 'string' ? d.message : d.message.value,",
    '// e.message.startsWith(…) in a comment',
    'throw new Error(`unable to parse url: ${(e as Error).message}`);',
    "if (/^-?\\d+$/.test(v)) message += ' (remove the quotes)';",
  ];
  for (const f of fine) assert.deepEqual(messageReads('x.ts', f), [], f);
});
