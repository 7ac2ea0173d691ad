// One settings table (server/src/protocol/settingsTable.ts): package.json's contribution, docs/editors.md's
// table, the engine's and the server's defaults and what the server reads all agree with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SETTINGS } from '@appset-tools/protocol/settingsTable';
import { DEFAULT_SETTINGS } from '@appset-tools/engine';
import { DEFAULT_SERVER_SETTINGS, readSettings } from '../../server/src/lsp/settings';
import { EDITORS_DOC, PACKAGE_JSON, withContributedSettings, withSettingsTable } from '../../scripts/settings-table';

const fix = 'run: node --import tsx scripts/settings-table.ts';

test("package.json's contributes.configuration is the settings table", () => {
  const text = readFileSync(PACKAGE_JSON, 'utf8');
  assert.equal(withContributedSettings(text), text, fix);
});

test("docs/editors.md's settings table is the settings table", () => {
  const doc = readFileSync(EDITORS_DOC, 'utf8');
  assert.ok(doc.includes('<!-- generated: settings -->'));
  assert.equal(withSettingsTable(doc), doc, fix);
});

/** `appsetTools` settings as an editor sends them: `validate.enable` nests under `validate`. */
function raw(name: string, value: unknown): Record<string, unknown> {
  const [head, tail] = name.split('.');
  return tail ? { [head]: { [tail]: value } } : { [head]: value };
}

/** A valid value other than the default, from the entry's own schema. */
function another(e: (typeof SETTINGS)[keyof typeof SETTINGS]): unknown {
  const d: unknown = e.default;
  if ('enum' in e) return e.enum.find((v) => v !== d);
  if (e.type === 'boolean') return !d;
  if (e.type === 'number' || e.type === 'integer') return (d as number) + 1;
  if (e.type === 'string') return '3.2';
  if (e.type === 'object') return { 'https://example.com/repo.git': '.' };
  if ('items' in e && e.items.type === 'object') return [{ name: 'prod', applicationSets: ['apps/'] }];
  return ['clusters/*.yaml'];
}

test("the server's defaults are the table's, and it reads every setting of the table", () => {
  assert.deepEqual(readSettings({}), DEFAULT_SERVER_SETTINGS);
  const defaults = readSettings({});
  for (const [name, e] of Object.entries(SETTINGS)) {
    if (name === 'trace.server') continue; // VS Code's own: the language client traces, the server never sees it
    const key = name === 'validate.enable' ? 'validate' : name.startsWith('validate.') ? name.slice('validate.'.length) : name;
    const def = key in DEFAULT_SERVER_SETTINGS ? DEFAULT_SERVER_SETTINGS[key as 'validate'] : DEFAULT_SETTINGS[key as 'maxApplications'];
    assert.deepEqual(def, e.default, `${name}: the default differs from the table's`);
    assert.notDeepEqual(readSettings(raw(name, another(e))), defaults, `${name}: the server does not read it`);
  }
});

test('issue 38: a whole-number setting has one rule wherever it is given; the server ignores a value outside it', () => {
  for (const bad of [1e300, 10001, 2.5, 0, Infinity])
    assert.equal(readSettings({ minutesPerSync: bad }).engine.minutesPerSync, 3, String(bad));
  assert.equal(readSettings({ minutesPerSync: 10000 }).engine.minutesPerSync, 10000);
  assert.equal(readSettings({ maxApplications: 1e300 }).engine.maxApplications, 10000);
  assert.equal(SETTINGS.minutesPerSync.maximum, 10000);
});
