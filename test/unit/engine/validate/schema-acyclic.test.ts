/**
 * The version-field walk (validate/fieldCheck.ts `newestBelow`) sums, per schema node, the releases that added the
 * field names at or below it, each node once, depth first: exact only while no node can reach itself. The
 * ApplicationSet schema has no such cycle (its generators nest two levels, then stop); a schema that got one would
 * make that sum miss fields below the cycle, so this fails first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APPSET_SCHEMA, resolveRef, type SchemaNode } from '../../../../server/src/engine/validate/schemaIndex';

test('no schema node can reach itself through properties, items or additionalProperties', () => {
  const below = (s: SchemaNode): SchemaNode[] =>
    [...Object.values(s.properties ?? {}), s.items, s.additionalProperties].flatMap((c) => {
      const r = typeof c === 'object' ? resolveRef(c) : undefined;
      return r ? [r] : [];
    });
  const state = new Map<SchemaNode, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (s: SchemaNode, path: string) => {
    if (state.get(s) === 'open') return void cycles.push(path);
    if (state.get(s) === 'done') return;
    state.set(s, 'open');
    for (const c of below(s)) visit(c, `${path} > ${c.$ref ?? c.type ?? '?'}`);
    state.set(s, 'done');
  };
  visit(resolveRef(APPSET_SCHEMA)!, 'root');
  assert.ok(state.size > 400, `the walk saw the schema (${state.size} nodes)`);
  assert.deepEqual(cycles, []);
});
