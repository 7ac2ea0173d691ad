/**
 * Sprig's string functions (Masterminds/sprig v3 `strings.go`, `functions.go`), with Go string
 * semantics: lengths and cuts in bytes, per-rune case mapping (Go's unicode.ToUpper keeps `ß`).
 */
import { type FuncMap, type GoFunc, funcMap, goFunc as S } from '../funcs';
import { goQuote, formatValue } from '../format';
import { byteLength, goString, GoStringMap, utf8Bytes, type GoValue } from '../values';
import { strval, toInt64 } from './cast';
import { toLowerCaseWords, toPascalCase } from './xstrings';
import { chargeBuild, valueLimitError, valueLimits } from '../budget';
import { goToLower, goToTitle, goToUpper, isGoLower, isGoSpace, isGoTitle, isGoUpper } from './unicase';

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
export const goUpper = (s: string) => mapRunes(s, goToUpper);
export const goLower = (s: string) => mapRunes(s, goToLower);

/** strings.Title: upper-case the first letter of each word; words are separated by non-letters. */
export function goTitle(s: string): string {
  let prev = ' ';
  let out = '';
  for (const r of s) {
    out += isSeparator(prev) ? mapRunes(r, goToTitle) : r;
    prev = r;
  }
  return out;
}
function isSeparator(r: string): boolean {
  const c = r.codePointAt(0)!;
  if (c <= 0x7f) return !/[A-Za-z0-9_]/.test(r);
  if (/[\p{L}\p{Nd}]/u.test(r)) return false;
  return isGoSpace(r);
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

/**
 * goutils.WrapCustom: byte offsets over the whole string (a newline in the input is an ordinary
 * character), breaking at the last space within the width; a longer word is cut (wrapWith) or kept
 * whole up to the next space (wrap).
 */
function wrapText(str: string, width: number, nl: string, wrapLongWords: boolean): string {
  if (str === '') return '';
  if (nl === '') nl = '\n';
  if (width < 1) width = 1;
  const b = utf8Bytes(str),
    sep = utf8Bytes(nl);
  // The lines as [start, end) offsets into `b`, each followed by the separator but the last; what they
  // add up to is checked as they are cut, so a narrow width over a long text stops at the value limit.
  const lines: number[] = [];
  let size = 0;
  const cut = (from: number, to: number): void => {
    size += to - from + sep.length;
    if (size > valueLimits.string) throw valueLimitError('string', size, true);
    lines.push(from, to);
  };
  let offset = 0;
  while (b.length - offset > width) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    let space = Math.min(width + offset, b.length - 1);
    while (space >= offset && b[space] !== 0x20) space--;
    if (space >= offset) {
      cut(offset, space);
      offset = space + 1;
    } else if (wrapLongWords) {
      cut(offset, offset + width);
      offset += width;
    } else {
      const end = width + offset;
      const index = b.indexOf(0x20, end);
      if (index === -1) break;
      cut(offset, index);
      offset = index + 1;
    }
  }
  chargeBuild('string', size + b.length - offset);
  const out = Buffer.allocUnsafe(size + b.length - offset);
  let at = 0;
  for (let i = 0; i < lines.length; i += 2) {
    at += b.copy(out, at, lines[i], lines[i + 1]);
    at += sep.copy(out, at);
  }
  b.copy(out, at, offset);
  return goString(out);
}

/** goutils.AbbreviateFull, which counts and cuts bytes (a cut inside a character leaves raw bytes). */
function abbreviate(str: string, offset: number, max: number): string {
  if (str === '' || max < 4) return str;
  const b = utf8Bytes(str);
  const len = b.length;
  if (len <= max) return str;
  if (offset > len) offset = len;
  if (len - offset < max - 3) offset = len - (max - 3);
  if (offset <= 4) return goString(b.subarray(0, max - 3)) + '...';
  if (max < 7) return '';
  if (offset + max - 3 < len) return '...' + abbreviate(goString(b.subarray(offset)), 0, max - 3);
  return '...' + goString(b.subarray(len - (max - 3)));
}

/** Sprig's string functions, in sprig's order (later libraries override by name). */
export function stringFuncs(): FuncMap {
  return funcMap({
    ...caseFuncs(),
    ...cutFuncs(),
    ...trimFuncs(),
    ...shortenFuncs(),
    ...containsFuncs(),
    ...quoteFuncs(),
    ...layoutFuncs(),
    ...convertFuncs(),
    ...wordCaseFuncs(),
    ...sequenceFuncs(),
  });
}

/** Case by rune, as Go maps it: upper, lower, title, untitle. */
function caseFuncs(): Record<string, GoFunc> {
  return {
    upper: S((s: string) => goUpper(s), ['string']),
    lower: S((s: string) => goLower(s), ['string']),
    title: S((s: string) => goTitle(s), ['string']),
    // goutils.Uncapitalize: lower-case the first rune of each space-separated word.
    untitle: S(
      (s: string) => {
        let out = '';
        let start = true;
        for (const r of s) {
          if (isGoSpace(r)) {
            start = true;
            out += r;
          } else {
            out += start ? goToLower(r) : r;
            start = false;
          }
        }
        return out;
      },
      ['string'],
    ),
  };
}

/** Cuts in bytes, as Go slices strings: substr, repeat, trunc. */
function cutFuncs(): Record<string, GoFunc> {
  return {
    // sprig's substring slices the bytes as Go does, so out-of-range cuts panic with Go's texts.
    substr: S(
      (start: bigint, end: bigint, s: string) => {
        const st = Number(start),
          en = Number(end),
          len = byteLen(s);
        const oob = (m: string) => new Error(`runtime error: slice bounds out of range ${m}`);
        if (st < 0) {
          if (en < 0) throw oob(`[:${en}]`);
          if (en > len) throw oob(`[:${en}] with length ${len}`);
          return bytesSlice(s, 0, en);
        }
        if (en < 0 || en > len) {
          if (st > len) throw oob(`[${st}:${len}]`);
          return bytesSlice(s, st);
        }
        if (st > en) throw oob(`[${st}:${en}]`);
        return bytesSlice(s, st, en);
      },
      ['int', 'int', 'string'],
    ),
    repeat: S(
      (n: bigint, s: string) => {
        if (n < 0n) throw new Error('strings: negative Repeat count');
        chargeBuild('string', s.length * Number(n)); // before building: the size is known
        return s.repeat(Number(n));
      },
      ['int', 'string'],
    ),
    trunc: S(
      (c: bigint, s: string) => {
        const n = Number(c),
          len = byteLen(s);
        if (n < 0 && len + n > 0) return bytesSlice(s, len + n);
        if (n >= 0 && len > n) return bytesSlice(s, 0, n);
        return s;
      },
      ['int', 'string'],
    ),
  };
}

/** Trimming and removing: trim, trimAll, trimSuffix, trimPrefix, nospace, initials. */
function trimFuncs(): Record<string, GoFunc> {
  return {
    trim: S(
      (s: string) => {
        const r = [...s];
        let a = 0,
          b = r.length;
        while (a < b && isGoSpace(r[a])) a++;
        while (b > a && isGoSpace(r[b - 1])) b--;
        return r.slice(a, b).join('');
      },
      ['string'],
    ),
    trimAll: S(
      (cut: string, s: string) => {
        const cs = new Set([...cut]);
        const r = [...s];
        let a = 0,
          b = r.length;
        while (a < b && cs.has(r[a])) a++;
        while (b > a && cs.has(r[b - 1])) b--;
        return r.slice(a, b).join('');
      },
      ['string', 'string'],
    ),
    trimSuffix: S((suf: string, s: string) => (suf && s.endsWith(suf) ? s.slice(0, s.length - suf.length) : s), ['string', 'string']),
    trimPrefix: S((pre: string, s: string) => (pre && s.startsWith(pre) ? s.slice(pre.length) : s), ['string', 'string']),
    nospace: S((s: string) => latin1Bytewise(s, 'nospace'), ['string']),
    initials: S((s: string) => latin1Bytewise(s, 'initials'), ['string']),
  };
}

/** Abbreviating and wrapping (goutils): abbrev, abbrevboth, wrap, wrapWith. */
function shortenFuncs(): Record<string, GoFunc> {
  return {
    abbrev: S((w: bigint, s: string) => (w < 4n ? s : abbreviate(s, 0, Number(w))), ['int', 'string']),
    abbrevboth: S(
      (l: bigint, r: bigint, s: string) => (r < 4n || (l > 0n && r < 7n) ? s : abbreviate(s, Number(l), Number(r))),
      ['int', 'int', 'string'],
    ),
    wrap: S((w: bigint, s: string) => wrapText(s, Number(w), '', false), ['int', 'string']),
    wrapWith: S((w: bigint, nl: string, s: string) => wrapText(s, Number(w), nl, true), ['int', 'string', 'string']),
  };
}

/** contains, hasPrefix, hasSuffix. */
function containsFuncs(): Record<string, GoFunc> {
  return {
    contains: S((sub: string, s: string) => s.includes(sub), ['string', 'string']),
    hasPrefix: S((p: string, s: string) => s.startsWith(p), ['string', 'string']),
    hasSuffix: S((p: string, s: string) => s.endsWith(p), ['string', 'string']),
  };
}

/** Joining arguments: quote, squote, cat. */
function quoteFuncs(): Record<string, GoFunc> {
  return {
    quote: S(
      (...xs: GoValue[]) =>
        chargedJoin(
          xs.filter((x) => x !== null && x !== undefined).map((x) => goQuote(strval(x))),
          ' ',
        ),
      [],
      'any',
    ),
    squote: S(
      (...xs: GoValue[]) =>
        chargedJoin(
          xs.filter((x) => x !== null && x !== undefined).map((x) => `'${strval(x)}'`),
          ' ',
        ),
      [],
      'any',
    ),
    cat: S(
      (...xs: GoValue[]) =>
        chargedJoin(
          xs.filter((x) => x !== null && x !== undefined).map((x) => formatValue(x)),
          ' ',
        ),
      [],
      'any',
    ),
  };
}

/** indent, nindent, replace, plural. */
function layoutFuncs(): Record<string, GoFunc> {
  return {
    indent: S(
      (n: bigint, s: string) => {
        const pad = spaces(n, s);
        return pad + s.replace(/\n/g, '\n' + pad);
      },
      ['int', 'string'],
    ),
    nindent: S(
      (n: bigint, s: string) => {
        const pad = spaces(n, s);
        return '\n' + pad + s.replace(/\n/g, '\n' + pad);
      },
      ['int', 'string'],
    ),
    replace: S(
      (o: string, n: string, s: string) => {
        // Before building: every match of `o` becomes `n` (an empty `o` matches around every character).
        const matches = o === '' ? pieces(s, '') + 1 : occurrences(s, o);
        chargeBuild('string', s.length + matches * (n.length - o.length));
        return o === '' ? [...s].map((c) => n + c).join('') + n : s.split(o).join(n);
      },
      ['string', 'string', 'string'],
    ),
    plural: S((one: string, many: string, c: bigint) => (c === 1n ? one : many), ['string', 'string', 'int']),
  };
}

/** Conversions, splitting and joining: toString, toStrings, join, split, splitList, splitn, sortAlpha, atoi. */
function convertFuncs(): Record<string, GoFunc> {
  return {
    toString: S((v: GoValue) => strval(v), ['any']),
    toStrings: S((v: GoValue) => strslice(v), ['any']),
    join: S((sep: string, v: GoValue) => chargedJoin(strslice(v), sep), ['string', 'any']),
    // The pieces are counted, and charged, before they are built.
    split: S(
      (sep: string, s: string) => {
        chargeBuild('map', pieces(s, sep));
        return new GoStringMap(splitGo(s, sep).map((p, i) => [`_${i}`, p]));
      },
      ['string', 'string'],
    ),
    splitList: S(
      (sep: string, s: string) => {
        chargeBuild('list', pieces(s, sep));
        return splitGo(s, sep);
      },
      ['string', 'string'],
    ),
    splitn: S(
      (sep: string, n: bigint, s: string) => {
        chargeBuild('map', pieces(s, sep, Number(n)));
        return new GoStringMap(splitGo(s, sep, Number(n)).map((p, i) => [`_${i}`, p]));
      },
      ['string', 'int', 'string'],
    ),
    sortAlpha: S(
      (v: GoValue) => {
        const a = Array.isArray(v) ? strslice(v) : [strval(v)];
        return a.sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      },
      ['any'],
    ),
    atoi: S(
      (s: string) => {
        const t = /^[+-]?\d+$/.test(s) ? BigInt(s) : 0n;
        return t > 9223372036854775807n || t < -9223372036854775808n ? 0n : t;
      },
      ['string'],
    ),
  };
}

/** Case by word: swapcase, snakecase, kebabcase, camelcase. */
function wordCaseFuncs(): Record<string, GoFunc> {
  return {
    // goutils.SwapCase: upper/title -> lower; lower -> title after a space (or at the start), else upper.
    swapcase: S(
      (s: string) => {
        let out = '';
        let space = true;
        for (const r of s) {
          if (isGoUpper(r) || isGoTitle(r)) {
            out += goToLower(r);
            space = false;
          } else if (isGoLower(r)) {
            out += space ? goToTitle(r) : goToUpper(r);
            space = false;
          } else {
            out += r;
            space = isGoSpace(r);
          }
        }
        return out;
      },
      ['string'],
    ),
    snakecase: S((s: string) => toLowerCaseWords(s, '_'), ['string']),
    kebabcase: S((s: string) => toLowerCaseWords(s, '-'), ['string']),
    camelcase: S((s: string) => toPascalCase(s), ['string']),
  };
}

/** Number sequences: seq, until, untilStep. */
function sequenceFuncs(): Record<string, GoFunc> {
  return {
    seq: S((...xs: GoValue[]) => seq(xs.map((x) => Number(toInt64(x)))), [], 'int'),
    until: S((n: bigint) => range(0n, n, n < 0n ? -1n : 1n), ['int']),
    untilStep: S((a: bigint, b: bigint, st: bigint) => range(a, b, st), ['int', 'int', 'int']),
  };
}

/**
 * The padding of indent and nindent, with strings.Repeat's check; the result (`s` with the padding
 * before each of its lines) is charged before anything is built.
 */
function spaces(n: bigint, s: string): string {
  if (n < 0n) throw new Error('strings: negative Repeat count');
  chargeBuild('string', s.length + (occurrences(s, '\n') + 1) * Number(n));
  return ' '.repeat(Number(n));
}

/** How often `sep` (not empty) occurs in `s`, counted without building anything. */
function occurrences(s: string, sep: string): number {
  let n = 0;
  for (let i = s.indexOf(sep); i >= 0; i = s.indexOf(sep, i + sep.length)) n++;
  return n;
}

/** The pieces splitGo(s, sep, n) returns, counted without building them. */
function pieces(s: string, sep: string, n = -1): number {
  if (n === 0) return 0;
  let count = 0;
  if (sep === '') for (const _ of s) count++;
  else count = occurrences(s, sep) + 1;
  return n < 0 ? count : Math.min(count, n);
}

/** `parts` joined by `sep`, charged before the join builds it. */
export function chargedJoin(parts: string[], sep: string): string {
  let size = parts.length > 1 ? sep.length * (parts.length - 1) : 0;
  for (const p of parts) size += p.length;
  chargeBuild('string', size);
  return parts.join(sep);
}

function range(a: bigint, b: bigint, step: bigint): bigint[] {
  const out: bigint[] = [];
  if (step === 0n) return out;
  if ((step > 0n && a >= b) || (step < 0n && a <= b)) return out;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  chargeBuild('list', Number((abs(b - a) + abs(step) - 1n) / abs(step))); // the elements, before they are made
  for (let i = a; step > 0n ? i < b : i > b; i += step) out.push(i);
  return out;
}

function seq(p: number[]): string {
  let start = 1,
    end = 0,
    step = 1;
  if (p.length === 0) return '';
  if (p.length === 1) end = p[0];
  else if (p.length === 2) [start, end] = p;
  else if (p.length === 3) [start, step, end] = p;
  else return '';
  if (end < start && p.length < 3) step = -1;
  if (step === 0 || (end > start && step < 0) || (end < start && step > 0)) return '';
  // The whole sequence, as sprig writes it; its length is bounded before it is built (every number
  // at most as long as the longer end, and a space), so a long one is said, never cut.
  const count = Math.floor((end - start) / step) + 1;
  chargeBuild('string', count * (Math.max(String(start).length, String(end).length) + 1));
  const out: number[] = [];
  for (let i = start; step > 0 ? i <= end : i >= end; i += step) out.push(i);
  return out.join(' ');
}
