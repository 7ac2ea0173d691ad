/**
 * The template an expansion renders, with strings of its own. A string read from the document (a
 * template's `repoURL`, `CreateNamespace=true`) is, in V8, a slice that keeps the whole text it was
 * read from alive; a field without a template action renders to that same string, and the render memo
 * (renderMemo.ts) keeps renders across keystrokes. So every kept render of an earlier keystroke held
 * that keystroke's whole text: 45 copies of the 111 KiB bench document (5 MiB) after 90 keystrokes,
 * up to one per kept render in a longer session. A copy made once per expansion (a template is a few
 * dozen strings) holds only itself.
 */
import { ownCopy } from '@appset-tools/gotemplate';
import { put } from '../objects';
import { memoized } from '../memoized';

/** Below this length V8 copies a substring anyway (`SlicedString::kMinLength` is 13). */
const SLICED_MIN = 13;

/** A copy of `v` whose strings share no memory with the document's text; shared and cyclic parts stay shared. */
export function ownStrings(v: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof v === 'string') return v.length < SLICED_MIN ? v : ownCopy(v);
  if (typeof v !== 'object' || v === null) return v;
  const done = seen.get(v);
  if (done !== undefined) return done;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const x of v) out.push(ownStrings(x, seen));
    return out;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  // Only the plain objects a YAML read gives are copied (anything else is kept as it is).
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = proto === null ? (Object.create(null) as Record<string, unknown>) : {};
  seen.set(v, out);
  for (const k of Object.keys(v)) put(out, k, ownStrings((v as Record<string, unknown>)[k], seen));
  return out;
}

/**
 * `ownStrings` of a template, the same copy for the same template object: a keystroke's parse shares
 * the objects it did not change (yaml/incremental.ts), so a keystroke in a list element renders from
 * the copy the last one made (expand.ts keeps per-object shapes by identity).
 */
export function ownTemplate(template: Record<string, unknown>): Record<string, unknown> {
  return memoized(owned, template, ownObject);
}
function ownObject(template: Record<string, unknown>): Record<string, unknown> {
  return ownStrings(template) as Record<string, unknown>;
}
const owned = new WeakMap<object, Record<string, unknown>>();
