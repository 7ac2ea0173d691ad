/**
 * A fast writer for the plain values previews print (maps, lists, one-line scalars), giving exactly
 * the text of `stringifyYaml` (the `yaml` library with `lineWidth: 0`, no anchors) or nothing.
 *
 * Why: after a template edit every Application is a new value, and the library builds a node tree
 * for each and writes it (`createNode`, `stringifyPair`, `plainString` led the preview's profile).
 * What the library decides per value — how a key or a one-line scalar is written (plain, quoted,
 * `null`, `.nan`…) — does not depend on where it stands in block YAML, so it is asked of the library
 * once per distinct scalar and kept; the block layout around it (indentation, `- ` items, `{}` and
 * `[]` for empty collections) is written here. Anything whose writing can depend on its place — a
 * string with a line break or another control character, a string that starts like a document
 * marker (`---`, `...`, `%`), a key the library writes as `? key`, an
 * `undefined`, a non-plain object — makes the writer give up (`undefined`), and the caller writes the
 * value with the library. A test compares both over fixtures and seeded random values.
 */
import * as YAML from 'yaml';

const OPTIONS = { lineWidth: 0, aliasDuplicateObjects: false } as const;

/** Strings the library may write differently at different places (line breaks, escapes that fold, a BOM). */
const PLACE_DEPENDENT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
/** Document markers and directives: the library quotes them at the start of a line only (a key at indent 0). */
const MARKER_LIKE = /^(?:%|---|\.\.\.)/;
/** `stringifyYaml`'s `lineSafe` double-quotes these (and strings with line breaks, excluded above). */
const LINE_SAFE_QUOTED = /^\s*:/;

class GiveUp extends Error {}
const GIVE_UP = new GiveUp();

/** Bounded memo: distinct scalars of a workspace's previews are few; a flood of distinct ones is dropped. */
const MAX_KEPT = 50_000;

function memo(compute: (v: string) => string): (v: string) => string {
  let kept = new Map<string, string>();
  return (v) => {
    let r = kept.get(v);
    if (r === undefined) {
      r = compute(v);
      if (kept.size >= MAX_KEPT) kept = new Map();
      kept.set(v, r);
    }
    return r;
  };
}

/** The library's text for `probe`, which must be `prefix + r + suffix` with `r` on one line; `r`. */
function between(probe: unknown, prefix: string, suffix: string): string {
  const text = YAML.stringify(probe, OPTIONS);
  if (!text.startsWith(prefix) || !text.endsWith(suffix)) throw GIVE_UP;
  const r = text.slice(prefix.length, text.length - suffix.length);
  if (r.includes('\n') || r === '') throw GIVE_UP;
  return r;
}

const keyText = memo((k) => between({ [k]: 0 }, '', ': 0\n'));
const stringText = memo((s) => between({ a: s }, 'a: ', '\n'));
const otherText = memo((json) => between({ a: JSON.parse(json) as unknown }, 'a: ', '\n'));
const NAN = between({ a: NaN }, 'a: ', '\n');
const INF = between({ a: Infinity }, 'a: ', '\n');
const NEG_INF = between({ a: -Infinity }, 'a: ', '\n');

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function checkString(s: string, lineSafe: boolean): void {
  if (PLACE_DEPENDENT.test(s) || MARKER_LIKE.test(s) || (lineSafe && LINE_SAFE_QUOTED.test(s))) throw GIVE_UP;
}

/** A scalar's text, as a map value or a list item (the same in block YAML). */
function scalarText(v: unknown, lineSafe: boolean): string {
  switch (typeof v) {
    case 'string':
      checkString(v, lineSafe);
      return stringText(v);
    case 'number':
      if (Number.isNaN(v)) return NAN;
      if (!Number.isFinite(v)) return v > 0 ? INF : NEG_INF;
      return otherText(Object.is(v, -0) ? '-0' : JSON.stringify(v));
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'null';
      throw GIVE_UP;
  }
}

const isEmptyCollection = (v: unknown): string | undefined =>
  Array.isArray(v)
    ? v.length
      ? undefined
      : '[]'
    : v && typeof v === 'object' && isPlainObject(v) && !Object.keys(v).length
      ? '{}'
      : undefined;

/**
 * Writes `v` (a non-empty map or list) at `indent`; `first` is what the first line starts with
 * (`- ` items put a map's first key or a list's first item on their own line).
 */
function writeCollection(v: object, indent: string, out: string[], first: string, lineSafe: boolean, depth: number): void {
  if (depth > 1000) throw GIVE_UP;
  let lead = first;
  if (Array.isArray(v)) {
    for (const item of v as unknown[]) {
      out.push(lead + '- ');
      writeItem(item, indent + '  ', out, lineSafe, depth);
      lead = indent;
    }
    return;
  }
  if (!isPlainObject(v)) throw GIVE_UP;
  for (const k of Object.keys(v)) {
    const value = v[k];
    checkString(k, lineSafe);
    const key = keyText(k);
    if (key.startsWith('?')) throw GIVE_UP;
    if (value !== null && typeof value === 'object') {
      const empty = isEmptyCollection(value);
      if (empty) out.push(lead + key + ': ' + empty + '\n');
      else {
        out.push(lead + key + ':\n');
        // The library indents a list under a key (its `indentSeq`), as it indents a map.
        writeCollection(value, indent + '  ', out, indent + '  ', lineSafe, depth + 1);
      }
    } else out.push(lead + key + ': ' + scalarText(value, lineSafe) + '\n');
    lead = indent;
  }
}

/** A list item after its `- `: a scalar, `{}`/`[]`, or a collection whose first line follows the dash. */
function writeItem(item: unknown, indent: string, out: string[], lineSafe: boolean, depth: number): void {
  if (item !== null && typeof item === 'object') {
    const empty = isEmptyCollection(item);
    if (empty) out.push(empty + '\n');
    else writeCollection(item, indent, out, '', lineSafe, depth + 1);
  } else out.push(scalarText(item, lineSafe) + '\n');
}

/** `stringifyYaml(value, lineSafe)`'s text for a map or list of plain values, or undefined (write it with the library). */
export function fastWriteYaml(value: unknown, lineSafe = false): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  try {
    const empty = isEmptyCollection(value);
    if (empty) return empty + '\n';
    const out: string[] = [];
    writeCollection(value, '', out, '', lineSafe, 0);
    return out.join('');
  } catch (e) {
    if (e instanceof GiveUp) return undefined;
    throw e;
  }
}
