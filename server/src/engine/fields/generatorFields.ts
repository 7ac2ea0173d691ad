/**
 * The generators of an ApplicationSet read into the view: each entry of `spec.generators` with the
 * kinds it sets, its label selectors, its git path patterns and its matrix/merge children, every one
 * a field carrying its place (`place.ts`), so the generator checks (`validate/checks/generatorChecks.ts`,
 * `selectors.ts`) take their spans from here. Which keys are generator kinds: `rules/generatorKinds.ts`.
 */
import type { Json } from '../types';
import type { JsonPath } from '../yaml';
import { isObj, own } from '../objects';
import { kindsOf, type GeneratorKind } from '../rules/generatorKinds';
import { sub, subPath, type Field } from './place';

/** Bound on entries read per list (a hostile file could list millions). */
export const MAX_ENTRIES = 1000;
/**
 * Deepest level whose entries are read: the top (1), a matrix/merge child (2), a child of a nested
 * matrix/merge (3). Argo CD nests matrix/merge one level only (`applicationset/utils/utils.go`
 * `CheckInvalidGenerators`), so what lies below is reported at level 2 and not read.
 */
export const MAX_LEVEL = 3;

/** A label selector: the generator's post-selector, a cluster generator's or a clusterDecisionResource's. */
export interface SelectorFields {
  /** How findings name it. */
  what: 'post-selector' | 'cluster selector' | 'label selector';
  at: Field;
  /** JSON path of the selector in the document. */
  path: JsonPath;
  /** Each key of `matchLabels` (when it is a map). */
  labels: { key: string; at: Field }[];
  /** Each map entry of `matchExpressions` (the first MAX_ENTRIES), with its `key`, `operator`, `values`. */
  expressions: { index: number; at: Field; key: Field; operator: Field; values: Field }[];
}

/** A `path` pattern of a git generator's `directories` or `files`. */
export interface GitPatternFields {
  what: 'directories' | 'files';
  /** Its index in that list. */
  index: number;
  /** The list item. */
  at: Field;
  path: Field;
  exclude: Field;
}

/** A matrix or merge object of an entry. */
export interface CombinedFields {
  kind: 'matrix' | 'merge';
  at: Field;
  /** Its `generators` list, and the children read from it (none below MAX_LEVEL). */
  generators: Field;
  children: GeneratorEntryFields[];
  mergeKeys: Field;
}

export interface GeneratorEntryFields {
  /** The list item. */
  at: Field;
  /** The list it stands in (a finding about an empty item falls back to it). */
  list: Field;
  /** JSON path of the entry in the document. */
  path: JsonPath;
  /** 1 = `spec.generators`, 2 = a matrix/merge child, 3 = a child of a nested one. */
  level: number;
  /** The generator kinds the entry sets, in `GENERATOR_KINDS` order, each with its field. */
  kinds: GeneratorKind[];
  kindAt: Partial<Record<GeneratorKind, Field>>;
  selectors: SelectorFields[];
  gitPatterns: GitPatternFields[];
  /** Its `matrix` and `merge` when they are maps, in that order. */
  combined: CombinedFields[];
}

/**
 * The field a generator named, walked from the generator entry's field the located fields already hold. The
 * generators run on plain values and name a place by the JSON path below the entry they were given
 * (`[...entryPath, 'list', 'elements', 2]`, see generators/types.ts): only the part below the entry is
 * walked (`subPath`), so nothing is looked up from the document's root. Undefined when `path` is not
 * below `entryPath`.
 */
export function below(entry: Field, entryPath: JsonPath, path: JsonPath): Field | undefined {
  if (path.length < entryPath.length) return undefined;
  for (let i = 0; i < entryPath.length; i++) if (path[i] !== entryPath[i]) return undefined;
  return subPath(entry, path.slice(entryPath.length));
}

/**
 * The field a path inside `spec.generators` names (`spec/generators/<i>/…`, as origins, empties and
 * quick-fix data carry it): the entry `i` of the located `generatorList`, and the rest walked below it.
 * Undefined for a path outside the generator entries.
 */
export function inGenerators(generatorList: readonly Field[], path: JsonPath): Field | undefined {
  const gi = path[2];
  const entry = typeof gi === 'number' ? generatorList[gi] : undefined;
  return entry && below(entry, ['spec', 'generators', gi], path);
}

/**
 * The entries of a generator list at `level` (the first MAX_ENTRIES). `placed`: the list's items already
 * placed (the located fields' `generatorList`), so that each is not placed twice.
 */
export function readEntries(list: Field, path: JsonPath, level: number, placed?: readonly Field[]): GeneratorEntryFields[] {
  const items = list.value;
  if (!Array.isArray(items)) return [];
  return items.slice(0, MAX_ENTRIES).map((_: Json, i: number) => readEntry(placed?.[i] ?? sub(list, i), list, [...path, i], level));
}

function readEntry(at: Field, list: Field, path: JsonPath, level: number): GeneratorEntryFields {
  const kinds = kindsOf(at.value);
  const kindAt: Partial<Record<GeneratorKind, Field>> = {};
  for (const k of kinds) kindAt[k] = sub(at, k);
  const entry: GeneratorEntryFields = { at, list, path, level, kinds, kindAt, selectors: [], gitPatterns: [], combined: [] };
  const v = at.value;
  if (!isObj(v)) return entry;
  // The values are read first and a place only for what is there: most entries have no selector, no
  // cluster or clusterDecisionResource generator, no git generator and no matrix or merge, and placing
  // each absent one was most of reading an entry, for each ApplicationSet of a file (issue 39).
  if (own(v, 'selector') !== undefined) entry.selectors.push(readSelector(sub(at, 'selector'), 'post-selector', [...path, 'selector']));
  const clusters = own(v, 'clusters');
  if (isObj(clusters) && own(clusters, 'selector') !== undefined)
    entry.selectors.push(readSelector(sub(sub(at, 'clusters'), 'selector'), 'cluster selector', [...path, 'clusters', 'selector']));
  const cdr = own(v, 'clusterDecisionResource');
  if (isObj(cdr) && own(cdr, 'labelSelector') !== undefined)
    entry.selectors.push(
      readSelector(sub(sub(at, 'clusterDecisionResource'), 'labelSelector'), 'label selector', [
        ...path,
        'clusterDecisionResource',
        'labelSelector',
      ]),
    );
  if (isObj(own(v, 'git'))) {
    const git = sub(at, 'git');
    for (const what of ['directories', 'files'] as const) {
      const patterns = sub(git, what);
      if (!Array.isArray(patterns.value)) continue;
      patterns.value.slice(0, MAX_ENTRIES).forEach((_: Json, i: number) => {
        const item = sub(patterns, i);
        entry.gitPatterns.push({ what, index: i, at: item, path: sub(item, 'path'), exclude: sub(item, 'exclude') });
      });
    }
  }
  for (const kind of ['matrix', 'merge'] as const) {
    if (!isObj(own(v, kind))) continue;
    const g = sub(at, kind);
    const generators = sub(g, 'generators');
    const children = level < MAX_LEVEL ? readEntries(generators, [...path, kind, 'generators'], level + 1) : [];
    entry.combined.push({ kind, at: g, generators, children, mergeKeys: sub(g, 'mergeKeys') });
  }
  return entry;
}

function readSelector(at: Field, what: SelectorFields['what'], path: JsonPath): SelectorFields {
  const view: SelectorFields = { what, at, path, labels: [], expressions: [] };
  if (!isObj(at.value)) return view;
  const labels = sub(at, 'matchLabels');
  if (isObj(labels.value)) for (const key of Object.keys(labels.value)) view.labels.push({ key, at: sub(labels, key) });
  const exprs = sub(at, 'matchExpressions');
  if (Array.isArray(exprs.value)) {
    exprs.value.slice(0, MAX_ENTRIES).forEach((e: Json, i: number) => {
      if (!isObj(e)) return;
      const ex = sub(exprs, i);
      view.expressions.push({ index: i, at: ex, key: sub(ex, 'key'), operator: sub(ex, 'operator'), values: sub(ex, 'values') });
    });
  }
  return view;
}
