/**
 * What `String.prototype.trim` and a pattern's `\s` take away (ECMAScript WhiteSpace and LineTerminator),
 * for the scans that walk a text by character code instead of slicing it (yaml/document.ts
 * `splitDocuments`, kinds/scaffolding.ts): one list, so that a scan agrees with the regular expression it
 * replaced.
 */
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
