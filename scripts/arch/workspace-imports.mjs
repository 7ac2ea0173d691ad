// The workspace codemod: rewrites the imports that cross from one workspace package into another
// (package.json `workspaces`) from relative paths to the package's name, through its `exports` map:
//
//   node scripts/arch/workspace-imports.mjs           rewrite in place, print what changed
//   node scripts/arch/workspace-imports.mjs --check   change nothing; exit 1 if a rewrite is due
//
// Idempotent (a second run changes nothing) and meant to be re-run after merging a branch written
// before the packages existed: its `../../gotemplate` becomes `@appset-tools/gotemplate`, its
// `../settingsTable` follows the file into the protocol package (MOVED below).
//
// Which import becomes what:
// - from one package to another package's door (a file its `exports` map names): the package name,
//   e.g. `@appset-tools/engine`, `@appset-tools/protocol/settingsTable`;
// - from one package past another's door: there is no name for it, and that is the point. The import
//   is written as the deep name (`@appset-tools/engine/validate/checks`), which tsc and esbuild refuse
//   ("not exported"), and listed here: export what it needs from the door instead;
// - from the root package (test/, scripts/: the harness that tests and measures the packages) to a
//   door: the package name; to an internal: the relative path stays (a test of a module's internals,
//   which test/unit/architecture.test.ts allows only from that module's own test folder);
// - inside one package: relative paths, untouched (unless the target moved).
// Reads imports from the syntax tree (TypeScript's parser): import/export declarations, `import x =
// require()`, `require()` and `import()` calls, and `import('…')` types. A file it rewrites is given back
// as Prettier prints it.
import { readFileSync, readdirSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import * as prettier from 'prettier';

// --root=DIR: another checkout (test/unit/architecture.test.ts runs the codemod on a small one).
const rootArg = process.argv.find((a) => a.startsWith('--root='));
const root = resolve(rootArg ? rootArg.slice('--root='.length) : new URL('../..', import.meta.url).pathname);
const check = process.argv.includes('--check');

/** Files moved into a package folder by the packaging (old path → new path, repo-relative, no extension). */
const MOVED = new Map([
  ['server/src/protocol', 'server/src/protocol/index'],
  ['server/src/settingsTable', 'server/src/protocol/settingsTable'],
]);

const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The workspace packages: folder (repo-relative), name, exports (subpath → repo-relative file without .ts). */
const packages = rootPkg.workspaces.map((dir) => {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const doors = new Map();
  for (const [key, target] of Object.entries(pkg.exports ?? {}))
    if (typeof target === 'string' && target.endsWith('.ts')) doors.set(join(dir, target).replace(/\.ts$/, ''), key);
  return { dir, name: pkg.name, doors };
});
const under = (p, dir) => p === dir || p.startsWith(dir + '/');
/** The package a repo-relative path belongs to: the deepest package folder holding it (undefined: the root package). */
const packageOf = (p) => packages.filter((k) => under(p, k.dir)).sort((a, b) => b.dir.length - a.dir.length)[0];

const SKIP = new Set(['node_modules', 'dist', 'fixtures', '.tmp', '.vscode-test', '.tools', 'workspace', 'data']);
function sources(dir) {
  const out = [];
  for (const n of readdirSync(dir)) {
    if (SKIP.has(n) || n.startsWith('.')) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The string literals naming a module in `text`, with their positions (the quotes excluded). */
function specifiers(text, file) {
  const out = [];
  const add = (lit) => out.push({ spec: lit.text, start: lit.getStart() + 1, end: lit.getEnd() - 1 });
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      if (ts.isStringLiteral(node.moduleReference.expression)) add(node.moduleReference.expression);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  const kind = /\.(m|c)?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind));
  return out;
}

/** The repo-relative file (no .ts) a relative import names: `x` is x.ts, or x/index.ts for a folder; moved files followed. */

/** Whether the relative import `spec` in the file `abs` names a file that moved (MOVED: its old path). */
function moved(abs, spec) {
  return MOVED.has(
    relative(root, resolve(dirname(abs), spec))
      .split(sep)
      .join('/')
      .replace(/\.(ts|js)$/, ''),
  );
}

function targetOf(fromFile, spec) {
  let t = relative(root, resolve(dirname(join(root, fromFile)), spec))
    .split(sep)
    .join('/');
  t = t.replace(/\.(ts|js)$/, '');
  if (MOVED.has(t)) return MOVED.get(t);
  if (!existsSync(join(root, t + '.ts')) && existsSync(join(root, t, 'index.ts'))) return t + '/index';
  return t;
}

const relativeSpec = (fromFile, target, original) => {
  let r = relative(dirname(fromFile), target).split(sep).join('/');
  if (!original.endsWith('/index') && r.endsWith('/index')) r = r.slice(0, -'/index'.length);
  if (r === 'index') r = '.';
  return r.startsWith('.') ? r : './' + r;
};

const changes = [];
const pastDoors = [];
for (const abs of ['server', 'client', 'test', 'scripts'].filter((d) => existsSync(join(root, d))).flatMap((d) => sources(join(root, d)))) {
  const file = relative(root, abs).split(sep).join('/');
  const text = readFileSync(abs, 'utf8');
  const from = packageOf(file);
  const edits = [];
  for (const s of specifiers(text, abs)) {
    if (!s.spec.startsWith('.')) {
      // A name already written past a door (by an earlier run, or by hand) is named again on every run.
      const to = packages.find((k) => s.spec.startsWith(k.name + '/'));
      if (from && to && to !== from && ![...to.doors.values()].includes('.' + s.spec.slice(to.name.length)))
        pastDoors.push(`${file}: ${s.spec} reaches past ${to.name}'s door (export it from ${to.dir}/index.ts)`);
      continue;
    }
    const target = targetOf(file, s.spec);
    const to = packageOf(target);
    let next = s.spec;
    if (to && to !== from) {
      const door = to.doors.get(target);
      if (door !== undefined) next = to.name + (door === '.' ? '' : door.slice(1));
      else if (from) {
        next = to.name + '/' + relative(to.dir, target).split(sep).join('/');
        pastDoors.push(`${file}: ${s.spec} reaches past ${to.name}'s door (export it from ${to.dir}/index.ts)`);
      } else if (moved(abs, s.spec)) next = relativeSpec(file, target, s.spec);
    } else if (moved(abs, s.spec)) next = relativeSpec(file, target, s.spec);
    if (next !== s.spec) edits.push({ ...s, next });
  }
  if (!edits.length) continue;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.next + out.slice(e.end);
  for (const e of edits) changes.push(`${file}: ${e.spec} -> ${e.next}`);
  // A longer name can move a line past the print width: the file is given back as Prettier prints it.
  if (!check) writeFileSync(abs, await prettier.format(out, { ...(await prettier.resolveConfig(abs)), filepath: abs }));
}

for (const c of changes) console.log(c);
for (const p of pastDoors) console.error(p);
console.log(`${changes.length} import(s) ${check ? 'to rewrite' : 'rewritten'}; ${pastDoors.length} past a door.`);
if ((check && changes.length) || pastDoors.length) process.exit(1);
