/**
 * The walk of a template's `metadata` and `spec` that renders an Application (Argo CD's
 * `applicationset/utils` walk: strings and keys rendered, value before key, null entries dropped), with
 * each field's render re-used from the previous expansion where it is kept (renderMemo.ts).
 */
import { compareGoStrings, totalSpent } from '@appset-tools/gotemplate';
import type { JsonPath } from '../yaml';
import { isObj } from '../objects';
import { memoized } from '../memoized';
import { put } from '../generators/params';
import { carryParts, keep, reused, type FieldRenders } from './renderMemo';

const MAX_DEPTH = 200;

/**
 * `walk` of the template's `metadata` or `spec`, each field's render re-used from the previous version
 * when that field's template and the parameter set are the same (renderMemo.ts): a field is kept only
 * when it rendered without error and without a function whose result changes, and a re-used one charges
 * the work budget what it cost. Fields are visited in the same order as `walk`, so the first error is
 * the same one. The whole `metadata` or `spec` is kept the same way, with its fields' renders: after a
 * template edit in the spec, each Application shares its metadata object with the previous version's
 * (the walk's output is never modified: renderApp copies it).
 */
export function walkFields(
  v: unknown,
  render: (s: string, path: JsonPath) => string,
  top: string,
  fields: FieldRenders | undefined,
  report: { nonDeterministic: Set<string> },
): unknown {
  // One path array for every walk (pushed and popped along it; an error copies it), not a new one grown
  // for each `metadata` and `spec` of each Application. A walk an error ended may have left it longer.
  const path = walkPath;
  if (path.length !== 1) path.length = 1;
  path[0] = top;
  if (!fields || !isObj(v)) return walk(v, render, path, 0);
  const whole = fields.at('', top, v);
  const again = whole && reused(whole, fields);
  if (again) {
    // Its fields' renders stay kept too (an edit of one field later re-uses the others).
    carryParts(again, fields.carry, fields.key, fields.kept);
    return again.value;
  }
  const first = fields.kept.length;
  const spent = totalSpent();
  const outer = report.nonDeterministic;
  const used = (report.nonDeterministic = topUsed);
  used.clear();
  let out: unknown;
  try {
    out = walkObject(v, path, render, 1, { top, fields, report });
  } finally {
    report.nonDeterministic = outer;
    for (const f of used) outer.add(f);
  }
  if (whole && !used.size)
    keep(whole, fields, { value: out, units: totalSpent() - spent, seen: fields.id, fields: fields.kept.slice(first) });
  return out;
}

/** One field of the template's `metadata` or `spec` (see walkFields). */
function fieldValue(
  k: string,
  x: unknown,
  render: (s: string, path: JsonPath) => string,
  top: string,
  path: JsonPath,
  fields: FieldRenders,
  report: { nonDeterministic: Set<string> },
): unknown {
  const memo = typeof x === 'object' ? fields.at(top, k, x) : undefined;
  if (!memo) return walk(x, render, path, 1);
  const again = reused(memo, fields);
  if (again) return again.value;
  const spent = totalSpent();
  const outer = report.nonDeterministic;
  // One set for every field's render (walk never renders a field within a field), emptied before each.
  const used = (report.nonDeterministic = fieldUsed);
  used.clear();
  let val: unknown;
  try {
    val = walk(x, render, path, 1);
  } finally {
    report.nonDeterministic = outer;
    for (const f of used) outer.add(f);
  }
  if (!used.size) keep(memo, fields, { value: val, units: totalSpent() - spent, seen: fields.id });
  return val;
}

/** The path of the walk under way (walkFields; a walk never starts another). */
const walkPath: JsonPath = [''];

/** The same for the whole `metadata` or `spec` (see walkFields). */
const topUsed = new Set<string>();
/** The functions with changing results that one field's render used (see walkFields). */
const fieldUsed = new Set<string>();

/** Renders one template string (its place in the template, for an error). */
type Render = (s: string, path: JsonPath) => string;

/**
 * Argo CD's walk (strings and keys rendered, value before key, null entries dropped). `path` is where
 * `v` sits, one array pushed and popped along the walk (`render` copies it for an error only).
 */
function walk(v: unknown, render: Render, path: JsonPath, depth: number): unknown {
  if (depth > MAX_DEPTH) return v;
  if (typeof v === 'string') return render(v, path);
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x === null || x === undefined) out[i] = null;
      else {
        path.push(i);
        out[i] = walk(x, render, path, depth + 1);
        path.pop();
      }
    }
    return out;
  }
  if (isObj(v)) return walkObject(v, path, render, depth + 1, undefined);
  return v;
}

/** The fields of a template's `metadata` or `spec` walked one by one, each render kept (walkFields, fieldValue). */
interface FieldWalk {
  top: string;
  fields: FieldRenders;
  report: { nonDeterministic: Set<string> };
}

/**
 * One entry's value of a template object: its field's render (fieldValue) for the fields of `metadata` or
 * `spec` walked one by one, else `walk` at `depth`. Plain arguments, not a closure per object walked (two
 * closures for each of the 540 Applications' dozen objects, and calls through them, in a document's first
 * expansion, which runs before V8 has compiled any of it).
 */
function entryValue(k: string, x: unknown, render: Render, path: JsonPath, depth: number, field: FieldWalk | undefined): unknown {
  return field ? fieldValue(k, x, render, field.top, path, field.fields, field.report) : walk(x, render, path, depth);
}

/**
 * A template object's entries that are not null, rendered in Go's sorted key order (so the first
 * error is the one Argo CD reports: the value, then the key, with `path` at the entry) but written
 * back in the template's own key order, which reads better in the preview (a later key rendering to
 * the same name wins).
 */
function walkObject(
  v: Record<string, unknown>,
  path: JsonPath,
  render: Render,
  depth: number,
  field: FieldWalk | undefined,
): Record<string, unknown> {
  const shape = shapeOf(v);
  if (shape.literal) return walkLiteralKeys(v, path, render, depth, field, shape);
  const { keys, sorted } = shape;
  const outKeys = new Array<string | undefined>(keys.length);
  const outValues = new Array<unknown>(keys.length);
  for (let j = 0; j < sorted.length; j++) {
    const i = sorted[j];
    const k = keys[i];
    const x = v[k];
    if (x === null || x === undefined) continue;
    path.push(k);
    outValues[i] = entryValue(k, x, render, path, depth, field);
    // A key without an action renders to itself.
    outKeys[i] = k.includes('{{') ? render(k, path) : k;
    path.pop();
  }
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = outKeys[i];
    if (k !== undefined) put(out, k, outValues[i]);
  }
  return out;
}

/**
 * `walkObject` of an object whose keys hold no `{{` (nearly every one): a key renders to itself, so the
 * output's keys are known before any value is rendered. They are written first, in the template's
 * order, and each value is set in Go's order as it renders: the same object, without the two arrays
 * per object (every object of 540 Applications on a template keystroke) that hold rendered keys.
 */
function walkLiteralKeys(
  v: Record<string, unknown>,
  path: JsonPath,
  render: Render,
  depth: number,
  field: FieldWalk | undefined,
  shape: Shape,
): Record<string, unknown> {
  const { keys, sorted } = shape;
  // The output's keys, written once per template object (`skeleton`) and copied: one object made with
  // all its keys, not a key added at a time to each of 540 Applications' objects. A `__proto__` key is
  // written with `put` (an assignment would set the prototype).
  const skeleton = (shape.skeleton ??= skeletonOf(v, keys));
  const out: Record<string, unknown> = { ...skeleton.out };
  // Indexes, not `for … of`: an iterator and a result object per entry in code V8 has not compiled yet.
  for (let j = 0; j < sorted.length; j++) {
    const k = keys[sorted[j]];
    const x = v[k];
    if (x === null || x === undefined) continue;
    path.push(k);
    const value = entryValue(k, x, render, path, depth, field);
    if (skeleton.proto) put(out, k, value);
    else out[k] = value;
    path.pop();
  }
  return out;
}

/** The keys `walkLiteralKeys` writes for template object `v` (those whose value is not null), in its order. */
function skeletonOf(v: Record<string, unknown>, keys: string[]): NonNullable<Shape['skeleton']> {
  const out: Record<string, unknown> = {};
  let proto = false;
  for (let i = 0; i < keys.length; i++) {
    const x = v[keys[i]];
    if (x === null || x === undefined) continue;
    put(out, keys[i], undefined);
    if (keys[i] === '__proto__') proto = true;
  }
  return { out, proto };
}

/** A template object's keys in its own order, their indexes in Go's sorted order, and whether no key holds `{{`. */
interface Shape {
  keys: string[];
  sorted: number[];
  literal: boolean;
  /** What `walkLiteralKeys` copies for the object (made on its first walk): its output's keys, and whether one is `__proto__`. */
  skeleton?: { out: Record<string, unknown>; proto: boolean };
}

/**
 * Per template object, computed once: every parameter set renders the same objects, and a
 * keystroke's parse shares the objects of what it did not change (yaml/incremental.ts). Template
 * values are never modified in place.
 */
const shapes = new WeakMap<object, Shape>();

function shapeOf(v: Record<string, unknown>): Shape {
  return memoized(shapes, v, makeShape);
}
function makeShape(v: Record<string, unknown>): Shape {
  const keys = Object.keys(v);
  const sorted = keys.map((_, i) => i).sort((a, b) => compareGoStrings(keys[a], keys[b]));
  return { keys, sorted, literal: !keys.some((k) => k.includes('{{')) };
}
