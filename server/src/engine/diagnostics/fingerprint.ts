/**
 * Stable fingerprints for findings, so code-scanning alerts and PR comments follow a finding when
 * lines move. A fingerprint hashes what identifies the finding in the user's text — its code, the
 * file, the trimmed text of the line it starts on and the text it underlines — plus a counter for
 * identical ones in the same file. Not the message: messages carry counts ("24 of 24 Applications")
 * that change without the finding changing. Not the line number: inserting a line above must not
 * make a new alert.
 */

/** 64-bit FNV-1a over UTF-16 code units, as 16 hex digits (pure, no crypto module). */
export function hash64(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

export interface FingerprintInput {
  code: string;
  span: { start: number; end: number };
}

/**
 * Fingerprints of a file's findings (same order as `findings`). `file` should be repository-relative
 * so the value is the same on every machine.
 */
export function fingerprints(file: string, text: string, findings: readonly FingerprintInput[]): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const lineStart = f.span.start <= 0 ? 0 : text.lastIndexOf('\n', f.span.start - 1) + 1;
    let lineEnd = text.indexOf('\n', f.span.start);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd).trim();
    const under = text
      .slice(f.span.start, Math.min(f.span.end, f.span.start + 200))
      .replace(/\s+/g, ' ')
      .trim();
    const key = `${f.code}\u0000${file}\u0000${line}\u0000${under}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return hash64(`${key}\u0000${n}`);
  });
}
