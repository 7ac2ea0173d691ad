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
 * Where the YAML comment of a line starts (-1: none): a `#` at the start or after a space, outside
 * quoted scalars. A quote opens a scalar only where one can start (line start, after `: `, `- `, `[`,
 * `{`, `,`), so the apostrophe in `it's` does not.
 */
export function commentStart(line: string): number {
  let quote = '';
  let prev = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (quote === '"' && c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if ((c === '"' || c === "'") && (prev === '' || ':-[{,'.includes(prev))) quote = c;
    else if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) return i;
    if (c !== ' ' && c !== '\t') prev = c;
  }
  return -1;
}

export function findSuppressions(text: string): Suppression[] {
  if (!text.includes('appset-tools:')) return [];
  const out: Suppression[] = [];
  const lines = text.split('\n');
  let offset = 0;
  const pending: Suppression[] = [];
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const hashAt = line.includes('appset-tools:') ? commentStart(line) : -1;
    const m = hashAt >= 0 ? MARK.exec(line.slice(hashAt)) : null;
    const commentOnly = /^\s*#/.test(line);
    const blank = line.trim() === '';
    if (m) {
      const hash = hashAt;
      const body = m[1];
      const dash = body.indexOf('--');
      const codesText = dash < 0 ? body : body.slice(0, dash);
      const s: Suppression = {
        codes: codesText.split(/[\s,]+/).filter(Boolean),
        reason: dash < 0 ? '' : body.slice(dash + 2).trim(),
        span: { start: offset + hash, end: offset + line.length },
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
