/**
 * The tests' own invariant (ARCHITECTURE.md, Testing): shared test data and drivers have one home.
 * A test that writes a cluster Secret by hand, bundles the CLI itself or spawns the server over
 * stdio on its own fails here, naming its file; use test/helpers/ and test/lsp/client.ts instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (n === 'fixtures' || n === 'node_modules' || n.startsWith('.')) continue;
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|mjs|js)$/.test(n)) out.push(p);
  }
  return out;
}

const files = [...sources(join(root, 'test')), ...sources(join(root, 'scripts'))]
  .filter((p) => p !== __filename)
  .map((p) => ({ rel: relative(root, p).split('\\').join('/'), text: readFileSync(p, 'utf8') }));

test('cluster Secrets are written by test/helpers/clusters.ts', () => {
  // generators-helpers.ts keeps its own: quoted names and labels, the shapes the generator tests read back;
  // the real-VS-Code suite runs as CommonJS in the extension host and has its one builder in util.js.
  const allowed = new Set(['test/helpers/clusters.ts', 'test/unit/generators-helpers.ts', 'test/vscode/suite/util.js']);
  const byHand = files.filter((f) => !allowed.has(f.rel) && /kind: Secret/.test(f.text) && /secret-type: cluster/.test(f.text));
  assert.deepEqual(
    byHand.map((f) => f.rel),
    [],
  );
});

test('the CLI is bundled by test/helpers/cli.ts, the server spawned over stdio by test/lsp/client.ts', () => {
  const bundles = files.filter((f) => /buildSync\(/.test(f.text) && f.text.includes('server/src/cli/main.ts')).map((f) => f.rel);
  assert.deepEqual(bundles, ['test/helpers/cli.ts']);
  const spawns = files.filter((f) => f.rel.startsWith('test/') && /serverPath, '--stdio'/.test(f.text)).map((f) => f.rel);
  assert.deepEqual(spawns, ['test/lsp/client.ts']);
});
