/**
 * Sprig's string functions (Masterminds/sprig v3 `strings.go`, `functions.go`), with Go string
 * semantics: lengths and cuts in bytes, per-rune case mapping (Go's unicode.ToUpper keeps `ß`).
 */
import type { FuncMap, GoFunc } from '../funcs';
import { goQuote, formatValue } from '../format';
import { byteLength, goString, GoStringMap, utf8Bytes, type GoValue } from '../values';
import { strval, toInt64 } from './cast';
import { toLowerCaseWords, toPascalCase } from './xstrings';

const S = (impl: (...a: any[]) => GoValue, params: GoFunc['params'], variadic?: GoFunc['variadic']): GoFunc => ({ params, variadic, impl });

/** Byte-level slicing of a Go string (a cut inside a character leaves raw bytes, as in Go). */
export function bytesSlice(s: string, start: number, end?: number): string {
  return goString(utf8Bytes(s).subarray(start, end));
}
export const byteLen = (s: string) => byteLength(s);

/**
 * goutils' DeleteWhiteSpace and Initials walk the string byte by byte and write each byte back as
 * the rune of the same number, so non-ASCII text comes out as Latin-1 mojibake (é → Ã©), and the
 * bytes 0x85 and 0xA0 count as spaces. Kept as Argo CD shows it.
 */
function latin1Bytewise(s: string, mode: 'nospace' | 'initials'): string {
  const bytes = utf8Bytes(s);
  const space = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d) || b === 0x85 || b === 0xa0;
  let out = '';
  let kept = 0;
  let gap = true;
  for (const b of bytes) {
    if (mode === 'nospace') {
      if (!space(b)) {
        out += String.fromCharCode(b);
        kept++;
      }
    } else if (space(b)) gap = true;
    else if (gap) {
      out += String.fromCharCode(b);
      gap = false;
    }
  }
  return mode === 'nospace' && kept === bytes.length ? s : out;
}

/** strings.Map: per rune; an invalid byte becomes U+FFFD (utf8.RuneError written back). */
function mapRunes(s: string, f: (r: string) => string): string {
  let out = '';
  for (const r of s) {
    if (r.length === 1 && r >= '\uDC80' && r <= '\uDCFF') {
      out += '\uFFFD';
      continue;
    }
    const m = f(r);
    out += [...m].length === 1 ? m : r;
  }
  return out;
}
export const goUpper = (s: string) => mapRunes(s, (r) => r.toUpperCase());
export const goLower = (s: string) => mapRunes(s, (r) => r.toLowerCase());

/** strings.Title: upper-case the first letter of each word; words are separated by non-letters. */
export function goTitle(s: string): string {
  let prev = ' ';
  let out = '';
  for (const r of s) {
    out += isSeparator(prev) ? mapRunes(r, (x) => x.toUpperCase()) : r;
    prev = r;
  }
  return out;
}
function isSeparator(r: string): boolean {
  const c = r.codePointAt(0)!;
  if (c <= 0x7f) return !/[A-Za-z0-9_]/.test(r);
  if (/[\p{L}\p{Nd}]/u.test(r)) return false;
  return /\s/u.test(r);
}

export function strslice(v: GoValue | undefined): string[] {
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined).map((x) => strval(x));
  if (v === null || v === undefined) return [];
  return [strval(v)];
}

function splitGo(s: string, sep: string, n = -1): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const runes = [...s];
    if (n < 0 || n >= runes.length) return runes;
    return [...runes.slice(0, n - 1), runes.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function wrapText(s: string, width: number, nl = '\n'): string {
  // goutils.WrapCustom(str, width, newLine, wrapLongWords=false)
  if (width < 1) width = 1;
  const out: string[] = [];
  for (const line of s.split('\n')) {
    let rest = line;
    const lines: string[] = [];
    while ([...rest].length > width) {
      if (rest[0] === ' ') {
        rest = rest.slice(1);
        continue;
      }
      const idx = rest.lastIndexOf(' ', width);
      if (idx > 0) {
        lines.push(rest.slice(0, idx));
        rest = rest.slice(idx + 1);
      } else {
        const next = rest.indexOf(' ', width);
        if (next < 0) break;
        lines.push(rest.slice(0, next));
        rest = rest.slice(next + 1);
      }
    }
    lines.push(rest);
    out.push(lines.join(nl));
  }
  return out.join('\n');
}

function abbreviate(s: string, offset: number, max: number): string {
  // goutils.AbbreviateFull
  if (max < 4) return s;
  const len = [...s].length;
  if (len <= max) return s;
  const r = [...s];
  if (offset > len) offset = len;
  if (len - offset < max - 3) offset = len - (max - 3);
  if (offset <= 4) return r.slice(0, max - 3).join('') + '...';
  if (max < 7) return s;
  if (offset + max - 3 < len) return '...' + abbreviate(r.slice(offset).join(''), 0, max - 3);
  return '...' + r.slice(len - (max - 3)).join('');
}

export function stringFuncs(): FuncMap {
  const m: FuncMap = new Map();
  const set = (n: string, f: GoFunc) => m.set(n, f);
  set('upper', S((s: string) => goUpper(s), ['string']));
  set('lower', S((s: string) => goLower(s), ['string']));
  set('title', S((s: string) => goTitle(s), ['string']));
  set('untitle', S((s: string) => {
    let out = '';
    let start = true;
    for (const r of s) {
      out += start ? mapRunes(r, (x) => x.toLowerCase()) : r;
      start = /\s/u.test(r);
    }
    return out;
  }, ['string']));
  set('substr', S((start: bigint, end: bigint, s: string) => {
    const st = Number(start), en = Number(end), len = byteLen(s);
    if (st < 0) return bytesSlice(s, 0, en);
    if (en < 0 || en > len) return bytesSlice(s, st);
    return bytesSlice(s, st, en);
  }, ['int', 'int', 'string']));
  set('repeat', S((n: bigint, s: string) => {
    if (n < 0n) throw new Error('strings: negative Repeat count');
    if (BigInt(byteLen(s)) * n > 8n * 1024n * 1024n) throw new Error('strings: Repeat output length overflow');
    return s.repeat(Number(n));
  }, ['int', 'string']));
  set('trunc', S((c: bigint, s: string) => {
    const n = Number(c), len = byteLen(s);
    if (n < 0 && len + n > 0) return bytesSlice(s, len + n);
    if (n >= 0 && len > n) return bytesSlice(s, 0, n);
    return s;
  }, ['int', 'string']));
  set('trim', S((s: string) => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, ''), ['string']));
  set('trimAll', S((cut: string, s: string) => {
    const cs = new Set([...cut]);
    const r = [...s];
    let a = 0, b = r.length;
    while (a < b && cs.has(r[a])) a++;
    while (b > a && cs.has(r[b - 1])) b--;
    return r.slice(a, b).join('');
  }, ['string', 'string']));
  set('trimSuffix', S((suf: string, s: string) => (suf && s.endsWith(suf) ? s.slice(0, s.length - suf.length) : s), ['string', 'string']));
  set('trimPrefix', S((pre: string, s: string) => (pre && s.startsWith(pre) ? s.slice(pre.length) : s), ['string', 'string']));
  set('nospace', S((s: string) => latin1Bytewise(s, 'nospace'), ['string']));
  set('initials', S((s: string) => latin1Bytewise(s, 'initials'), ['string']));
  set('abbrev', S((w: bigint, s: string) => abbreviate(s, 0, Number(w)), ['int', 'string']));
  set('abbrevboth', S((l: bigint, r: bigint, s: string) => abbreviate(s, Number(l), Number(r)), ['int', 'int', 'string']));
  set('wrap', S((w: bigint, s: string) => wrapText(s, Number(w)), ['int', 'string']));
  set('wrapWith', S((w: bigint, nl: string, s: string) => wrapText(s, Number(w), nl), ['int', 'string', 'string']));
  set('contains', S((sub: string, s: string) => s.includes(sub), ['string', 'string']));
  set('hasPrefix', S((p: string, s: string) => s.startsWith(p), ['string', 'string']));
  set('hasSuffix', S((p: string, s: string) => s.endsWith(p), ['string', 'string']));
  set('quote', S((...xs: GoValue[]) => xs.filter((x) => x !== null && x !== undefined).map((x) => goQuote(strval(x))).join(' '), [], 'any'));
  set('squote', S((...xs: GoValue[]) => xs.filter((x) => x !== null && x !== undefined).map((x) => `'${strval(x)}'`).join(' '), [], 'any'));
  set('cat', S((...xs: GoValue[]) => xs.filter((x) => x !== null && x !== undefined).map((x) => formatValue(x)).join(' '), [], 'any'));
  set('indent', S((n: bigint, s: string) => {
    const pad = ' '.repeat(Math.max(0, Number(n)));
    return pad + s.replace(/\n/g, '\n' + pad);
  }, ['int', 'string']));
  set('nindent', S((n: bigint, s: string) => {
    const pad = ' '.repeat(Math.max(0, Number(n)));
    return '\n' + pad + s.replace(/\n/g, '\n' + pad);
  }, ['int', 'string']));
  set('replace', S((o: string, n: string, s: string) => (o === '' ? [...s].map((c) => n + c).join('') + n : s.split(o).join(n)), ['string', 'string', 'string']));
  set('plural', S((one: string, many: string, c: bigint) => (c === 1n ? one : many), ['string', 'string', 'int']));
  set('toString', S((v: GoValue) => strval(v), ['any']));
  set('toStrings', S((v: GoValue) => strslice(v), ['any']));
  set('join', S((sep: string, v: GoValue) => strslice(v).join(sep), ['string', 'any']));
  set('split', S((sep: string, s: string) => new GoStringMap(splitGo(s, sep).map((p, i) => [`_${i}`, p])), ['string', 'string']));
  set('splitList', S((sep: string, s: string) => splitGo(s, sep), ['string', 'string']));
  set('splitn', S((sep: string, n: bigint, s: string) => new GoStringMap(splitGo(s, sep, Number(n)).map((p, i) => [`_${i}`, p])), ['string', 'int', 'string']));
  set('sortAlpha', S((v: GoValue) => {
    const a = Array.isArray(v) ? strslice(v) : [strval(v)];
    return a.sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  }, ['any']));
  set('atoi', S((s: string) => {
    const t = /^[+-]?\d+$/.test(s) ? BigInt(s) : 0n;
    return t > 9223372036854775807n || t < -9223372036854775808n ? 0n : t;
  }, ['string']));
  set('swapcase', S((s: string) => mapRunes(s, (r) => (r === r.toUpperCase() ? r.toLowerCase() : r.toUpperCase())), ['string']));
  set('snakecase', S((s: string) => toLowerCaseWords(s, '_'), ['string']));
  set('kebabcase', S((s: string) => toLowerCaseWords(s, '-'), ['string']));
  set('camelcase', S((s: string) => toPascalCase(s), ['string']));
  set('seq', S((...xs: GoValue[]) => seq(xs.map((x) => Number(toInt64(x)))), [], 'int'));
  set('until', S((n: bigint) => range(0n, n, n < 0n ? -1n : 1n), ['int']));
  set('untilStep', S((a: bigint, b: bigint, st: bigint) => range(a, b, st), ['int', 'int', 'int']));
  return m;
}

function range(a: bigint, b: bigint, step: bigint): bigint[] {
  const out: bigint[] = [];
  if (step === 0n) return out;
  if ((step > 0n && a >= b) || (step < 0n && a <= b)) return out;
  for (let i = a; step > 0n ? i < b : i > b; i += step) {
    out.push(i);
    if (out.length > 1_000_000) throw new Error('until: too many elements');
  }
  return out;
}

function seq(p: number[]): string {
  let start = 1, end = 0, step = 1;
  if (p.length === 0) return '';
  if (p.length === 1) end = p[0];
  else if (p.length === 2) [start, end] = p;
  else if (p.length === 3) [start, step, end] = p;
  else return '';
  if (end < start && p.length < 3) step = -1;
  if (step === 0 || (end > start && step < 0) || (end < start && step > 0)) return '';
  const out: number[] = [];
  for (let i = start; step > 0 ? i <= end : i >= end; i += step) {
    out.push(i);
    if (out.length > 1_000_000) break;
  }
  return out.join(' ');
}
