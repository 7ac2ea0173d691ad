/**
 * The keys of the render memo (renderMemo.ts): what a value holds as exact JSON, a parameter set's key
 * kept with it, and one string kept for each key's text.
 */
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
