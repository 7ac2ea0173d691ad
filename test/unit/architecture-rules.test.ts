/**
 * The architecture's source rules (eslint-rules/, wired into eslint.config.mjs) catch the breaks they
 * are for. Each break below is planted as a small source text at a path inside the repository and
 * linted with the repository's own ESLint configuration, so the rule, its wiring to the folder and its
 * exceptions are all tested: a planted break must be reported by the named rule, a text that is
 * allowed by design must not be. The near-variants that the regular expressions this replaced missed
 * are marked "(missed before)".
 *
 * The boundaries between the workspace packages (package.json `workspaces`) are facts of the build, not
 * of a lint rule: the breaks at the end are planted in a package and must be refused by the package's
 * TypeScript project (`tsc -b tsconfig.packages.json`) and/or by esbuild as esbuild.js bundles.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { buildPackages, esbuildErrors, tscErrors } from '../helpers/packageBuild';

const root = resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The architecture rules (and import zones) that report on `text` as if it were the file `file`. */
async function caught(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(root, file) });
  return result.messages
    .filter((m) => m.ruleId?.startsWith('architecture/') || m.ruleId === 'no-restricted-imports' || m.fatal)
    .map((m) => `${m.ruleId ?? 'parse error'}: ${m.message}`);
}

interface Plant {
  file: string;
  text: string;
  rule: string;
}

const CHECK = 'server/src/engine/validate/checks/planted.ts';
const FEATURE = 'server/src/engine/features/editor/planted.ts';
const LSP = 'server/src/lsp/handlers/planted.ts';

const message = (text: string, file = CHECK): Plant => ({ file, text, rule: 'architecture/no-message-decisions' });
const processState = (text: string): Plant => ({ file: CHECK, text, rule: 'architecture/no-process-state' });
const kind = (text: string, file = FEATURE): Plant => ({ file, text, rule: 'architecture/one-kind-test' });
const severity = (text: string): Plant => ({ file: CHECK, text, rule: 'architecture/severity-from-registry' });
const made = (text: string, file = CHECK): Plant => ({ file, text, rule: 'architecture/one-finding-constructor' });
const SEVERITY_OF = "import { severityOf } from '../../diagnostics/codes';\n";
const lookup = (text: string, file = CHECK): Plant => ({ file, text, rule: 'architecture/path-lookups' });
const zone = (file: string, text: string): Plant => ({ file, text, rule: 'no-restricted-imports' });
const listed = (text: string, file = LSP): Plant => ({ file, text, rule: 'architecture/listed-dependencies' });

export const BREAKS: Plant[] = [
  // Deciding by a message's text.
  message('export const f = (d: { message: string }) => /function "([^"]+)" not defined/.exec(d.message);'),
  message("export const f = (ds: { message: string }[]) => ds[ds.length - 1].message.startsWith('a tab in the indentation');"),
  message('export const f = (es: Error[]) => es.filter((e) => /call stack/i.test(e.message));'),
  message("export const f = (e: Error) => e.message.split('\\n')[0];"),
  message('export const f = (e: unknown) => /alias/i.test(String((e as Error)?.message));'),
  message("const MISSING = 'missing'; export const f = (e: Error) => e.message === MISSING;"),
  message('export const f = (msg: string) => { if (msg.includes("not found")) return 1; return 0; };'),
  message('export const f = (err: Error) => /y/.test(err.message);', 'client/src/planted.ts'),
  message("export const f = (e: unknown) => String(e).startsWith('Error: x');"),
  message("export const f = (inst?: { why: string }) => inst?.why.includes(' was found, but ');"),
  message("export const f = (ev: { description: string }[]) => ev.find((e) => e.description.includes(' is not part of '));"),
  message('export const f = (en: { instance: { why: string } }) => /^(mapped|chosen|given)/.test(en.instance.why);'),
  message('export const f = (e: { description: string }) => /: "true"/i.test(e.description);'),
  message("export const f = (e: Error) => { switch (e.message) { case 'x': return 1; } return 0; }; // (missed before)"),
  message("export const f = (e: Error) => e.message.toLowerCase().includes('not found'); // (missed before)"),
  message("export const f = (e: Error) => { const text = e.message; return text.includes('not found'); }; // (missed before)"),
  message("export const f = (e: Error) => { const { message: m } = e; return m === 'x'; };"),
  message("const KNOWN = new Set(['x']); export const f = (e: Error) => KNOWN.has(e.message);"),
  message("export const f = (e: Error) => e.message.trim() === 'x';"),
  message("export const f = (e: Error) => { let t = ''; t = e.message; return /x/.test(t); };", 'server/src/gotemplate/planted.ts'),
  // The engine reads no process state.
  processState('export const home = process.env.HOME;'),
  processState('export const dir = () => process.cwd();'),
  processState('export const home = globalThis.process.env.HOME;'),
  processState('const { env } = globalThis.process; export const home = env.HOME; // (missed before)'),
  processState("export const p = (global as any)['process'];"),
  processState('const { process: p } = globalThis; export const env = p.env;'),
  // One test of "is this an ApplicationSet".
  kind('export const is = (text: string) => /kind:\\s+ApplicationSet/.test(text); // (missed before)'),
  kind('export const is = (text: string) => /^kind:[ \\t]*ApplicationSet/m.test(text);'),
  kind('export const is = (text: string) => /kind:\\s*["\']?ApplicationSet/.test(text);', 'server/src/engine/yaml/planted.ts'),
  kind("export const is = (v: { kind?: string }) => v.kind === 'ApplicationSet'; // (missed before)"),
  kind("export const is = (v: { kind?: string }) => { switch (v.kind) { case 'ApplicationSet': return true; } return false; };"),
  kind("export const is = (text: string) => new RegExp('kind:\\\\s*ApplicationSet').test(text);"),
  kind("export const is = (text: string) => text.includes('kind: ApplicationSet');", 'server/src/lsp/planted.ts'),
  kind("export const is = (k: string) => ['ApplicationSet', 'ApplicationSetList'].includes(k);"),
  // A severity is written only in the code lists.
  severity("export const d = { code: 'appset/x', severity: 'error', message: 'x' };"),
  severity("export const d = (bad: boolean) => ({ code: 'appset/x', severity: bad ? 'error' : 'warning' });"),
  severity("export const f = (d: { severity: string }) => { d.severity = 'hint'; };"),
  severity("const sev = 'warning'; export const d = { code: 'appset/x', severity: sev };"),
  // A finding is made only by finding().
  made(SEVERITY_OF + "export const d = (span: any) => ({ code: 'appset/x', severity: severityOf('appset/x'), message: 'x', span });"),
  made(SEVERITY_OF + 'export const d = (code: any, span: any) => [{ code, severity: severityOf(code), message: "x", span }];', FEATURE),
  made(SEVERITY_OF + "export const d = (p: any) => ({ ...p, severity: severityOf('generator/empty', true) });"),
  made(SEVERITY_OF + 'export const d = (p: any) => { p.severity = severityOf(p.code); };'),
  made("export const d = (p: any, s: any) => { p['severity'] = s; };", 'server/src/engine/expand/planted.ts'),
  made(
    "import type { EngineDiagnostic } from '../../types';\nexport const d = { code: 'appset/x', message: 'x', span: { start: 0, end: 1 } } as EngineDiagnostic;",
  ),
  made(
    "import type { EngineDiagnostic } from '../../types';\nexport const d = [{ code: 'appset/x', message: '', span: { start: 0, end: 0 } }] as EngineDiagnostic[];",
  ),
  made(
    "import type { Occurrence } from '../../diagnostics/findings';\nexport const o = (span: any) => ({ code: 'rollout/large-wave', message: 'x', span }) satisfies Partial<Occurrence> as Occurrence;",
  ),
  // Spans come from the located fields.
  lookup("import { spanAt } from '../../yaml';\nexport const s = (doc: any) => spanAt(doc.doc, ['spec']);"),
  lookup("import { nodeAt as find } from '../../yaml';\nexport const n = (d: any) => find(d, ['spec']); // (missed before)"),
  lookup("import * as y from '../../yaml';\nexport const n = (d: any) => y.pathAt(d, 1);"),
  lookup("import { nodeAt } from '../../yaml';\nconst look = nodeAt;\nexport const n = (d: any) => look(d, []);"),
  lookup(
    "import { subPath } from '../../fields/place';\nimport { fieldsOf } from '../../fields';\nexport const f = (doc: any) => subPath(fieldsOf(doc).root, ['spec', 'generators', 0]).span; // (missed before)",
  ),
  lookup(
    "import { rootField, subPath } from '../../fields/place';\nexport const f = (doc: any) => { const r = rootField(doc); return subPath(r, ['spec', 'template']).span; };",
  ),
  // A listed file: another name than its own, or more look-ups than listed.
  lookup(
    "import { nodeAt, pathAt } from '../../yaml';\nexport const h = (d: any) => [pathAt(d, 1), nodeAt(d, [])];",
    'server/src/engine/features/rollout/hover.ts',
  ),
  lookup(
    "import { nodeAt } from '../yaml';\nexport const f = (a: any) => [nodeAt(a, []), nodeAt(a, []), nodeAt(a, [])];",
    'server/src/engine/config/load.ts',
  ),
  // …and fewer than listed: the list is a ratchet, lowered when a file makes fewer.
  lookup("import { nodeAt } from '../yaml';\nexport const f = (a: any) => nodeAt(a, []);", 'server/src/engine/config/load.ts'),
  // Custom requests go through the typed request table.
  {
    file: 'client/src/planted.ts',
    text: "export const f = (c: any) => c.sendRequest('appsetTools/preview', {});",
    rule: 'architecture/typed-requests',
  },
  {
    file: LSP,
    text: "import { Requests } from '../../protocol';\nexport const f = (c: any) => c.onRequest(Requests.preview, () => null);",
    rule: 'architecture/typed-requests',
  },
  {
    file: LSP,
    text: "import { Requests } from '../../protocol';\nconst m = Requests.preview;\nexport const f = (c: any) => c.onRequest(m, () => null);",
    rule: 'architecture/typed-requests',
  },
  // Import zones (the import graph test holds them too, for what a pattern cannot see).
  zone('test/unit/planted.test.ts', "import { execute } from '../../server/src/gotemplate/exec';\nexport { execute }; // (missed before)"),
  zone('test/lsp/planted.test.ts', "export { GoStringMap } from '../../server/src/gotemplate/values';"),
  zone(CHECK, "import { readFileSync } from 'node:fs';\nexport { readFileSync };"),
  zone(CHECK, "import { spawnSync } from 'child_process';\nexport { spawnSync };"),
  zone(CHECK, "import { URI } from '../../../lsp/uri';\nexport { URI };"),
  zone('server/src/gotemplate/planted.ts', "import { parseFile } from '../engine/yaml';\nexport { parseFile };"),
  zone('server/src/lsp/planted.ts', "import { runChecks } from '../engine/validate/checks';\nexport { runChecks };"),
  zone('server/src/cli/planted.ts', "import { execute } from '../gotemplate/exec';\nexport { execute };"),
  zone('client/src/planted.ts', "import { createService } from '../../server/src/engine';\nexport { createService };"),
  zone('client/src/planted.ts', "import { createService } from '@appset-tools/engine';\nexport { createService };"),
  // A package imports only the packages its package.json lists: tsc takes each of these (the link npm
  // makes at the root resolves them), esbuild refuses the first three and never sees the type-only ones.
  listed("export { renderString } from '@appset-tools/gotemplate'; // (missed by tsc before)"),
  listed("export { getLanguageService } from '@appset-tools/engine';", 'client/src/planted.ts'),
  listed("export const load = () => import('@appset-tools/engine');", 'server/src/gotemplate/planted.ts'),
  listed("import type { GoValue } from '@appset-tools/gotemplate';\nexport type V = GoValue; // (missed by tsc and esbuild before)"),
  listed("export type S = import('@appset-tools/engine').LanguageService;", 'server/src/protocol/planted.ts'),
];

/** Texts allowed by design: each must lint clean of the architecture rules. */
export const ALLOWED: Omit<Plant, 'rule'>[] = [
  // Packages the importing package's package.json lists.
  { file: LSP, text: "import type { LanguageService } from '@appset-tools/engine';\nexport type L = LanguageService;" },
  { file: CHECK, text: "export { renderString } from '@appset-tools/gotemplate';" },
  { file: 'client/src/planted.ts', text: "export { Requests } from '@appset-tools/protocol';" },
  { file: CHECK, text: 'export const m = (err: Error, line: number) => ({ message: `${err.message} (line ${line})` });' },
  { file: CHECK, text: "export const m = (d: any) => (typeof d.message === 'string' ? d.message : d.message.value);" },
  { file: CHECK, text: '// e.message.startsWith(…) in a comment\nexport const x = 1;' },
  { file: CHECK, text: 'export const f = (e: unknown) => { throw new Error(`unable to parse url: ${(e as Error).message}`); };' },
  {
    file: CHECK,
    text: "export const f = (v: string) => { let message = 'x'; if (/^-?\\d+$/.test(v)) message += ' (remove the quotes)'; return message; };",
  },
  { file: CHECK, text: 'export const f = (e: { why?: string }) => e.why === undefined;' },
  { file: 'server/src/gotemplate/stackOverflow.ts', text: "export const f = (e: Error) => e.message.includes('call stack');" },
  { file: 'server/src/cli/planted.ts', text: 'export const home = process.env.HOME;' },
  {
    file: 'server/src/engine/kinds/planted.ts',
    text: "export const is = (v: { kind?: string }) => v.kind === 'ApplicationSet' || /kind:\\s+ApplicationSet/.test('');",
  },
  { file: FEATURE, text: "export const label = (name?: string) => `${name || 'ApplicationSet'}: 3 Applications`;" },
  {
    file: 'server/src/engine/codeLists/planted.ts',
    text: "export const X_CODES = [{ code: 'appset/x', severity: 'error' }] as const;",
  },
  { file: CHECK, text: "import { severityOf } from '../../diagnostics/codes';\nexport const d = { severity: severityOf('appset/x') };" },
  {
    file: CHECK,
    text: "import { finding } from '../../diagnostics/codes';\nexport const d = (f: { span: { start: number; end: number } }) => finding('appset/max-update', 'x', f, { data: { replacement: '3' } });",
  },
  { file: CHECK, text: "export const e = (code: string) => ({ code, message: 'not a finding: no severity' });" },
  {
    file: 'server/src/engine/diagnostics/planted.ts',
    text: 'export const group = (first: any, worst: any) => ({ code: first.code, severity: worst, message: first.message, span: first.span });',
  },
  { file: 'server/src/engine/fields/planted.ts', text: "import { spanAt } from '../yaml';\nexport const s = (d: any) => spanAt(d, []);" },
  {
    file: CHECK,
    text: "import { sub, subPath } from '../../fields/place';\nexport const f = (g: any) => subPath(sub(g, 'list'), ['elements', 0]).span;",
  },
  { file: CHECK, text: '// nodeAt(d, []) said once\n/* spanAt(d) */\nexport const x = 1;' },
  {
    file: 'server/src/engine/features/rollout/hover.ts',
    text: "import { pathAt } from '../../yaml';\nexport const h = (d: any) => pathAt(d, 1);",
  },
  { file: 'client/src/request.ts', text: 'export const request = (c: any, m: string, p: unknown) => c.sendRequest(m, p);' },
  { file: LSP, text: 'export const f = (c: any, method: string) => c.onRequest(method, () => null);' },
  { file: 'test/unit/planted.test.ts', text: "import { formatValue } from '../../server/src/gotemplate';\nexport { formatValue };" },
  { file: 'test/gotemplate/planted.test.ts', text: "import { execute } from '../../server/src/gotemplate/exec';\nexport { execute };" },
];

test('every planted break of the architecture is caught by its rule', async () => {
  const missed: string[] = [];
  for (const p of BREAKS) {
    const found = await caught(p.file, p.text);
    if (!found.some((f) => f.startsWith(p.rule + ':')))
      missed.push(`${p.rule} missed in ${p.file}: ${p.text}\n  (found: ${found.join('; ') || 'nothing'})`);
  }
  assert.deepEqual(missed, []);
  assert.ok(BREAKS.length >= 54, `${BREAKS.length} breaks planted`);
});

test('what is allowed by design passes the architecture rules', async () => {
  const flagged: string[] = [];
  for (const p of ALLOWED) {
    const found = await caught(p.file, p.text);
    if (found.length) flagged.push(`${p.file}: ${p.text}\n  ${found.join('\n  ')}`);
  }
  assert.deepEqual(flagged, []);
});

test("the path look-up rule's list names files that exist (a moved or deleted file leaves no stale entry)", async () => {
  const config = await eslint.calculateConfigForFile(join(root, 'server/src/engine/config/load.ts'));
  const [, options] = (config?.rules?.['architecture/path-lookups'] ?? []) as [unknown, { allowed?: Record<string, unknown> }?];
  const allowed = Object.keys(options?.allowed ?? {});
  assert.ok(allowed.length >= 5, allowed.join(', '));
  assert.deepEqual(
    allowed.filter((f) => !existsSync(join(root, f))),
    [],
  );
});

/**
 * Breaks of the packages' boundaries, each refused by the build: `tsc`, the package's TypeScript project
 * (a name past a door does not resolve: TS2307; a path into a package it does not reference is not in its
 * project: TS6307), `esbuild` (the same `exports` maps; scripts/arch/packageBoundaries.js refuses a
 * relative path into another package and a package its package.json does not list).
 */
const BUILD_BREAKS: { file: string; text: string; by: ('tsc' | 'esbuild')[] }[] = [
  // Past a door, by name.
  { file: LSP, text: "export { own } from '@appset-tools/engine/objects';", by: ['tsc', 'esbuild'] },
  { file: LSP, text: "export { runChecks } from '@appset-tools/engine/validate/checks/index';", by: ['tsc', 'esbuild'] },
  { file: CHECK, text: "export { execute } from '@appset-tools/gotemplate/exec';", by: ['tsc', 'esbuild'] },
  { file: CHECK, text: "export { SOURCE } from '@appset-tools/server/src/lsp/convert';", by: ['tsc', 'esbuild'] },
  // Past a door, by a relative path (the name the codemod would refuse to write).
  { file: LSP, text: "export { runChecks } from '../../engine/validate/checks';", by: ['esbuild'] },
  { file: 'server/src/cli/planted.ts', text: "export { execute } from '../gotemplate/exec';", by: ['esbuild'] },
  // Across a forbidden layer: a package its project does not reference, its package.json does not list.
  { file: 'server/src/gotemplate/planted.ts', text: "export { own } from '../engine/objects';", by: ['tsc', 'esbuild'] },
  { file: 'server/src/gotemplate/planted.ts', text: "export { getLanguageService } from '@appset-tools/engine';", by: ['esbuild'] },
  { file: CHECK, text: "export { SOURCE } from '../../../lsp/convert';", by: ['tsc', 'esbuild'] },
  { file: 'server/src/protocol/planted.ts', text: "export { severityOf } from '../engine/diagnostics/codes';", by: ['tsc', 'esbuild'] },
  { file: 'client/src/planted.ts', text: "export { getLanguageService } from '../../server/src/engine';", by: ['tsc', 'esbuild'] },
  { file: 'client/src/planted.ts', text: "export { getLanguageService } from '@appset-tools/engine';", by: ['esbuild'] },
  { file: LSP, text: "export { renderString } from '@appset-tools/gotemplate';", by: ['esbuild'] },
];
/** Imports through the doors the packages' dependencies allow: the build takes them. */
const BUILD_ALLOWED: { file: string; text: string }[] = [
  { file: LSP, text: "export { getLanguageService } from '@appset-tools/engine';" },
  { file: CHECK, text: "export { renderString } from '@appset-tools/gotemplate';" },
  { file: CHECK, text: "export { SETTINGS } from '@appset-tools/protocol/settingsTable';" },
  { file: 'client/src/planted.ts', text: "export { Requests } from '@appset-tools/protocol';" },
  { file: 'server/src/engine/planted.ts', text: "export { own } from './objects';" },
];

test('every planted break of the packages is refused by the build (tsc -b, esbuild), and their doors are open', async () => {
  buildPackages();
  // Each planted at its own path (the same file name twice in one project would be one file).
  const at = (file: string, n: number) => file.replace(/\.ts$/, `${n}.ts`);
  const plants = [...BUILD_BREAKS, ...BUILD_ALLOWED].map((p, n) => ({ ...p, file: at(p.file, n) }));
  // Only the errors of a boundary count: a module that does not resolve, a file outside the project.
  const BOUNDARY = /^TS(2307|6307):/;
  const tsc = tscErrors(new Map(plants.map((p) => [p.file, p.text])));
  const wrong: string[] = [];
  for (const p of plants) {
    const by = 'by' in p ? (p.by as string[]) : [];
    const all = tsc.get(p.file) ?? [];
    const found = { tsc: all.filter((e) => BOUNDARY.test(e)), esbuild: await esbuildErrors(p.file, p.text) };
    // A planted text is otherwise correct: any other error would make its verdict say nothing.
    const other = all.filter((e) => !BOUNDARY.test(e));
    if (other.length) wrong.push(`${p.file}: ${p.text}\n  ${other.join('\n  ')}`);
    for (const tool of ['tsc', 'esbuild'] as const)
      if (by.includes(tool) !== found[tool].length > 0)
        wrong.push(`${tool} ${by.includes(tool) ? 'took' : 'refused'} ${p.file}: ${p.text}\n  ${found[tool].join('\n  ')}`);
  }
  assert.deepEqual(wrong, []);
});
