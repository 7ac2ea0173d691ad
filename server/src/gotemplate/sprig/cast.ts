/**
 * The conversions sprig relies on (spf13/cast ToInt64/ToFloat64/ToInt and sprig's own strval,
 * empty), on our Go value model. Errors of cast are swallowed by sprig (→ 0), as here.
 */
import { formatValue, unsignedOf } from '../format';
import { kindOf } from '../builtins';
import { GoInt64, GoMap, GoStringMap, GoTime, type GoValue } from '../values';

/** strconv.ParseInt(s, 0, 64) as cast uses it (base prefixes, underscores only with a prefix). */
function parseGoInt(s: string): bigint | undefined {
  const t = s.trim() === s ? s : undefined;
  if (t === undefined || t === '') return undefined;
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|0[0-7_]*|[1-9][0-9_]*|0)$/.exec(t);
  if (!m) return undefined;
  let body = m[2];
  const hasPrefix = /^0[xXbBoO]/.test(body) || (body.length > 1 && body[0] === '0');
  if (body.includes('_') && !hasPrefix) return undefined;
  body = body.replace(/_/g, '');
  let v: bigint;
  if (/^0[xX]/.test(body)) v = BigInt(body);
  else if (/^0[bB]/.test(body)) v = BigInt(body);
  else if (/^0[oO]/.test(body)) v = BigInt('0o' + body.slice(2));
  else if (body.length > 1 && body[0] === '0') v = BigInt('0o' + body.slice(1));
  else v = BigInt(body);
  if (m[1] === '-') v = -v;
  if (v > 9223372036854775807n || v < -9223372036854775808n) return undefined;
  return v;
}

export function toInt64(v: GoValue | undefined): bigint {
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'bigint') return v;
  if (v instanceof GoInt64) return v.v;
  if (typeof v === 'number') {
    // int64(f) on amd64: out of range (or NaN) gives the "integer indefinite" value, math.MinInt64.
    const t = Math.trunc(v);
    return Number.isFinite(t) && t < 9223372036854775808 && t >= -9223372036854775808 ? BigInt(t) : -9223372036854775808n;
  }
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') {
    // cast trims leading zeros ("08" parses as 8 in cast 1.7 via trimZeroDecimal/ParseInt base 0 fallback)
    const x = parseGoInt(v);
    if (x !== undefined) return x;
    const f = Number(v);
    if (/^[+-]?\d+\.0*$/.test(v)) return BigInt(Math.trunc(f));
    return 0n;
  }
  const u = unsignedOf(v);
  return u === undefined ? 0n : BigInt.asIntN(64, u);
}

export function toFloat64(v: GoValue | undefined): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof GoInt64) return Number(v.v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    if (!/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|[iI]nf(inity)?|NaN)$/.test(v.trim()) || v.trim() !== v) return 0;
    return Number(v.replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
  }
  const u = unsignedOf(v);
  return u === undefined ? 0 : Number(u);
}

/** sprig strval: strings as they are, everything else through fmt's %v. */
export function strval(v: GoValue | undefined): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return formatValue(null);
  return formatValue(v);
}

/** sprig empty(): nil, zero numbers, false, "", empty list/map; structs never. */
export function isEmpty(v: GoValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.length === 0;
  if (typeof v === 'number') return v === 0;
  if (typeof v === 'bigint') return v === 0n;
  if (typeof v === 'boolean') return !v;
  if (v instanceof GoInt64) return v.v === 0n;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof GoMap || v instanceof GoStringMap) return v.size === 0;
  if (v instanceof GoTime) return false;
  return unsignedOf(v) === 0n;
}

export function isList(v: unknown): v is GoValue[] {
  return Array.isArray(v);
}

export function isMap(v: unknown): v is GoMap | GoStringMap {
  return v instanceof GoMap || v instanceof GoStringMap;
}

/** Go's %T-ish type name used in sprig panics ("Cannot find first on type string"). */
export function kindName(v: GoValue | undefined): string {
  return v === undefined || v === null ? 'invalid' : kindOf(v);
}

/** reflect.TypeOf(nil).Kind(): sprig's list functions panic this way on a nil list. */
export const NIL_DEREF = 'runtime error: invalid memory address or nil pointer dereference';

export const i64 = (v: bigint) => new GoInt64(BigInt.asIntN(64, v));
