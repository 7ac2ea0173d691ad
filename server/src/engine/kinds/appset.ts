/**
 * The one test of "is this an ApplicationSet", in its two forms: on a read value (`isAppSetValue`,
 * what the controller's informer selects: `kind: ApplicationSet` in the `argoproj.io` group) and on
 * a text before or without reading it (`appSetKindAt`: a `kind: ApplicationSet` line, also in a file
 * that does not parse or that another tool renders). Every other module asks these two.
 */
import type { Json } from '../types';

/**
 * The offset of the word `ApplicationSet` of the text's first `kind: ApplicationSet` line (the value may
 * stand on the next, indented line), or -1: what `/^[ \t]*kind:[ \t]*(?:\r?\n[ \t]+)?["']?ApplicationSet\b/m`
 * finds, read at each `kind:` by character codes. Every analysis asks it first (and the workspace's reading
 * of each file), and a pattern is compiled in each fresh process at its first use, twice (issue 39, tenth pass).
 */
function kindLine(text: string): number {
  const key = 'kind:';
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
    // `^[ \t]*` with the `m` flag: only spaces or tabs back to the text's start or a line terminator.
    let s = at;
    while (s > 0 && isBlank(text.charCodeAt(s - 1))) s--;
    if (s > 0 && !isLineTerminator(text.charCodeAt(s - 1))) continue;
    let v = at + key.length;
    while (isBlank(text.charCodeAt(v))) v++;
    // `(?:\r?\n[ \t]+)?`: the value on the next line, indented.
    const nl = text.charCodeAt(v) === 13 && text.charCodeAt(v + 1) === 10 ? v + 2 : text.charCodeAt(v) === 10 ? v + 1 : -1;
    if (nl >= 0 && isBlank(text.charCodeAt(nl))) {
      v = nl;
      while (isBlank(text.charCodeAt(v))) v++;
    }
    const q = text.charCodeAt(v);
    if (q === 34 || q === 39) v++;
    if (text.startsWith('ApplicationSet', v) && !isWordCharacter(text.charCodeAt(v + 'ApplicationSet'.length))) return v;
  }
  return -1;
}

const isBlank = (c: number) => c === 32 || c === 9;
const isLineTerminator = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
/** `\w` of one character code (NaN, past the text's end, is none). */
const isWordCharacter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** Where the word `ApplicationSet` of the text's first `kind: ApplicationSet` line is, or undefined. */
export function appSetKindAt(text: string): { start: number; end: number } | undefined {
  const start = kindLine(text);
  return start < 0 ? undefined : { start, end: start + 'ApplicationSet'.length };
}

/** The text declares an ApplicationSet (it may still not parse as one). */
export function declaresAppSet(text: string): boolean {
  return kindLine(text) >= 0;
}

/** A read YAML value is an ApplicationSet. */
export function isAppSetValue(v: unknown): v is { [key: string]: Json } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.kind === 'ApplicationSet' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('argoproj.io/');
}
