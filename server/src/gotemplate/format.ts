/**
 * Go's fmt package for the template value model: `%v` printing (what `{{ . }}` writes), Sprint,
 * Sprintln and Sprintf with Go's verbs, flags and error forms (`%!d(float64=3)`, `%!s(MISSING)`,
 * `%!(EXTRA string=x)`). Mirrors fmt/print.go and fmt/format.go behaviour for the kinds a
 * template can hold (see values.ts).
 */
import { GoInt64, GoMap, GoOther, GoStringMap, GoTime, goTypeName, utf8Bytes, type GoValue } from './values';
import { formatTime, zoneOf } from './sprig/goTime';
import { formatFloat } from './floatfmt';
import { charge, valueLimitError, valueLimits } from './budget';

/** A Go uint8 (what `index` yields on a string), kept as a GoOther so the value model stays closed. */
export function goUint8(n: number): GoOther {
  return new GoOther('uint8', n, () => String(n));
}

export function isUint8(v: unknown): v is GoOther {
  return v instanceof GoOther && v.type === 'uint8';
}

/** A Go uint64 (what semver's Major/Minor/Patch return). */
export function goUint64(n: bigint): GoOther {
  return new GoOther('uint64', n, () => String(n), { goSyntax: () => '0x' + n.toString(16) });
}

/** Unsigned integers (uint8, uint64) are GoOthers; their value, or undefined for anything else. */
export function unsignedOf(v: unknown): bigint | undefined {
  if (!(v instanceof GoOther)) return undefined;
  if (v.type === 'uint8') return BigInt(v.payload as number);
  if (v.type === 'uint64') return v.payload as bigint;
  return undefined;
}

/** Compares strings in Go's byte (= code point) order. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const sx = x >= 0xd800 && x <= 0xdfff;
      const sy = y >= 0xd800 && y <= 0xdfff;
      if (sx !== sy) return sx ? 1 : -1; // surrogates encode code points above every BMP char
      return x - y;
    }
  }
  return a.length - b.length;
}

export function sortedKeys(m: Map<string, unknown>): string[] {
  return [...m.keys()].sort(compareGoStrings);
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
/** unicode.IsPrint */
export function isPrintRune(r: number): boolean {
  if (r < 0x80) return r >= 0x20 && r < 0x7f;
  if (r >= 0xd800 && r <= 0xdfff) return false;
  return PRINTABLE.test(String.fromCodePoint(r));
}

function quoteRuneInto(r: number, quote: number, asciiOnly: boolean): string {
  if (r === quote || r === 0x5c) return '\\' + String.fromCharCode(r);
  if (asciiOnly ? r < 0x80 && isPrintRune(r) : isPrintRune(r)) return String.fromCodePoint(r);
  switch (r) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + r.toString(16).padStart(2, '0');
  if (r >= 0xdc80 && r <= 0xdcff) return '\\x' + (r - 0xdc00).toString(16).padStart(2, '0'); // a raw byte
  if (r >= 0xd800 && r <= 0xdfff) return '\\ufffd';
  if (r < 0x10000) return '\\u' + r.toString(16).padStart(4, '0');
  return '\\U' + r.toString(16).padStart(8, '0');
}

/** strconv.Quote (or QuoteToASCII). */
export function goQuote(s: string, asciiOnly = false): string {
  let out = '"';
  let i = 0;
  // Runs of printable ASCII other than `"` and `\\` are written as they are (strconv does the same):
  // copied whole, so quoting a long text is not a string concatenation per character.
  for (NEEDS_QUOTING.lastIndex = 0; ;) {
    const m = NEEDS_QUOTING.exec(s);
    const at = m ? m.index : s.length;
    if (at > i) out += s.slice(i, at);
    if (!m) break;
    const r = s.codePointAt(at)!;
    out += quoteRuneInto(r, 0x22, asciiOnly);
    i = at + (r > 0xffff ? 2 : 1);
    NEEDS_QUOTING.lastIndex = i;
  }
  return out + '"';
}
/** A character goQuote escapes or looks at as a rune: anything but printable ASCII, and `"` and `\\`. */
const NEEDS_QUOTING = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/g;

/** strconv.QuoteRune */
export function goQuoteRune(r: number, asciiOnly = false): string {
  if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff) || r < 0) r = 0xfffd;
  return "'" + quoteRuneInto(r, 0x27, asciiOnly) + "'";
}

function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff)) n++;
  }
  return n;
}

/** A Go time.Time's String(): `2006-01-02 15:04:05.999999999 -0700 MST`. */
export function formatGoTime(t: GoTime): string {
  const s = formatTime(t, '2006-01-02 15:04:05.999999999 -0700 MST', zoneOf(t));
  return t.mono === undefined ? s : `${s} m=${t.mono < 0 ? '-' : '+'}${Math.abs(t.mono).toFixed(9)}`;
}

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  plusV: boolean;
  sharpV: boolean;
  wid: number;
  widPresent: boolean;
  prec: number;
  precPresent: boolean;
}

function clearFlags(): Flags {
  return {
    plus: false,
    minus: false,
    sharp: false,
    space: false,
    zero: false,
    plusV: false,
    sharpV: false,
    wid: 0,
    widPresent: false,
    prec: 0,
    precPresent: false,
  };
}

/** One Sprintf/Sprint run (Go's pp). */
class Printer {
  buf = '';
  f: Flags = clearFlags();
  erroring = false;

  pad(s: string): void {
    const f = this.f;
    if (!f.widPresent || f.wid === 0) {
      this.buf += s;
      return;
    }
    const width = f.wid - runeCount(s);
    if (width <= 0) {
      this.buf += s;
      return;
    }
    // The padding, before it is made: Go allows widths up to 1,000,000, and a format may hold many.
    if (this.buf.length + width + s.length > valueLimits.string) throw valueLimitError('string', this.buf.length + width + s.length, true);
    charge(0, width);
    if (f.minus) this.buf += s + ' '.repeat(width);
    else this.buf += (f.zero ? '0' : ' ').repeat(width) + s;
  }

  truncate(s: string): string {
    const f = this.f;
    if (f.precPresent) {
      let n = 0;
      let i = 0;
      for (const ch of s) {
        if (n >= f.prec) return s.slice(0, i);
        n++;
        i += ch.length;
      }
    }
    return s;
  }

  fmtBool(v: boolean, verb: string): void {
    if (verb === 't' || verb === 'v') this.pad(v ? 'true' : 'false');
    else this.badVerb(verb, v);
  }

  fmtInteger(v: bigint, verb: string, orig: GoValue): void {
    const f = this.f;
    switch (verb) {
      case 'v':
      case 'd':
        return this.fmtIntBase(v, 10, verb, false);
      case 'b':
        return this.fmtIntBase(v, 2, verb, false);
      case 'o':
      case 'O':
        return this.fmtIntBase(v, 8, verb, false);
      case 'x':
        return this.fmtIntBase(v, 16, verb, false);
      case 'X':
        return this.fmtIntBase(v, 16, verb, true);
      case 'c':
        return this.pad(this.truncate(String.fromCodePoint(validRune(v))));
      case 'q':
        return this.pad(goQuoteRune(validRune(v), f.plus));
      case 'U': {
        const r = v < 0n ? v + (1n << 64n) : v;
        let s =
          'U+' +
          r
            .toString(16)
            .toUpperCase()
            .padStart(f.precPresent ? Math.max(f.prec, 4) : 4, '0');
        if (f.sharp && r <= 0x10ffffn && isPrintRune(Number(r))) s += " '" + String.fromCodePoint(Number(r)) + "'";
        return this.pad(s);
      }
    }
    this.badVerb(verb, orig);
  }

  fmtIntBase(v: bigint, base: number, verb: string, upper: boolean): void {
    const f = this.f;
    const neg = v < 0n;
    let digits = (neg ? -v : v).toString(base);
    if (upper) digits = digits.toUpperCase();
    if (f.precPresent) {
      if (f.prec === 0 && v === 0n) {
        const save = f.zero;
        f.zero = false;
        this.pad('');
        f.zero = save;
        return;
      }
      if (digits.length < f.prec) digits = '0'.repeat(f.prec - digits.length) + digits;
    } else if (f.zero && f.widPresent && !f.minus) {
      let w = f.wid;
      if (neg || f.plus || f.space) w--;
      if (digits.length < w) digits = '0'.repeat(w - digits.length) + digits;
    }
    if (f.sharp) {
      if (base === 2) digits = '0b' + digits;
      else if (base === 8 && digits[0] !== '0') digits = '0' + digits;
      else if (base === 16) digits = (upper ? '0X' : '0x') + digits;
    }
    if (verb === 'O') digits = '0o' + digits;
    if (neg) digits = '-' + digits;
    else if (f.plus) digits = '+' + digits;
    else if (f.space) digits = ' ' + digits;
    const save = f.zero;
    f.zero = false; // zero padding was applied above, like a precision
    this.pad(digits);
    f.zero = save;
  }

  fmtFloat(v: number, verb: string): void {
    switch (verb) {
      case 'v':
        return this.fmtFloatCore(v, 'g', -1);
      case 'g':
      case 'G':
        return this.fmtFloatCore(v, verb, -1);
      case 'f':
      case 'F':
      case 'e':
      case 'E':
        return this.fmtFloatCore(v, verb, 6);
      case 'x':
      case 'X':
      case 'b':
        return this.pad(floatHexOrBinary(v, verb));
    }
    this.badVerb(verb, v);
  }

  fmtFloatCore(v: number, verb: 'e' | 'E' | 'f' | 'F' | 'g' | 'G', prec: number): void {
    const f = this.f;
    if (f.precPresent) prec = f.prec;
    let num = formatFloat(v, verb, prec);
    if (num[0] !== '-' && num[0] !== '+') num = '+' + num;
    if (f.space && num[0] === '+' && !f.plus) num = ' ' + num.slice(1);
    if (num[1] === 'I' || num[1] === 'N') {
      const save = f.zero;
      f.zero = false;
      if (num[1] === 'N' && !f.space && !f.plus) num = num.slice(1);
      this.pad(num);
      f.zero = save;
      return;
    }
    const vb: string = verb;
    if (f.sharp && vb !== 'b') {
      // %#g keeps trailing zeros and always prints a decimal point.
      let digits = 0;
      if (vb === 'g' || vb === 'G' || vb === 'v') {
        digits = prec;
        if (digits === -1) digits = 6;
      }
      let body = num;
      let tail = '';
      const ei = body.search(/[eE]/);
      if (ei >= 0) {
        tail = body.slice(ei);
        body = body.slice(0, ei);
      }
      let sawNonzero = false;
      let hasPoint = false;
      for (let i = 1; i < body.length; i++) {
        const c = body[i];
        if (c === '.') hasPoint = true;
        else if (c >= '0' && c <= '9') {
          if (c !== '0') sawNonzero = true;
          if (sawNonzero) digits--;
        }
      }
      if (!hasPoint) {
        if (body.length === 2 && body[1] === '0') digits--;
        body += '.';
      }
      if (verb === 'g' || verb === 'G') while (digits-- > 0) body += '0';
      num = body + tail;
    }
    if (f.plus || num[0] !== '+') {
      if (f.zero && !f.minus && f.widPresent && f.wid > num.length) {
        this.buf += num[0];
        const save = f.wid;
        f.wid--;
        const z = f.zero;
        this.pad(num.slice(1));
        f.wid = save;
        f.zero = z;
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  fmtString(s: string, verb: string): void {
    const f = this.f;
    switch (verb) {
      case 'v':
        if (f.sharpV) return this.pad(goQuote(s));
        return this.pad(this.truncate(s));
      case 's':
        return this.pad(this.truncate(s));
      case 'x':
      case 'X':
        return this.pad(hexString(this.truncate(s), verb === 'X', f));
      case 'q': {
        const t = this.truncate(s);
        if (f.sharp && !t.includes('`') && [...t].every((c) => c === '\t' || isPrintRune(c.codePointAt(0)!)))
          return this.pad('`' + t + '`');
        return this.pad(goQuote(t, f.plus));
      }
    }
    this.badVerb(verb, s);
  }

  badVerb(verb: string, v: GoValue | undefined): void {
    this.erroring = true;
    this.buf += '%!' + verb + '(';
    if (v === null || v === undefined) this.buf += '<nil>';
    else {
      this.buf += goTypeName(v) + '=';
      this.printArg(v, 'v'); // with the verb's width, precision and flags, as fmt does
    }
    this.buf += ')';
    this.erroring = false;
  }

  /** An argument of Sprintf under its verb: %v takes # and + as Go syntax and field names; %w is Errorf's alone. */
  printVerb(arg: GoValue | undefined, verb: string): void {
    if (verb === 'v') {
      this.f.sharpV = this.f.sharp;
      this.f.sharp = false;
      this.f.plusV = this.f.plus;
      this.f.plus = false;
    }
    if (verb === 'w') this.badVerb('w', arg);
    else this.printArg(arg, verb);
  }

  printArg(arg: GoValue | undefined, verb: string): void {
    if (arg === null || arg === undefined) {
      if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(verb, arg);
      return;
    }
    if (verb === 'T') return this.pad(this.truncate(goTypeName(arg)));
    if (verb === 'p') return this.badVerb(verb, arg);
    this.printValue(arg, verb, 0);
  }

  printValue(v: GoValue | undefined, verb: string, depth: number): void {
    charge(1, typeof v === 'string' ? v.length : 0); // shared values count once per time printed
    if (v === undefined || v === null) {
      // A nil interface inside a container prints as <nil> whatever the verb.
      if (depth === 0) this.printArg(v, verb);
      else if (this.f.sharpV) this.buf += 'interface {}(nil)';
      else this.buf += '<nil>';
      return;
    }
    switch (typeof v) {
      case 'string':
        return this.fmtString(v, verb);
      case 'number':
        return this.fmtFloat(v, verb);
      case 'boolean':
        return this.fmtBool(v, verb);
      case 'bigint':
        return this.fmtInteger(BigInt.asIntN(64, v), verb, v);
    }
    if (v instanceof GoInt64) return this.fmtInteger(v.v, verb, v);
    if (Array.isArray(v)) {
      const goSyntax = this.f.sharpV; // %#v: []interface {}{a, b}; else [a b]
      this.buf += goSyntax ? '[]interface {}{' : '[';
      v.forEach((x, i) => {
        if (i > 0) this.buf += goSyntax ? ', ' : ' ';
        this.printValue(x, verb, depth + 1);
      });
      this.buf += goSyntax ? '}' : ']';
      return;
    }
    if (v instanceof GoMap || v instanceof GoStringMap) {
      const keys = sortedKeys(v as Map<string, unknown>);
      this.buf += this.f.sharpV ? goTypeName(v) + '{' : 'map[';
      keys.forEach((k, i) => {
        if (i > 0) this.buf += this.f.sharpV ? ', ' : ' ';
        this.printValue(k, verb, depth + 1);
        this.buf += ':';
        this.printValue((v as Map<string, GoValue>).get(k) ?? null, verb, depth + 1);
      });
      this.buf += this.f.sharpV ? '}' : ']';
      return;
    }
    // %#v prints Go syntax where the type says how (unsigned integers in hex, a struct's fields).
    if (verb === 'v' && this.f.sharpV && v instanceof GoOther && v.ext.goSyntax) return this.pad(v.ext.goSyntax());
    const u = unsignedOf(v);
    if (u !== undefined) return this.fmtInteger(u, verb, v);
    // Stringers: time.Time and the other named types print through their String method.
    const text = v instanceof GoTime ? formatGoTime(v) : (v as GoOther).print();
    if (verb === 'v' || verb === 's' || verb === 'x' || verb === 'X' || verb === 'q')
      return this.fmtString(text, verb === 'v' && this.f.sharpV ? 's' : verb);
    this.badVerb(verb, v);
  }
}

function validRune(v: bigint): number {
  if (v < 0n || v > 0x10ffffn || (v >= 0xd800n && v <= 0xdfffn)) return 0xfffd;
  return Number(v);
}

function hexString(s: string, upper: boolean, f: Flags): string {
  const bytes = utf8Bytes(s);
  const parts: string[] = [];
  for (const b of bytes) {
    let h = b.toString(16).padStart(2, '0');
    if (upper) h = h.toUpperCase();
    if (f.space && f.sharp) h = (upper ? '0X' : '0x') + h;
    parts.push(h);
  }
  let out = parts.join(f.space ? ' ' : '');
  if (f.sharp && !f.space && bytes.length > 0) out = (upper ? '0X' : '0x') + out;
  return out;
}

/** %x / %b of a float64 (hexadecimal mantissa and binary exponent). */
function floatHexOrBinary(x: number, verb: string): string {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const neg = hi >>> 31 === 1;
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (verb === 'b') {
    let e = bexp - 1075;
    if (bexp === 0) e = -1074;
    else mant |= 1n << 52n;
    return (neg ? '-' : '') + mant.toString() + 'p' + (e >= 0 ? '+' : '') + e;
  }
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return (neg ? '-' : '') + (verb === 'X' ? '0X0P+00' : '0x0p+00');
  let e = bexp - 1023;
  if (bexp === 0) {
    // normalise subnormals
    e = -1022;
    while ((mant & (1n << 52n)) === 0n) {
      mant <<= 1n;
      e--;
    }
  } else mant |= 1n << 52n;
  const frac = (mant & ((1n << 52n) - 1n)).toString(16).padStart(13, '0').replace(/0+$/, '');
  let s = '0x1' + (frac ? '.' + frac : '') + 'p' + (e >= 0 ? '+' : '-') + String(Math.abs(e)).padStart(2, '0');
  if (verb === 'X') s = s.toUpperCase();
  return (neg ? '-' : '') + s;
}

/** fmt.Sprint(v) of one value: what `{{ v }}` prints. */
export function formatValue(v: GoValue | undefined): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '<no value>';
  const p = new Printer();
  p.printArg(v, 'v');
  return p.buf;
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: (GoValue | undefined)[]): string {
  const p = new Printer();
  let prevString = false;
  args.forEach((a, i) => {
    const isString = typeof a === 'string';
    if (i > 0 && !isString && !prevString) p.buf += ' ';
    p.f = clearFlags();
    p.printArg(a, 'v');
    prevString = isString;
  });
  return p.buf;
}

/** fmt.Sprintln: always spaces, trailing newline. */
export function sprintln(args: (GoValue | undefined)[]): string {
  const p = new Printer();
  args.forEach((a, i) => {
    if (i > 0) p.buf += ' ';
    p.f = clearFlags();
    p.printArg(a, 'v');
  });
  return p.buf + '\n';
}

function parseNum(s: string, i: number, end: number): [number, boolean, number] {
  if (i >= end) return [0, false, end];
  let num = 0;
  let isnum = false;
  while (i < end && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
    if (num > 1e6) return [0, false, end]; // Go's tooLarge guard
    num = num * 10 + (s.charCodeAt(i) - 48);
    isnum = true;
    i++;
  }
  return [num, isnum, i];
}

function intFromArg(a: (GoValue | undefined)[], argNum: number): [number, boolean, number] {
  if (argNum < a.length) {
    const v = a[argNum];
    let n: number | undefined;
    if (typeof v === 'bigint') n = Number(v);
    else if (v instanceof GoInt64) n = Number(v.v);
    else if (unsignedOf(v) !== undefined) n = Number(unsignedOf(v)!);
    argNum++;
    if (n !== undefined && Math.abs(n) <= 1e6) return [n, true, argNum];
    return [0, false, argNum];
  }
  return [0, false, argNum];
}

/** The flags of a directive from `i` (`#0+- `) set in `f`: the index of the first character after them. */
function readFlags(format: string, i: number, end: number, f: Flags): number {
  for (; i < end; i++) {
    switch (format[i]) {
      case '#':
        f.sharp = true;
        break;
      case '0':
        f.zero = !f.minus;
        break;
      case '+':
        f.plus = true;
        break;
      case '-':
        f.minus = true;
        f.zero = false;
        break;
      case ' ':
        f.space = true;
        break;
      default:
        return i;
    }
  }
  return i;
}

/** Arguments no verb used, as Go lists them: `%!(EXTRA type=value, …)`. */
function printExtra(p: Printer, extra: (GoValue | undefined)[]): void {
  p.f = clearFlags();
  p.buf += '%!(EXTRA ';
  extra.forEach((arg, k) => {
    if (k > 0) p.buf += ', ';
    if (arg === null || arg === undefined) p.buf += '<nil>';
    else {
      p.buf += goTypeName(arg) + '=';
      p.printArg(arg, 'v');
    }
  });
  p.buf += ')';
}

/** fmt.Sprintf with Go's verbs and error forms. */
export function sprintf(format: string, a: (GoValue | undefined)[]): string {
  const p = new Printer();
  const end = format.length;
  let argNum = 0;
  let afterIndex = false;
  let reordered = false;
  let goodArgNum = true;

  const argNumber = (i: number): number => {
    if (i >= end || format[i] !== '[') return i;
    reordered = true;
    const close = format.indexOf(']', i + 1);
    if (close < 0) {
      goodArgNum = false;
      return i + 1 < end ? end : i; // Go: unterminated index consumes the rest
    }
    const txt = format.slice(i + 1, close);
    const n = /^[0-9]+$/.test(txt) ? Number(txt) : NaN;
    if (Number.isInteger(n) && n - 1 >= 0 && n - 1 < a.length) {
      argNum = n - 1;
      afterIndex = true;
    } else goodArgNum = false;
    return close + 1;
  };

  let i = 0;
  while (i < end) {
    goodArgNum = true;
    const lasti = i;
    while (i < end && format[i] !== '%') i++;
    if (i > lasti) p.buf += format.slice(lasti, i);
    if (i >= end) break;
    i++;
    p.f = clearFlags();
    const f = p.f;
    i = readFlags(format, i, end, f);
    // A simple verb right after the flags (the common case): printed at once.
    if (i < end && format[i] >= 'a' && format[i] <= 'z' && argNum < a.length) {
      p.printVerb(a[argNum], format[i]);
      argNum++;
      i++;
      continue;
    }
    afterIndex = false;
    i = argNumber(i);
    if (i < end && format[i] === '*') {
      i++;
      [f.wid, f.widPresent, argNum] = intFromArg(a, argNum);
      if (!f.widPresent) p.buf += '%!(BADWIDTH)';
      if (f.wid < 0) {
        f.wid = -f.wid;
        f.minus = true;
        f.zero = false;
      }
      afterIndex = false;
    } else {
      [f.wid, f.widPresent, i] = parseNum(format, i, end);
      if (afterIndex && f.widPresent) goodArgNum = false;
    }
    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) goodArgNum = false;
      afterIndex = false;
      i = argNumber(i);
      if (i < end && format[i] === '*') {
        i++;
        [f.prec, f.precPresent, argNum] = intFromArg(a, argNum);
        if (f.prec < 0) {
          f.prec = 0;
          f.precPresent = false;
        }
        if (!f.precPresent) p.buf += '%!(BADPREC)';
        afterIndex = false;
      } else {
        [f.prec, f.precPresent, i] = parseNum(format, i, end);
        if (!f.precPresent) {
          f.prec = 0;
          f.precPresent = true;
        }
      }
    }
    if (!afterIndex) i = argNumber(i);
    if (i >= end) {
      p.buf += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') p.buf += '%';
    else if (!goodArgNum) p.buf += '%!' + verb + '(BADINDEX)';
    else if (argNum >= a.length) p.buf += '%!' + verb + '(MISSING)';
    else {
      p.printVerb(a[argNum], verb);
      argNum++;
    }
  }
  if (!reordered && argNum < a.length) printExtra(p, a.slice(argNum));
  return p.buf;
}
