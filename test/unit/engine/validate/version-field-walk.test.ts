/**
 * The version-field walk (validate/fieldCheck.ts `newerFields`) enters only the schema nodes below which a
 * field newer than the target is named, and reads a field's place only when it finds one (issue 39: it
 * walked every field of every ApplicationSet, placing each). It must find what a plain walk of every field
 * finds: the same fields, in the same order, at the same places, and prune the same ones, for every
 * ApplicationSet of the repository's YAML (and ../shared's), against every release line, with and without
 * `belowOldest`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseFile } from '../../../../server/src/engine/kinds/file';
import type { AppSetDoc } from '../../../../server/src/engine/kinds';
import { fieldsOf } from '../../../../server/src/engine/fields/appset';
import { subPath } from '../../../../server/src/engine/fields/place';
import { prunedForTarget, versionFieldDiagnostics } from '../../../../server/src/engine/validate/fieldCheck';
import { APPSET_SCHEMA, resolveRef, type SchemaNode } from '../../../../server/src/engine/validate/schemaIndex';
import { fieldAddedIn, newerThan } from '../../../../server/src/engine/versions/fields';
import { SUPPORTED } from '../../../../server/src/engine/versions/releases';
import type { TargetVersion } from '../../../../server/src/engine/install/target';
import { repositoryYaml } from '../../../helpers/yamlCorpus';

type Path = (string | number)[];

const freeForm = (s: SchemaNode) => !s.properties && !s.items && (!s.additionalProperties || typeof s.additionalProperties !== 'object');

/** Every field of the value walked with its schema, as the check reads them; the first 50 newer than the target. */
function reference(value: unknown, target: { line: string; belowOldest?: boolean }): { path: Path; since: string }[] {
  const out: { path: Path; since: string }[] = [];
  const walk = (v: unknown, schema: SchemaNode | undefined, path: Path) => {
    const s = resolveRef(schema);
    if (!s || v === null || v === undefined || out.length >= 50 || freeForm(s)) return;
    if (Array.isArray(v)) {
      if (s.items) v.forEach((x, i) => walk(x, s.items, [...path, i]));
      return;
    }
    if (typeof v !== 'object') return;
    for (const [key, x] of Object.entries(v)) {
      if (s.properties && Object.prototype.hasOwnProperty.call(s.properties, key)) {
        const p = [...path, key];
        const since = p[0] === 'spec' ? fieldAddedIn(p.slice(1)) : undefined;
        if (since && newerThan(since, target.line, target.belowOldest)) out.push({ path: p, since });
        else walk(x, s.properties[key], p);
      } else if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object')
        walk(x, s.additionalProperties, [...path, key]);
    }
  };
  walk(value, APPSET_SCHEMA, []);
  return out;
}

function pruned(doc: AppSetDoc, paths: Path[]): unknown {
  if (!paths.length) return doc.value;
  const copy = structuredClone(doc.value) as Record<string, unknown>;
  for (const p of paths) {
    let cur: unknown = copy;
    for (const seg of p.slice(0, -1)) cur = (cur as Record<string | number, unknown>)?.[seg];
    if (cur && typeof cur === 'object') delete (cur as Record<string, unknown>)[String(p[p.length - 1])];
  }
  return copy;
}

test('the version-field walk finds and prunes what a walk of every field finds, for every release line', () => {
  let docs = 0;
  let withFindings = 0;
  for (const file of repositoryYaml()) {
    let appsets: AppSetDoc[];
    try {
      appsets = parseFile(readFileSync(file, 'utf8')).appsets;
    } catch {
      continue;
    }
    for (const doc of appsets) {
      docs++;
      for (const line of SUPPORTED)
        for (const belowOldest of [false, true]) {
          const target = { line, belowOldest, source: 'default', why: 'the test' } as TargetVersion;
          const expected = reference(doc.value, target);
          const where = `${file} #${doc.index} against ${line}${belowOldest ? ' (below the oldest)' : ''}`;
          assert.deepEqual(
            prunedForTarget(doc, target),
            pruned(
              doc,
              expected.map((e) => e.path),
            ),
            where,
          );
          const found = versionFieldDiagnostics(doc, target);
          const root = fieldsOf(doc).root;
          assert.deepEqual(
            found.map((d) => [d.span, (d.data as { addedIn: string }).addedIn]),
            expected.map((e) => [subPath(root, e.path).keySpan, e.since]),
            where,
          );
          if (found.length) withFindings++;
        }
    }
  }
  assert.ok(docs > 100, `${docs} ApplicationSets read`);
  assert.ok(withFindings > 500, `${withFindings} checks found a newer field`);
});
