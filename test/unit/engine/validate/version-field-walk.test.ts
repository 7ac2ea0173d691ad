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
import { parseFile, type AppSetDoc } from '../../../../server/src/engine/kinds';
import { prunedForTarget, versionFieldDiagnostics } from '../../../../server/src/engine/validate/fieldCheck';
import { APPSET_SCHEMA, resolveRef, type SchemaNode } from '../../../../server/src/engine/validate/schemaIndex';
import { SUPPORTED_ARGOCD_VERSIONS as SUPPORTED } from '@appset-tools/engine';
import data from '../../../../schemas/argocd-versions.json';
import { repositoryYaml } from '../../../helpers/yamlCorpus';

type Target = Parameters<typeof versionFieldDiagnostics>[1];

/** The release that added the field at `below` (a path below `spec`): the longest suffix the data names, read here on its own. */
const ADDED = Object.entries(data.fieldsAddedIn as Record<string, string[]>).flatMap(([since, suffixes]) =>
  suffixes.map((s) => ({ since, suffix: s.split('.') })),
);
function addedIn(below: (string | number)[]): string | undefined {
  const segs = below.map((s) => (typeof s === 'number' ? '[]' : s));
  let best: (typeof ADDED)[number] | undefined;
  for (const e of ADDED)
    if (e.suffix.length <= segs.length && e.suffix.every((x, i) => segs[segs.length - e.suffix.length + i] === x))
      if (!best || e.suffix.length > best.suffix.length) best = e;
  return best?.since;
}
const rank = (line: string) => SUPPORTED.indexOf(line);
const newer = (since: string, t: { line: string; belowOldest?: boolean }) =>
  rank(since) > rank(t.line) || (t.belowOldest === true && since === SUPPORTED[0]);

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
        const since = p[0] === 'spec' ? addedIn(p.slice(1)) : undefined;
        if (since && newer(since, target)) out.push({ path: p, since });
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
    const text = readFileSync(file, 'utf8');
    let appsets: AppSetDoc[];
    try {
      appsets = parseFile(text).appsets;
    } catch {
      continue;
    }
    for (const doc of appsets) {
      docs++;
      for (const line of SUPPORTED)
        for (const belowOldest of [false, true]) {
          const target = { line, belowOldest, source: 'default', why: 'the test' } as Target;
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
          // Each finding underlines its field's key: the same fields, in the same order, each at its own key.
          const found = versionFieldDiagnostics(doc, target);
          assert.deepEqual(
            found.map((d) => [text.slice(d.span.start, d.span.end).replace(/^["']|["']$/g, ''), (d.data as { addedIn: string }).addedIn]),
            expected.map((e) => [String(e.path[e.path.length - 1]), e.since]),
            where,
          );
          if (found.length) withFindings++;
        }
    }
  }
  assert.ok(docs > 100, `${docs} ApplicationSets read`);
  assert.ok(withFindings > 500, `${withFindings} checks found a newer field`);
});
