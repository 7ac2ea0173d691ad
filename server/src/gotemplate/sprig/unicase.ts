/**
 * Go's rune case mapping (unicode.ToUpper / ToLower / ToTitle and the Lu/Ll/Lt tests): one rune to
 * one rune, from UnicodeData's simple mappings. JavaScript only offers the full (multi-character)
 * mappings, which agree whenever they produce a single character; the exceptions are listed here.
 */

const isRawByte = (r: string) => r.length === 1 && r >= '\uDC80' && r <= '\uDCFF';
const one = (m: string, r: string) => ([...m].length === 1 ? m : r);

/** Digraphs with a separate title-case form: upper, title, lower. */
const DIGRAPHS: [number, number, number][] = [
  [0x01c4, 0x01c5, 0x01c6],
  [0x01c7, 0x01c8, 0x01c9],
  [0x01ca, 0x01cb, 0x01cc],
  [0x01f1, 0x01f2, 0x01f3],
];

/** Greek letters with ypogegrammeni: their simple upper/title form is one code point. */
function greekIotaUpper(c: number): number | undefined {
  if ((c >= 0x1f80 && c <= 0x1f87) || (c >= 0x1f90 && c <= 0x1f97) || (c >= 0x1fa0 && c <= 0x1fa7)) return c + 8;
  if (c === 0x1fb3) return 0x1fbc;
  if (c === 0x1fc3) return 0x1fcc;
  if (c === 0x1ff3) return 0x1ffc;
  return undefined;
}

export function goToUpper(r: string): string {
  if (isRawByte(r)) return r;
  const c = r.codePointAt(0)!;
  const g = greekIotaUpper(c);
  if (g !== undefined) return String.fromCodePoint(g);
  return one(r.toUpperCase(), r);
}

export function goToLower(r: string): string {
  if (isRawByte(r)) return r;
  if (r === '\u0130') return 'i'; // İ: full lowercase is i + combining dot, the simple one is i
  return one(r.toLowerCase(), r);
}

export function goToTitle(r: string): string {
  if (isRawByte(r)) return r;
  const c = r.codePointAt(0)!;
  for (const d of DIGRAPHS) if (d.includes(c)) return String.fromCodePoint(d[1]);
  return goToUpper(r);
}

export const isGoUpper = (r: string) => /^\p{Lu}$/u.test(r);
export const isGoLower = (r: string) => /^\p{Ll}$/u.test(r);
export const isGoTitle = (r: string) => /^\p{Lt}$/u.test(r);

/** unicode.IsSpace */
export function isGoSpace(r: string): boolean {
  const c = r.codePointAt(0)!;
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return /^\p{White_Space}$/u.test(r);
}
