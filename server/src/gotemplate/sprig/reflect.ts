/** Sprig's reflection helpers (`reflect.go`, `functions.go` deepEqual) and defaults (`defaults.go`). */
import { type FuncMap, funcMap, goFunc as F } from '../funcs';
import { kindOf } from '../builtins';
import { formatValue } from '../format';
import { GoInt64, GoMap, GoOther, GoStringMap, GoTime, goTypeName, type GoValue } from '../values';
import { isEmpty } from './cast';

/** reflect.DeepEqual on the value model (types must match: 1 (int) ≠ 1.0 (float64)). */
export function deepEqual(a: GoValue | undefined, b: GoValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== typeof b) return false;
  if (a instanceof GoInt64 && b instanceof GoInt64) return a.v === b.v;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if ((a instanceof GoMap && b instanceof GoMap) || (a instanceof GoStringMap && b instanceof GoStringMap)) {
    const am = a as Map<string, GoValue>,
      bm = b as Map<string, GoValue>;
    if (am.size !== bm.size) return false;
    for (const [k, v] of am) if (!bm.has(k) || !deepEqual(v, bm.get(k) as GoValue)) return false;
    return true;
  }
  if (a instanceof GoTime && b instanceof GoTime) return a.ms === b.ms && a.nsec === b.nsec;
  if (a instanceof GoOther && b instanceof GoOther) return a.type === b.type && a.print() === b.print();
  return false;
}

export function reflectFuncs(): FuncMap {
  return funcMap({
    // fmt's %T: a nil interface is "<nil>"; typeIsLike also accepts the pointer type "*"+target.
    typeOf: F((v: GoValue) => goTypeName(v), ['any']),
    typeIs: F((t: string, v: GoValue) => goTypeName(v) === t, ['string', 'any']),
    typeIsLike: F((t: string, v: GoValue) => goTypeName(v) === t || goTypeName(v) === '*' + t, ['string', 'any']),
    kindOf: F((v: GoValue) => (v === null ? 'invalid' : kindOf(v)), ['any']),
    kindIs: F((t: string, v: GoValue) => (v === null ? 'invalid' : kindOf(v)) === t, ['string', 'any']),
    deepEqual: F((a: GoValue, b: GoValue) => deepEqual(a, b), ['any', 'any']),
    default: F((d: GoValue, ...given: GoValue[]) => (given.length === 0 || isEmpty(given[0]) ? d : given[0]), ['any'], 'any'),
    empty: F((v: GoValue) => isEmpty(v), ['any']),
    coalesce: F((...vs: GoValue[]) => vs.find((v) => !isEmpty(v)) ?? null, [], 'any'),
    all: F((...vs: GoValue[]) => vs.every((v) => !isEmpty(v)), [], 'any'),
    any: F((...vs: GoValue[]) => vs.some((v) => !isEmpty(v)), [], 'any'),
    ternary: F((t: GoValue, f: GoValue, c: boolean) => (c ? t : f), ['any', 'any', 'bool']),
    fail: F(
      (msg: string) => {
        throw new Error(msg);
      },
      ['string'],
    ),
    // strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on any error.
    toDecimal: F(
      (v: GoValue) => {
        const m2 = /^([+-]?)([0-7]+)$/.exec(formatValue(v));
        if (!m2) return new GoInt64(0n);
        const n = (m2[1] === '-' ? -1n : 1n) * BigInt('0o' + m2[2]);
        return new GoInt64(n > 9223372036854775807n || n < -9223372036854775808n ? 0n : n);
      },
      ['any'],
    ),
  });
}
