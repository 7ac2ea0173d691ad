/**
 * Schema validation of one ApplicationSet document against the JSON Schema generated from the CRD,
 * turning ajv's errors into diagnostics on the precise YAML node with plain-language messages.
 *
 * Like the API server, null values of object fields count as absent (Kubernetes drops nulls of
 * non-nullable fields before validating), so `key:` with nothing after it is not a type error.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { EngineDiagnostic, Json, Span } from '../types';
import type { JsonPath } from '../yaml';
import type { AppSetDoc } from '../kinds';
import { sub, type Field } from '../fields/place';
import { instanceAt } from './instancePath';
import { APPSET_SCHEMA, describeType, schemaAt, type SchemaNode } from './schemaIndex';
import { isYaml11BooleanScalar } from './checks/yaml11';
import { getValidator } from './validators';
import { describeLocation, describeValue, dottedPath } from './describe';
import { isObj } from '../objects';
import { suggest } from '../didYouMean';
import { finding } from '../diagnostics/codes';

/** Documents nested deeper than this are cut for validation (deeper YAML is not a real ApplicationSet). */
const MAX_DEPTH = 256;
/** At most this many schema errors per document (a pasted wrong file would otherwise flood). */
const MAX_ERRORS = 200;

/** The compiled validator (generated at build time in the bundles, see `validators.ts`). */
export function appsetValidator(): ValidateFunction {
  return getValidator('applicationset', APPSET_SCHEMA);
}

export function validateSchema(doc: AppSetDoc, text: string): EngineDiagnostic[] {
  const value = stripNulls(doc.value, 0) as Json;
  const errors = schemaErrors(value);
  if (!errors.length) return [];
  const out: EngineDiagnostic[] = [];
  const seen = new Set<string>();
  for (const err of errors) {
    const d = toDiagnostic(doc, text, value, err);
    if (!d) continue;
    const key = `${d.code}|${d.span.start}|${d.span.end}|${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
    if (out.length >= MAX_ERRORS) break;
  }
  return out;
}

/**
 * ajv's errors for a value, kept per value object: a document that did not change (another document of
 * the file was edited) keeps its value, and stripNulls gives the same object for it. Before, they were
 * cached by the value's JSON, which a keystroke in a large document wrote out whole (85 KB for the
 * bench's 540-element list, and its null-stripping walk of every element: 0.3 ms of each keystroke,
 * 30 times what ajv takes to validate it); an edit of a comment or of the layout now validates again.
 */
const errorCache = new WeakMap<object, ErrorObject[]>();

function schemaErrors(value: Json): ErrorObject[] {
  const keyed = typeof value === 'object' && value !== null;
  const hit = keyed ? errorCache.get(value) : undefined;
  if (hit) return hit;
  const validate = appsetValidator();
  const errors = validate(value) ? [] : (validate.errors ?? []).slice(0, MAX_ERRORS * 2);
  if (keyed) errorCache.set(value, errors);
  return errors;
}

function toDiagnostic(doc: AppSetDoc, text: string, value: Json, err: ErrorObject): EngineDiagnostic | undefined {
  // The one look-up by path in validation: ajv names the failing value by its JSON pointer.
  const { path, at } = instanceAt(doc, err.instancePath, value);
  // ajv only reports schemas with `verbose`; looking them up by path is cheaper and follows $refs.
  const parentSchema = schemaAt(path);
  switch (err.keyword) {
    case 'additionalProperties': {
      const key = String((err.params as { additionalProperty: string }).additionalProperty);
      if (isTooDeepNesting(path, key)) return undefined; // reported by the nesting-depth check
      const allowed = Object.keys(parentSchema?.properties ?? {});
      const hint = suggest(key, allowed);
      let message = `unknown field "${key}" in ${describeLocation(path)}`;
      if (hint) message += `; did you mean "${hint}"?`;
      else if (key === 'filters')
        message +=
          ': only the pullRequest and scmProvider generators have filters (expression filters were a design proposal that was never implemented)';
      else if (allowed.length && allowed.length <= 12) message += ` (expected one of: ${allowed.join(', ')})`;
      return finding('appset/unknown-field', message, sub(at, key).keySpan, { data: hint ? { replacement: hint } : undefined });
    }
    case 'type': {
      // Unquoted yes/no/on/off in a boolean field: the YAML 1.1 check reports it.
      if (parentSchema?.type === 'boolean' && isYaml11BooleanScalar(at.node)) return undefined;
      const v = valueAt(value, path);
      const expected = describeType(parentSchema);
      let message = `${dottedPath(path)}: expected ${expected}, got ${describeValue(v)}`;
      if (typeof v === 'number' && includesType(parentSchema, 'string') && !parentSchema?.['x-int-or-string'])
        message += ' (quote it to make it a string)';
      if (typeof v === 'string' && includesType(parentSchema, 'boolean') && /^(yes|no|on|off|y|n|true|false)$/i.test(v)) {
        message += ' (write true or false without quotes)';
      }
      if (typeof v === 'string' && includesType(parentSchema, 'integer') && /^-?\d+$/.test(v)) message += ' (remove the quotes)';
      return finding('appset/wrong-type', message, at);
    }
    case 'required': {
      const missing = String((err.params as { missingProperty: string }).missingProperty);
      const orig = valueAt(doc.value, path);
      const isNull = isObj(orig) && Object.prototype.hasOwnProperty.call(orig, missing) && orig[missing] === null;
      if (isNull) {
        const n = sub(at, missing);
        return finding('appset/missing-field', `"${missing}" in ${describeLocation(path)} is required but empty`, n.keyRange ?? at.keySpan);
      }
      // A patch (validate/partial.ts) holds only what it changes: what is absent is not asked for.
      if (doc.partial) return undefined;
      return finding(
        'appset/missing-field',
        `missing required field "${missing}" in ${describeLocation(path)}`,
        parentKeySpan(text, path, at),
      );
    }
    case 'enum': {
      const allowed = (err.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const v = valueAt(value, path);
      const hint = typeof v === 'string' ? suggest(v, allowed) : undefined;
      return finding(
        'appset/invalid-value',
        `${dottedPath(path)}: ${describeValue(v)} is not allowed; expected one of ${allowed.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`,
        at,
        { data: hint ? { replacement: hint } : undefined },
      );
    }
    case 'pattern': {
      const v = valueAt(value, path);
      return finding(
        'appset/invalid-value',
        `${dottedPath(path)}: ${describeValue(v)} does not match the pattern ${(err.params as { pattern: string }).pattern}`,
        at,
      );
    }
    default:
      return finding('appset/invalid-value', `${dottedPath(path)}: ${err.message ?? 'invalid value'}`, at);
  }
}

function includesType(s: SchemaNode | undefined, t: string): boolean {
  return Array.isArray(s?.type) ? s!.type.includes(t) : s?.type === t;
}

/** The key of the object at `path` (so "missing X" underlines `template:`), or its first line. */
function parentKeySpan(text: string, path: JsonPath, at: Field): Span {
  if (path.length === 0) return sub(at, 'kind').keyRange ?? at.span;
  if (at.keyRange) return at.keyRange;
  // A list item: underline its first line.
  const v = at.valueRange;
  if (v) return { start: v.start, end: Math.max(v.start + 1, Math.min(v.end, lineEnd(text, v.start))) };
  return at.keySpan;
}

function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl;
}

/** A nested matrix/merge inside a nested matrix/merge: the checks give it a dedicated message. */
function isTooDeepNesting(path: JsonPath, key: string): boolean {
  if (key !== 'matrix' && key !== 'merge') return false;
  const kinds = path.filter((s) => s === 'matrix' || s === 'merge').length;
  return kinds >= 2 && path[path.length - 2] === 'generators';
}

function valueAt(value: Json | undefined, path: JsonPath): Json | undefined {
  let cur: Json | undefined = value;
  for (const seg of path) {
    if (typeof seg === 'number' && Array.isArray(cur)) cur = cur[seg];
    else if (typeof seg === 'string' && isObj(cur) && Object.prototype.hasOwnProperty.call(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}

/**
 * The value without null object members (absent for the API server), safe for any key. Subtrees
 * without nulls are the same objects (the validator only reads them): a keystroke in a large
 * document does not copy it whole.
 */
function stripNulls(v: Json | undefined, depth: number): Json | undefined {
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(v)) {
    const kept = strippedArrays.get(v);
    if (kept && kept.depth === depth) return kept.out;
    let out: Json[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = stripNulls(v[i], depth + 1) as Json;
      if (x !== v[i] && !out) out = v.slice(0, i);
      out?.push(x);
    }
    strippedArrays.set(v, { depth, out: out ?? v });
    return out ?? v;
  }
  if (isObj(v)) {
    const keys = Object.keys(v);
    let o: { [k: string]: Json } | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const x = v[k] === null ? undefined : (stripNulls(v[k], depth + 1) as Json);
      if (x !== v[k] && !o) {
        o = {};
        for (const before of keys.slice(0, i)) put(o, before, v[before]);
      }
      if (o && x !== undefined) put(o, k, x);
    }
    return o ?? v;
  }
  return v;
}

/**
 * stripNulls of each array, at the depth it was walked (deeper than MAX_DEPTH is cut): values are never
 * modified, and a keystroke's parse shares what the edit did not change (a template keystroke keeps the
 * list of 540 elements, which was walked again on every one).
 */
const strippedArrays = new WeakMap<Json[], { depth: number; out: Json[] }>();

function put(o: { [k: string]: Json }, k: string, value: Json): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}
