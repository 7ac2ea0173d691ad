// The code lists (engine/codeLists/): plain data beneath types.ts and diagnostics/, joined in index.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VALIDATION_CODES } from '../../../../server/src/engine/codeLists/validation';

const repo = path.resolve(__dirname, '..', '..', '..', '..');

test('the validation area lists its codes', () => {
  assert.ok(VALIDATION_CODES.length >= 20);
});

test('the code lists are plain data: they import nothing, so the registry and types.ts read them without a circle', () => {
  const dir = path.join(repo, 'server', 'src', 'engine', 'codeLists');
  const lists = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
  assert.ok(lists.length >= 8);
  for (const f of lists) assert.doesNotMatch(fs.readFileSync(path.join(dir, f), 'utf8'), /^\s*import\b/m, f);
  // index.ts joins them and imports only them.
  const joins = [...fs.readFileSync(path.join(dir, 'index.ts'), 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
  // homes.ts is not a list: it says which folder makes each prefix's codes (homes.test.ts).
  const codeLists = lists.filter((f) => f !== 'homes.ts');
  assert.ok(joins.length === codeLists.length && joins.every((s) => /^\.\/\w+$/.test(s)), joins.join(', '));
});
