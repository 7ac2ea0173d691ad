/**
 * Go's strconv.FormatFloat for float64 ('e', 'E', 'f', 'g', 'G' with shortest or fixed precision).
 * Shortest digits come from JavaScript (both pick the shortest round-trip digits); fixed precision
 * rounds the exact binary value half-to-even, as Go's decimal rounding does.
 */

interface Digits {
  /** Decimal digits without leading/trailing zeros ('' for zero). */
  d: string;
  /** Position of the decimal point: value = 0.d × 10^dp. */
  dp: number;
}

function shortestDigits(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const s = x.toExponential(); // shortest round-trip digits, e.g. "1.2345e+6"
  const [mant, exp] = s.split('e');
  const d = mant.replace('.', '').replace(/0+$/, '');
  return { d, dp: Number(exp) + 1 };
}

function exactDigits(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = bexp - 1075;
  }
  let digits: string;
  let dp: number;
  if (e >= 0) {
    digits = (mant << BigInt(e)).toString();
    dp = digits.length;
  } else {
    digits = (mant * 5n ** BigInt(-e)).toString();
    dp = digits.length + e;
  }
  const trimmed = digits.replace(/0+$/, '');
  return { d: trimmed, dp };
}

/** Rounds to nd significant digits, half to even on the exact value (Go's decimal.Round). */
function roundDigits(v: Digits, nd: number): Digits {
  if (nd < 0 || nd >= v.d.length) return v;
  let up: boolean;
  const c = v.d.charCodeAt(nd) - 48;
  if (c > 5) up = true;
  else if (c < 5) up = false;
  else if (nd + 1 < v.d.length) up = true;
  else up = nd > 0 && (v.d.charCodeAt(nd - 1) - 48) % 2 === 1;
  if (!up) return { d: v.d.slice(0, nd).replace(/0+$/, ''), dp: nd === 0 ? 0 : v.dp };
  let i = nd - 1;
  const arr = v.d.slice(0, nd).split('');
  while (i >= 0 && arr[i] === '9') i--;
  if (i < 0) return { d: '1', dp: v.dp + 1 };
  arr[i] = String.fromCharCode(arr[i].charCodeAt(0) + 1);
  return { d: arr.slice(0, i + 1).join(''), dp: v.dp };
}

function fmtE(v: Digits, prec: number, e: string): string {
  let out = v.d.length === 0 ? '0' : v.d[0];
  if (prec > 0) {
    out += '.';
    let i = 1;
    const m = Math.min(v.d.length, prec + 1);
    if (i < m) {
      out += v.d.slice(i, m);
      i = m;
    }
    out += '0'.repeat(prec + 1 - i);
  }
  out += e;
  let exp = v.dp - 1;
  if (v.d.length === 0) exp = 0;
  out += exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  out += exp < 10 ? '0' + exp : String(exp);
  return out;
}

function fmtF(v: Digits, prec: number): string {
  let out: string;
  if (v.dp > 0) {
    const m = Math.min(v.d.length, v.dp);
    out = v.d.slice(0, m) + '0'.repeat(v.dp - m);
  } else out = '0';
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) {
      const j = v.dp + i - 1;
      out += j >= 0 && j < v.d.length ? v.d[j] : '0';
    }
  }
  return out;
}

/** strconv.FormatFloat(x, fmt, prec, 64). */
export function formatFloat(x: number, fmt: 'e' | 'E' | 'f' | 'F' | 'g' | 'G', prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  const shortest = prec < 0;
  let digs: Digits;
  if (shortest) {
    digs = shortestDigits(a);
    switch (fmt) {
      case 'e':
      case 'E':
        prec = Math.max(digs.d.length - 1, 0);
        break;
      case 'f':
      case 'F':
        prec = Math.max(digs.d.length - digs.dp, 0);
        break;
      default:
        prec = digs.d.length;
    }
  } else {
    const exact = exactDigits(a);
    switch (fmt) {
      case 'e':
      case 'E':
        digs = roundDigits(exact, prec + 1);
        break;
      case 'f':
      case 'F':
        digs = roundDigits(exact, exact.dp + prec);
        break;
      default:
        if (prec === 0) prec = 1;
        digs = roundDigits(exact, prec);
    }
  }
  let body: string;
  switch (fmt) {
    case 'e':
    case 'E':
      body = fmtE(digs, prec, fmt);
      break;
    case 'f':
    case 'F':
      body = fmtF(digs, prec);
      break;
    default: {
      let eprec = prec;
      if (eprec > digs.d.length && digs.d.length >= digs.dp) eprec = digs.d.length;
      if (shortest) eprec = 6;
      const exp = digs.dp - 1;
      if (exp < -4 || exp >= eprec) {
        let p = prec;
        if (p > digs.d.length) p = digs.d.length;
        body = fmtE(digs, p - 1, fmt === 'g' ? 'e' : 'E');
      } else {
        let p = prec;
        if (p > digs.dp) p = digs.d.length;
        body = fmtF(digs, Math.max(p - digs.dp, 0));
      }
    }
  }
  return (neg ? '-' : '') + body;
}
