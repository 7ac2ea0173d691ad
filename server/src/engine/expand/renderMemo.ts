/**
 * Renders re-used between two expansions of the same ApplicationSet (a keystroke in one list element
 * re-renders one Application, not all of them).
 *
 * An Application's render depends only on the template (the generator's merged with `spec.template`),
 * `templatePatch`, whether the default finalizer is added, the ApplicationSet's namespace, the template
 * options of the target release, and its parameter set: that is the key. A render is kept only when it
 * succeeded and used no function whose result changes between calls (`now`, `randAlpha`, …); a re-used
 * render charges the expansion's total work budget what it cost the first time (gotemplate/budget.ts),
 * so that the budget runs out where a fresh expansion's would.
 */
/** One kept render: the Application (or one field of its metadata or spec) and what its render cost the work budget (a difference of `totalSpent`). */
export interface KeptRender {
  value: unknown;
  units: number;
  /** The last expansion that kept it (expand.ts `Run.id`): what it did not keep is dropped when a memo map grows (`pruneMemo`). */
  seen: number;
  /**
   * For a whole Application (or its whole `metadata` or `spec`): the kept renders of its parts, as
   * field key, render, field key, render, … (one array, no pair each). A re-used Application carries
   * them into the next expansion's memo, so that an edit of one template field after an edit elsewhere
   * (a list element) still re-uses the other fields.
   */
  fields?: (string | KeptRender)[];
  /** For a whole Application: its name, labels and displayed parameter set, made once (expand.ts pushApp). */
  shown?: Shown;
}

/** What a generated Application shows besides the Application itself (never modified once made). */
export interface Shown {
  name: string;
  labels: Record<string, string>;
  params: Record<string, unknown>;
}

/**
 * The renders of one expansion: by template key, then by parameter-set key. Besides whole
 * Applications, each field of a template's `metadata` and `spec` (`source`, `destination`, …) is kept
 * by its own key (its template, the template options): after an edit in one field of the template,
 * the others are re-used.
 */
export type RenderMemo = Map<string, Map<string, KeptRender>>;

/**
 * An expansion keeps its renders in the maps of the previous one (by the same keys), adding what it
 * rendered: a keystroke re-used hundreds of renders and copied each into new maps. Every entry is
 * right for its key whichever expansion made it, so the maps may hold renders the last expansion did
 * not use; a map that grew past twice the parameter sets (and 64) loses those.
 */
export function pruneMemo(memo: RenderMemo, paramSets: number, id: number): void {
  const cap = 2 * paramSets + 64;
  for (const map of memo.values()) if (map.size > cap) for (const [k, r] of map) if (r.seen !== id) map.delete(k);
}

/**
 * `memoKey` of a parameter set, kept per parameter set: they are never modified once made, and the list
 * generator hands the same one for an element that did not change (generators/list.ts), so that on a
 * keystroke most parameter sets are not written out as JSON again.
 */
export function paramsKey(p: object): string | undefined {
  const kept = paramKeys.get(p);
  if (kept !== undefined) return kept === null ? undefined : kept;
  const key = memoKey(p);
  paramKeys.set(p, key ?? null);
  return key;
}
const paramKeys = new WeakMap<object, string | null>();

/**
 * The one string kept for each memo key's text: the renders kept across keystrokes name their fields by
 * key (KeptRender.fields), and a keystroke that re-uses 540 Applications looks each of their keys up
 * again. Keys made by different expansions are equal texts in different strings, which V8 compares
 * character by character (hundreds each: a field's template as JSON); the same string compares at once.
 * Bounded: a key forgotten is only made again, its next lookups slower.
 */
const canon = new Map<string, string>();
const CANON_KEPT = 1024;
export function canonicalKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const kept = canon.get(key);
  if (kept !== undefined) return kept;
  if (canon.size >= CANON_KEPT) canon.clear();
  canon.set(key, key);
  return key;
}

/**
 * A key for what a value holds, or undefined when it has no exact JSON form (a number JSON cannot
 * write exactly, undefined, a bigint, a date, a function): such renders are not re-used.
 */
export function memoKey(v: unknown): string | undefined {
  return exactJson(v, 0) ? JSON.stringify(v) : undefined;
}

/** True when `JSON.stringify` writes `v` whole and only `v` gives that text (plain objects, arrays, strings, finite numbers, booleans, null). */
function exactJson(v: unknown, depth: number): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object' || depth > 100) return false;
  // Indexes, not `for … of` (an iterator and a result per element in code not yet compiled: every
  // parameter set of a document's first answer, and every template).
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!exactJson(v[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in v) if (!exactJson((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}
