/**
 * Inline suppressions: `# appset-tools: ignore <code>[, <code>…] -- <why>` as a YAML comment at the
 * end of the line a finding starts on, or on its own line(s) directly above it. A reason is required
 * (reviewers read it); a comment without one suppresses nothing and is itself reported.
 */
export interface Suppression {
  codes: string[];
  /** Text after `--`, trimmed ('' when missing). */
  reason: string;
  /** The comment's span. */
  span: { start: number; end: number };
  /** 0-based lines whose findings it suppresses. */
  appliesTo: number[];
}

const MARK = /^#[ \t]*appset-tools:[ \t]*ignore\b(.*)$/;

/**
 * The suppressions of a text. `comments` gives where the YAML comments start, as the YAML parser
 * reads them (`yaml/comments.ts`, passed in by the facade: this layer stands above the YAML one): a
 * `# appset-tools: ignore` line that is text of a block scalar, or inside quotes, is a value, and
 * silences nothing.
 */
export function findSuppressions(text: string, comments: (text: string) => readonly number[]): Suppression[] {
  if (!text.includes('appset-tools:')) return [];
  const out: Suppression[] = [];
  const starts = comments(text);
  const lines = text.split('\n');
  let offset = 0;
  let next = 0;
  const pending: Suppression[] = [];
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // The first comment on this line, if any.
    while (next < starts.length && starts[next] < offset) next++;
    const hashAt = next < starts.length && starts[next] < offset + raw.length ? starts[next] - offset : -1;
    const m = hashAt >= 0 ? MARK.exec(line.slice(hashAt)) : null;
    const commentOnly = hashAt >= 0 && line.slice(0, hashAt).trim() === '';
    const blank = line.trim() === '';
    if (m) {
      const body = m[1];
      const dash = body.indexOf('--');
      const codesText = dash < 0 ? body : body.slice(0, dash);
      const s: Suppression = {
        codes: codesText.split(/[\s,]+/).filter(Boolean),
        reason: dash < 0 ? '' : body.slice(dash + 2).trim(),
        span: { start: offset + hashAt, end: offset + line.length },
        appliesTo: [i],
      };
      out.push(s);
      if (commentOnly) pending.push(s);
    } else if (!commentOnly && !blank) {
      // The first line with content after a block of comments is the line they talk about.
      for (const s of pending) s.appliesTo.push(i);
      pending.length = 0;
    }
    if (!commentOnly && !blank && m) pending.length = 0;
    offset += raw.length + 1;
  });
  return out;
}
