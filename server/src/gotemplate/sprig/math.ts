/**
 * Sprig's math (`numeric.go`): integer functions go through cast.ToInt64 and return int64;
 * the `*f` functions go through shopspring/decimal (exact decimal arithmetic on the shortest
 * representation of each float64) and return float64.
 */
import { type FuncMap, funcMap, goFunc as F } from '../funcs';
import type { GoValue } from '../values';
import { i64, toFloat64, toInt64 } from './cast';

/** A decimal as (digits, scale): value = n / 10^scale. */
interface Dec {
  n: bigint;
  s: number;
}
function dec(x: number): Dec {
  if (!Number.isFinite(x)) throw new Error(`Cannot create a Decimal from ${x}`);
  const str = String(x);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(str);
  if (!m) return { n: 0n, s: 0 };
  const frac = m[3] ?? '';
  let n = BigInt(m[2] + frac);
  let s = frac.length - Number(m[4] ?? 0);
  if (s < 0) {
    n *= 10n ** BigInt(-s);
    s = 0;
  }
  return { n: m[1] ? -n : n, s };
}
const align = (a: Dec, b: Dec): [bigint, bigint, number] => {
  const s = Math.max(a.s, b.s);
  return [a.n * 10n ** BigInt(s - a.s), b.n * 10n ** BigInt(s - b.s), s];
};
const decNum = (d: Dec) =>
  Number(
    `${d.n < 0n ? '-' : ''}${(d.n < 0n ? -d.n : d.n)
      .toString()
      .padStart(d.s + 1, '0')
      .replace(new RegExp(`(\\d{${d.s}})$`), '.$1')}`,
  );
const addD = (a: Dec, b: Dec): Dec => {
  const [x, y, s] = align(a, b);
  return { n: x + y, s };
};
const subD = (a: Dec, b: Dec): Dec => addD(a, { n: -b.n, s: b.s });
const mulD = (a: Dec, b: Dec): Dec => ({ n: a.n * b.n, s: a.s + b.s });
function divD(a: Dec, b: Dec): Dec {
  if (b.n === 0n) throw new Error('decimal division by 0');
  // shopspring DivRound(d2, DivisionPrecision=16): half away from zero
  const [x, y] = align(a, b);
  const scale = 10n ** 17n;
  let q = (x * scale) / y;
  const neg = q < 0n;
  if (neg) q = -q;
  q = (q + 5n) / 10n;
  return { n: neg ? -q : q, s: 16 };
}

function fold(xs: GoValue[], f: (a: Dec, b: Dec) => Dec): number {
  if (!xs.length) return 0;
  let acc = dec(toFloat64(xs[0]));
  for (const x of xs.slice(1)) acc = f(acc, dec(toFloat64(x)));
  return decNum(acc);
}

export function mathFuncs(): FuncMap {
  const maxI = (a: GoValue, ...xs: GoValue[]) => i64(xs.reduce<bigint>((s, x) => (toInt64(x) > s ? toInt64(x) : s), toInt64(a)));
  return funcMap({
    add1: F((a: GoValue) => i64(toInt64(a) + 1n), ['any']),
    add: F((...xs: GoValue[]) => i64(xs.reduce<bigint>((s, x) => s + toInt64(x), 0n)), [], 'any'),
    sub: F((a: GoValue, b: GoValue) => i64(toInt64(a) - toInt64(b)), ['any', 'any']),
    mul: F(
      (a: GoValue, ...xs: GoValue[]) => i64(xs.reduce<bigint>((s, x) => BigInt.asIntN(64, s * toInt64(x)), toInt64(a))),
      ['any'],
      'any',
    ),
    div: F(
      (a: GoValue, b: GoValue) => {
        const d = toInt64(b);
        if (d === 0n) throw new Error('runtime error: integer divide by zero');
        return i64(toInt64(a) / d);
      },
      ['any', 'any'],
    ),
    mod: F(
      (a: GoValue, b: GoValue) => {
        const d = toInt64(b);
        if (d === 0n) throw new Error('runtime error: integer divide by zero');
        return i64(toInt64(a) % d);
      },
      ['any', 'any'],
    ),
    max: F(maxI, ['any'], 'any'),
    biggest: F(maxI, ['any'], 'any'),
    min: F(
      (a: GoValue, ...xs: GoValue[]) => i64(xs.reduce<bigint>((s, x) => (toInt64(x) < s ? toInt64(x) : s), toInt64(a))),
      ['any'],
      'any',
    ),
    floor: F((a: GoValue) => Math.floor(toFloat64(a)), ['any']),
    ceil: F((a: GoValue) => Math.ceil(toFloat64(a)), ['any']),
    round: F(
      (a: GoValue, p: bigint, ...r: GoValue[]) => {
        const on = r.length ? toFloat64(r[0]) : 0.5;
        const pow = Math.pow(10, Number(p));
        const digit = pow * toFloat64(a);
        const frac = digit - Math.trunc(digit);
        return (frac >= on ? Math.ceil(digit) : Math.floor(digit)) / pow;
      },
      ['any', 'int'],
      'float64',
    ),
    addf: F((...xs: GoValue[]) => fold(xs, addD), [], 'any'),
    add1f: F((a: GoValue) => decNum(addD(dec(toFloat64(a)), { n: 1n, s: 0 })), ['any']),
    subf: F((a: GoValue, ...xs: GoValue[]) => fold([a, ...xs], subD), ['any'], 'any'),
    mulf: F((a: GoValue, ...xs: GoValue[]) => fold([a, ...xs], mulD), ['any'], 'any'),
    divf: F((a: GoValue, ...xs: GoValue[]) => fold([a, ...xs], divD), ['any'], 'any'),
    maxf: F((a: GoValue, ...xs: GoValue[]) => Math.max(toFloat64(a), ...xs.map(toFloat64)), ['any'], 'any'),
    minf: F((a: GoValue, ...xs: GoValue[]) => Math.min(toFloat64(a), ...xs.map(toFloat64)), ['any'], 'any'),
    int: F((v: GoValue) => toInt64(v), ['any']),
    int64: F((v: GoValue) => i64(toInt64(v)), ['any']),
    float64: F((v: GoValue) => toFloat64(v), ['any']),
    randInt: F(
      (lo: bigint, hi: bigint) => {
        if (hi <= lo) throw new Error('invalid argument to Intn');
        return lo + BigInt(Math.floor(Math.random() * Number(hi - lo)));
      },
      ['int', 'int'],
      undefined,
      true,
    ),
  });
}
