/**
 * How kustomize's `configMapGenerator` turns its sources into ConfigMap data (kustomize `api/kv/kv.go`,
 * `api/internal/generators/utils.go` ParseFileSource), one function per source kind:
 * - `literals:` `key=value`, split at the first `=`; the value loses one pair of surrounding quotes only
 *   when both ends hold the same quote character (removeQuotes); the key is kept as written;
 * - `envs:` (and the older `env:`) files, line by line: a UTF-8 byte-order mark removed from the first
 *   line, leading white space removed, blank lines and lines starting with `#` skipped; the key is what
 *   comes before the first `=` and the value everything after it, verbatim: quotes are KEPT
 *   (`key="true"` gives the value `"true"` with its quotes) and trailing white space too; a line
 *   without `=` is a key with an empty value; a carriage return before the newline is dropped
 *   (bufio.ScanLines);
 * - `files:` `key=path` or `path` (the key is the path's base name); the value is the file's content
 *   verbatim, its trailing newline included.
 */

export interface KvPair {
  key: string;
  value: string;
}

/** removeQuotes: one pair of matching surrounding quotes. */
function removeQuotes(s: string): string {
  if (s.length < 2 || s[0] !== s[s.length - 1]) return s;
  return s[0] === '"' || s[0] === "'" ? s.slice(1, -1) : s;
}

/** A `literals:` entry; undefined where kustomize refuses it (no `=`, or a leading `=`). */
export function literalPair(source: string): KvPair | undefined {
  const eq = source.indexOf('=');
  if (eq <= 0) return undefined;
  return { key: source.slice(0, eq), value: removeQuotes(source.slice(eq + 1)) };
}

/** The pairs of an `envs:` file, each with its 0-based line. */
export function envFilePairs(text: string): (KvPair & { line: number })[] {
  const out: (KvPair & { line: number })[] = [];
  const lines = text.split('\n');
  // bufio.ScanLines: no empty last token after a final newline.
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (i === 0 && line.startsWith('\ufeff')) line = line.slice(1);
    line = line.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    out.push(eq < 0 ? { key: line, value: '', line: i } : { key: line.slice(0, eq), value: line.slice(eq + 1), line: i });
  });
  return out;
}

/** A `files:` entry: its key and path; undefined where kustomize refuses it (an empty key or path, several `=`). */
export function fileSource(source: string): { key: string; path: string } | undefined {
  const n = source.split('=').length - 1;
  if (n === 0) {
    const base = source.replace(/\/+$/, '');
    return { key: base.slice(base.lastIndexOf('/') + 1), path: source };
  }
  if (n > 1) return undefined;
  const [key, path] = source.split('=');
  return key && path ? { key, path } : undefined;
}
