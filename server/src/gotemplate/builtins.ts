/**
 * text/template's predefined functions (text/template funcs.go of Go 1.26) with Go's error texts.
 *
 * Functions whose Go parameters are `reflect.Value` (len, index, slice, not, eq, …) are declared as
 * `ValueFunc`s: they receive the executor's raw values, where `undefined` is Go's invalid Value
 * (a missing key) and `null` a nil interface. The `...any` ones (print, printf, html, …) are
 * ordinary `GoFunc`s. `and`, `or` and `call` are evaluated by the executor itself.
 */
import type { GoFunc } from './funcs';
import { GoInt64, GoMap, GoOther, GoStringMap, GoTime, goString, goTypeName, scalarType, utf8Bytes, type GoValue } from './values';
import { formatValue, goUint8, sprint, sprintf, sprintln, unsignedOf } from './format';

/** An executor value: a GoValue, `null` for a nil interface, `undefined` for an invalid Value. */
export type Val = GoValue | undefined;

export interface ValueFunc {
  kind: 'value';
  /** Number of fixed reflect.Value parameters. */
  params: number;
  variadic: boolean;
  impl: (args: Val[]) => Val;
}

export interface SpecialFunc {
  kind: 'special';
  name: 'and' | 'or' | 'call';
}

export type Builtin = GoFunc | ValueFunc | SpecialFunc;

/** reflect's Kind names, enough for the value model. */
export type Kind =
  | 'invalid'
  | 'bool'
  | 'int'
  | 'int64'
  | 'uint8'
  | 'uint64'
  | 'float64'
  | 'complex128'
  | 'string'
  | 'slice'
  | 'map'
  | 'struct'
  | 'ptr'
  | 'interface';

export function kindOf(v: Val): Kind {
  if (v === undefined) return 'invalid';
  if (v === null) return 'interface';
  const scalar = scalarType(v);
  if (scalar) return scalar;
  if (Array.isArray(v)) return 'slice';
  if (v instanceof GoMap || v instanceof GoStringMap) return 'map';
  if (v instanceof GoTime) return 'struct';
  if (v instanceof GoOther)
    return v.type === 'uint8' || v.type === 'uint64'
      ? v.type
      : v.type === 'complex128'
        ? 'complex128'
        : ((v.ext.kind as Kind | undefined) ?? 'ptr');
  return 'ptr';
}

/** reflect.Value.Type().String() for error messages. */
export function typeString(v: Val): string {
  if (v === null) return 'interface {}';
  return goTypeName(v ?? null);
}

/** isTrue of exec.go: [truth, ok]. */
export function isTrue(v: Val): [boolean, boolean] {
  if (v === undefined || v === null) return [false, true];
  switch (typeof v) {
    case 'string':
      return [v.length > 0, true];
    case 'number':
      return [v !== 0, true];
    case 'bigint':
      return [v !== 0n, true];
    case 'boolean':
      return [v, true];
  }
  if (v instanceof GoInt64) return [v.v !== 0n, true];
  if (Array.isArray(v)) return [v.length > 0, true];
  if (v instanceof GoMap || v instanceof GoStringMap) return [v.size > 0, true];
  const u = unsignedOf(v);
  if (u !== undefined) return [u !== 0n, true];
  if (v instanceof GoOther && v.type === 'complex128') {
    const [re, im] = v.payload as [number, number];
    return [re !== 0 || im !== 0, true];
  }
  return [true, true];
}

function truth(v: Val): boolean {
  return isTrue(v)[0];
}

/** Integer value of an int-kind value, or undefined. */
function intOf(v: Val): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof GoInt64) return v.v;
  return unsignedOf(v);
}

function indexArg(index: Val, cap: number): number {
  const x = intOf(index);
  if (x === undefined) {
    if (index === undefined || index === null) throw new Error('cannot index slice/array with nil');
    throw new Error(`cannot index slice/array with type ${typeString(index)}`);
  }
  if (x < 0n || x > BigInt(cap)) throw new Error(`index out of range: ${x}`);
  return Number(x);
}

function index(args: Val[]): Val {
  let item: Val = args[0] === null ? undefined : args[0];
  if (item === undefined) throw new Error('index of untyped nil');
  for (let idx of args.slice(1)) {
    if (idx === null) idx = undefined;
    if (item === null) throw new Error('index of nil pointer');
    if (typeof item === 'string') {
      const bytes = utf8Bytes(item);
      const x = indexArg(idx, bytes.length);
      if (x >= bytes.length) throw new Error('reflect: string index out of range');
      item = goUint8(bytes[x]);
    } else if (Array.isArray(item)) {
      const x = indexArg(idx, item.length);
      if (x >= item.length) throw new Error('reflect: slice index out of range');
      item = item[x];
    } else if (item instanceof GoMap || item instanceof GoStringMap) {
      if (idx === undefined) throw new Error('value is nil; should be of type string');
      if (typeof idx !== 'string') throw new Error(`value has type ${typeString(idx)}; should be string`);
      if (item.has(idx)) item = item.get(idx)!;
      else item = item instanceof GoStringMap ? '' : null;
    } else {
      throw new Error(`can't index item of type ${typeString(item)}`);
    }
  }
  return item;
}

function slice(args: Val[]): Val {
  let item: Val = args[0] === null ? undefined : args[0];
  if (item === undefined) throw new Error('slice of untyped nil');
  const idxs = args.slice(1);
  if (idxs.length > 3) throw new Error(`too many slice indexes: ${idxs.length}`);
  let cap: number;
  let len: number;
  let bytes: Buffer | undefined;
  if (typeof item === 'string') {
    if (idxs.length === 3) throw new Error('cannot 3-index slice a string');
    bytes = utf8Bytes(item);
    cap = len = bytes.length;
  } else if (Array.isArray(item)) {
    cap = len = item.length;
  } else throw new Error(`can't slice item of type ${typeString(item)}`);
  const idx = [0, len, 0];
  idxs.forEach((x, i) => (idx[i] = indexArg(x === null ? undefined : x, cap)));
  if (idx[0] > idx[1]) throw new Error(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (idxs.length === 3 && idx[1] > idx[2]) throw new Error(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (bytes) return goString(bytes.subarray(idx[0], idx[1]));
  item = (item as GoValue[]).slice(idx[0], idx[1]);
  return item;
}

function length(args: Val[]): Val {
  const item = args[0];
  if (item === null) throw new Error('len of nil pointer');
  if (item === undefined) throw new Error('reflect: call of reflect.Value.Type on zero Value');
  if (typeof item === 'string') return BigInt(utf8Bytes(item).length);
  if (Array.isArray(item)) return BigInt(item.length);
  if (item instanceof GoMap || item instanceof GoStringMap) return BigInt(item.size);
  throw new Error(`len of type ${typeString(item).replace(/^\*/, '')}`); // len looks through pointers
}

type BasicKind = 'invalid' | 'bool' | 'complex' | 'int' | 'float' | 'string' | 'uint';

function basicKind(v: Val): BasicKind {
  switch (kindOf(v)) {
    case 'bool':
      return 'bool';
    case 'int':
    case 'int64':
      return 'int';
    case 'uint8':
    case 'uint64':
      return 'uint';
    case 'float64':
      return 'float';
    case 'complex128':
      return 'complex';
    case 'string':
      return 'string';
    default:
      return 'invalid';
  }
}

function deref(v: Val): Val {
  return v === null ? undefined : v;
}

function isNilVal(v: Val): boolean {
  return v === undefined || v === null;
}

function eqOne(a1: Val, a: Val, k1: BasicKind): boolean {
  const k2 = basicKind(a);
  if (k1 !== k2) {
    if (k1 === 'int' && k2 === 'uint') return intOf(a1)! >= 0n && intOf(a1) === intOf(a);
    if (k1 === 'uint' && k2 === 'int') return intOf(a)! >= 0n && intOf(a1) === intOf(a);
    if (a1 !== undefined && a !== undefined) throw new Error(`incompatible types for comparison: ${typeString(a1)} and ${typeString(a)}`);
    return false;
  }
  switch (k1) {
    case 'bool':
    case 'string':
    case 'float':
      return a1 === a;
    case 'int':
    case 'uint':
      return intOf(a1) === intOf(a);
    case 'complex': {
      const [r1, i1] = (a1 as GoOther).payload as [number, number];
      const [r2, i2] = (a as GoOther).payload as [number, number];
      return r1 === r2 && i1 === i2;
    }
  }
  const c1 = kindOf(a1);
  const c2 = kindOf(a);
  if (c1 !== c2 && c1 !== 'invalid' && c2 !== 'invalid') {
    throw new Error(`non-comparable types ${formatValue(a1)}: ${typeString(a1)}, ${typeString(a)}: ${formatValue(a)}`);
  }
  if (isNilVal(a1) || isNilVal(a)) return isNilVal(a) === isNilVal(a1);
  if (c2 === 'slice' || c2 === 'map') throw new Error(`non-comparable type ${formatValue(a)}: ${typeString(a)}`);
  if (a1 instanceof GoTime && a instanceof GoTime) return a1.ms === a.ms && a1.nsec === a.nsec && a1.zone === a.zone;
  return a1 === a;
}

function eq(args: Val[]): Val {
  const a1 = deref(args[0]);
  if (args.length < 2) throw new Error('missing argument for comparison');
  const k1 = basicKind(a1);
  for (const raw of args.slice(1)) if (eqOne(a1, deref(raw), k1)) return true;
  return false;
}

function lt(args: Val[]): boolean {
  const a1 = deref(args[0]);
  const a2 = deref(args[1]);
  const k1 = basicKind(a1);
  if (k1 === 'invalid') throw new Error('invalid type for comparison');
  const k2 = basicKind(a2);
  if (k2 === 'invalid') throw new Error('invalid type for comparison');
  if (k1 !== k2) {
    if (k1 === 'int' && k2 === 'uint') return intOf(a1)! < 0n || intOf(a1)! < intOf(a2)!;
    if (k1 === 'uint' && k2 === 'int') return intOf(a2)! >= 0n && intOf(a1)! < intOf(a2)!;
    throw new Error(`incompatible types for comparison: ${typeString(a1)} and ${typeString(a2)}`);
  }
  switch (k1) {
    case 'bool':
    case 'complex':
      throw new Error('invalid type for comparison');
    case 'int':
    case 'uint':
      return intOf(a1)! < intOf(a2)!;
    case 'string':
      return Buffer.compare(utf8Bytes(a1 as string), utf8Bytes(a2 as string)) < 0;
    default:
      return (a1 as number) < (a2 as number);
  }
}

function le(args: Val[]): boolean {
  return lt(args) || (eq(args) as boolean);
}

const HTML_ESC: Record<string, string> = { '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** evalArgs of funcs.go: one string argument as is, otherwise fmt.Sprint (nil prints <no value>). */
function evalArgs(args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null ? '<no value>' : a)));
}

export function htmlEscape(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) => HTML_ESC[c]);
}

export function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (r < 0x20) out += '\\u00' + r.toString(16).toUpperCase().padStart(2, '0');
    else if (r < 0x80) out += ch;
    else if (/^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) out += ch;
    else out += '\\u' + r.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

/** url.QueryEscape */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of utf8Bytes(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function valueFunc(params: number, variadic: boolean, impl: (args: Val[]) => Val): ValueFunc {
  return { kind: 'value', params, variadic, impl };
}

/** The builtins map, looked up after the template's own functions (Go's findFunction order). */
export function builtinFuncs(): Map<string, Builtin> {
  const m = new Map<string, Builtin>();
  m.set('and', { kind: 'special', name: 'and' });
  m.set('or', { kind: 'special', name: 'or' });
  m.set('call', { kind: 'special', name: 'call' });
  m.set('html', { params: [], variadic: 'any', impl: (...a) => htmlEscape(evalArgs(a)) });
  m.set('js', { params: [], variadic: 'any', impl: (...a) => jsEscape(evalArgs(a)) });
  m.set('urlquery', { params: [], variadic: 'any', impl: (...a) => queryEscape(evalArgs(a)) });
  m.set('print', { params: [], variadic: 'any', impl: (...a) => sprint(a) });
  m.set('printf', { params: ['string'], variadic: 'any', impl: (f, ...a) => sprintf(f as string, a) });
  m.set('println', { params: [], variadic: 'any', impl: (...a) => sprintln(a) });
  m.set('index', valueFunc(1, true, index));
  m.set('slice', valueFunc(1, true, slice));
  m.set('len', valueFunc(1, false, length));
  m.set(
    'not',
    valueFunc(1, false, (a) => !truth(a[0])),
  );
  m.set('eq', valueFunc(1, true, eq));
  m.set(
    'ne',
    valueFunc(2, false, (a) => !eq(a)),
  );
  m.set('lt', valueFunc(2, false, lt));
  m.set('le', valueFunc(2, false, le));
  m.set(
    'gt',
    valueFunc(2, false, (a) => !le(a)),
  );
  m.set(
    'ge',
    valueFunc(2, false, (a) => !lt(a)),
  );
  return m;
}

export { truth };
