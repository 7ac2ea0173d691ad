// Each code prefix has one home folder (engine/codeLists/homes.ts): the files that make a code's
// findings sit in the folder its prefix names, so a new rule goes where its code says. A file away
// from home is listed with why, and the list may only shrink.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { CODE_HOMES, AWAY_FROM_HOME } from '../../../../server/src/engine/codeLists/homes';
import { ALL_CODES } from '@appset-tools/engine';

const repo = path.resolve(__dirname, '..', '..', '..', '..');
const CODES = new Set(ALL_CODES.map((c) => c.code));
const prefixOf = (code: string) => code.slice(0, code.indexOf('/'));

/** Calls that read a code rather than make a finding of it. */
const READERS = new Set(['severityOf', 'codeInfo', 'isDiagnosticCode', 'codeAnchor', 'codeHelpUri', 'severityFor']);

/**
 * Where `text` makes a code: the code written as `finding(…)`'s (or a local helper's) first argument,
 * as a `code:` field of an object (a proto-finding, a SARIF result), as `new X(code, …)`, or returned
 * (a function that picks the code). Comparisons, lists of codes and the readers above only name one.
 */
export function madeCodes(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteralLike(n) && CODES.has(n.text)) {
      const p = n.parent;
      const made =
        (ts.isCallExpression(p) && p.arguments[0] === n && ts.isIdentifier(p.expression) && !READERS.has(p.expression.text)) ||
        (ts.isNewExpression(p) && p.arguments?.[0] === n) ||
        (ts.isPropertyAssignment(p) && p.initializer === n && p.name.getText(sf) === 'code') ||
        ts.isReturnStatement(p) ||
        (ts.isConditionalExpression(p) && p.condition !== n) ||
        (ts.isArrowFunction(p) && p.body === n);
      if (made) out.push(n.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(repo, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
}

const under = (file: string, dir: string) => file.startsWith(dir + '/');

let cached: Map<string, Set<string>> | undefined;

/** Every file of server/src (but the code lists) with the codes it makes (read once for both tests). */
function allSites(): Map<string, Set<string>> {
  if (cached) return cached;
  const sites = (cached = new Map<string, Set<string>>());
  for (const f of sourceFiles('server/src')) {
    if (under(f, 'server/src/engine/codeLists')) continue;
    const made = madeCodes(f, fs.readFileSync(path.join(repo, f), 'utf8'));
    if (made.length) sites.set(f, new Set(made));
  }
  return sites;
}

test('every code prefix has one home folder, and it exists', () => {
  const prefixes = [...new Set([...CODES].map(prefixOf))].sort();
  assert.deepEqual(Object.keys(CODE_HOMES).sort(), prefixes);
  for (const dir of Object.values(CODE_HOMES)) assert.ok(fs.statSync(path.join(repo, dir)).isDirectory(), dir);
});

test('a code is made in its prefix home (or in a file listed away from home, with why)', () => {
  const sites = allSites();
  assert.ok(sites.size >= 30, `${sites.size} files make codes`);
  const astray: string[] = [];
  for (const [file, codes] of sites)
    for (const code of codes) {
      const home = CODE_HOMES[prefixOf(code) as keyof typeof CODE_HOMES];
      if (!under(file, home) && !AWAY_FROM_HOME[file]?.codes.includes(code))
        astray.push(`${file} makes ${code}: its rule belongs in ${home}/ (engine/codeLists/homes.ts)`);
    }
  assert.deepEqual(astray, []);
});

test('the away-from-home list has no stale entry: each file still makes the codes it is listed for (the list only shrinks)', () => {
  const sites = allSites();
  const stale: string[] = [];
  for (const [file, { codes, why }] of Object.entries(AWAY_FROM_HOME)) {
    assert.ok(why.length > 20, `${file}: say why`);
    for (const code of codes) if (!sites.get(file)?.has(code)) stale.push(`${file} no longer makes ${code}: remove it from AWAY_FROM_HOME`);
  }
  assert.deepEqual(stale, []);
});

test('the site finder sees each way of making a code, and not the ways of naming one', () => {
  const made = madeCodes(
    'planted.ts',
    [
      "finding('appset/unknown-field', 'm', f);",
      "push('rollout/large-wave', 'm', s);",
      "ctx.findings.push({ code: 'generator/live-data', message: 'm', path });",
      "const pick = (x: boolean) => (x ? 'template/limit' : 'template/parse-error');",
      "function c() { return 'helm/render-fails'; }",
      // Names only:
      "if (d.code === 'appset/wrong-type') severityOf('appset/missing-field');",
      "const SUPERSEDING = new Set(['yaml/unquoted-template']);",
      "const q = { diagnosticCodes: ['appset/strategy-type'] };",
    ].join('\n'),
  );
  assert.deepEqual(made, [
    'appset/unknown-field',
    'rollout/large-wave',
    'generator/live-data',
    'template/limit',
    'template/parse-error',
    'helm/render-fails',
  ]);
});
