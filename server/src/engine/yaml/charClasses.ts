/**
 * What a regular expression's character classes match, by character code, for the scans that walk a text
 * instead of running a pattern (yaml/document.ts `splitDocuments`, kinds/scaffolding.ts, kinds/appset.ts,
 * kinds/helmChart.ts, workspace/interests.ts): one home each, so that a scan agrees with the pattern it
 * replaced. A pattern is compiled in every fresh process at its first use (issue 39).
 */

/** What `String.prototype.trim` and a pattern's `\s` take away (ECMAScript WhiteSpace and LineTerminator). */
export function isTrimmed(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** A line terminator: where `^` and `$` with the `m` flag stand (`\n`, `\r`, U+2028, U+2029). */
export function isLineTerminator(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

/** `\w` (no `u` or `i` flag): an ASCII letter or digit, or `_`; NaN (past a text's end) is none, as `\b` has it. */
export function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

const isBlank = (c: number) => c === 32 || c === 9;

/**
 * The offset of `word` in the text's first line `key` `word` (`key` holding its colon), or -1: what
 * `/^[ \t]*KEY[ \t]*["']?WORD\b/m` finds, and with `nextLine` `/^[ \t]*KEY[ \t]*(?:\r?\n[ \t]+)?["']?WORD\b/m`
 * (the value on the next, indented line).
 */
export function keyLineWord(text: string, key: string, word: string, nextLine = false): number {
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
    // `^[ \t]*` with the `m` flag: only spaces or tabs back to the text's start or a line terminator.
    let s = at;
    while (s > 0 && isBlank(text.charCodeAt(s - 1))) s--;
    if (s > 0 && !isLineTerminator(text.charCodeAt(s - 1))) continue;
    let v = at + key.length;
    while (isBlank(text.charCodeAt(v))) v++;
    if (nextLine) {
      const nl = text.charCodeAt(v) === 13 && text.charCodeAt(v + 1) === 10 ? v + 2 : text.charCodeAt(v) === 10 ? v + 1 : -1;
      if (nl >= 0 && isBlank(text.charCodeAt(nl))) {
        v = nl;
        while (isBlank(text.charCodeAt(v))) v++;
      }
    }
    const q = text.charCodeAt(v);
    if (q === 34 || q === 39) v++;
    if (text.startsWith(word, v) && !isWordCode(text.charCodeAt(v + word.length))) return v;
  }
  return -1;
}
