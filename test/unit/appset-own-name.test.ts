/**
 * The ApplicationSet's own name (validate/checks/ownName.ts), a mistake the fifth held-out round's
 * development half showed unsaid: the API server rejects a custom resource whose `metadata.name` is
 * not a DNS subdomain, so nothing of the ApplicationSet is created. Names another tool fills in first
 * are not claimed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, workspaceFor } from './generators-helpers';

const named = (name: string) => appset(`    - list:\n        elements: [{name: web}]\n`).replace('  name: test\n', `  name: ${name}\n`);
const ownName = <T extends { code: string; message: string }>(ds: T[]) =>
  ds.filter((d) => d.code === 'appset/invalid-value' && /API server rejects this ApplicationSet/.test(d.message));

test('an ApplicationSet whose own name is no DNS subdomain is an error on the name', (t) => {
  const ws = workspaceFor(t);
  for (const name of ['"team a-apps"', 'Team-Apps', 'apps-', 'my_apps', `${'a'.repeat(254)}`]) {
    const text = named(name);
    const found = ownName(ws.diagnostics(text));
    assert.equal(found.length, 1, `${name}: ${JSON.stringify(found)}`);
    assert.equal(found[0].severity, 'error');
    assert.match(found[0].message, /none of its Applications is created/);
  }
  // The span is the name's value.
  const text = named('Team-Apps');
  const [d] = ownName(ws.diagnostics(text)) as { start: number; end: number }[];
  assert.equal(text.slice(d.start, d.end), 'Team-Apps');
});

test('valid names and names another tool fills in are not claimed', (t) => {
  const ws = workspaceFor(t);
  for (const name of [
    'team-a.apps',
    'apps1',
    'APPLICATION_NAME',
    "'{{ .Values.name }}'",
    '${APP_NAME}-set',
    '$APP',
    'pr-<NUMBER>',
    'test-appset-APPSET_NUM',
  ]) {
    const found = ownName(ws.diagnostics(named(name)));
    assert.deepEqual(found, [], `${name}: ${JSON.stringify(found)}`);
  }
});
