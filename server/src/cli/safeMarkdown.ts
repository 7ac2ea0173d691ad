/**
 * User text in the markdown the CLI writes (the `lint`, `plan` and `diff` job summaries and the pull-request
 * comment), made inert: GitHub renders that markdown, so a name, value or message holding `[x](https://…)`,
 * `![](…)`, `<img>`, `@someone`, `#123` or a bare URL would become a live link, an image, a mention that
 * notifies someone, or a reference. Every markdown format goes through these two helpers:
 * - `mdCode`: a name, path, code or value as inline code — nothing inside a code span is markdown, HTML, a
 *   mention or an autolink (CommonMark "Code spans"; GitHub leaves code alone);
 * - `mdText`: prose that may quote user text (a finding's message, the controller's error): every character
 *   that opens a markdown or HTML construct backslash-escaped (CommonMark "Backslash escapes"), and the
 *   patterns GitHub links after rendering — `@name`, `#123`, `https://`, `www.` — broken by a word joiner
 *   (U+2060, invisible), since a backslash does not stop them.
 * Both are one line (`messageLine`) and safe in a table cell (`|` escaped).
 */
import { messageLine } from './safeText';

/** Characters that open a construct: emphasis, code, links and images, HTML, tables, strikethrough, headings, escapes. */
const PUNCT = /[\\`*_[\]()<>!|~#]/g;
const WJ = '\u2060';

/** Prose that may quote the user's words, rendered as plain text (see above). */
export function mdText(s: string): string {
  return messageLine(s)
    .replace(PUNCT, (c) => `\\${c}`)
    .replace(/@(?=[A-Za-z0-9])/g, `@${WJ}`)
    .replace(/#(?=\d)/g, `#${WJ}`)
    .replace(/:(?=\/\/)/g, `${WJ}:`)
    .replace(/\b(www)\./gi, `$1${WJ}.`);
}

/**
 * `s` as inline code: fenced with one backtick more than its longest run of backticks (padded with a space
 * when it starts or ends with one), so no text can close it early; `|` escaped, which GitHub reads as a
 * pipe inside a table cell's code too (outside a table a `|` shows as `\|`: use `mdCodeProse` there).
 */
export function mdCode(s: string): string {
  return fence(messageLine(s).replace(/\|/g, '\\|'));
}

/** `mdCode` outside a table: `|` as written. */
export function mdCodeProse(s: string): string {
  return fence(messageLine(s));
}

function fence(t: string): string {
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ') && t.trim()) ? ' ' : '';
  return `${ticks}${pad}${t || ' '}${pad}${ticks}`;
}
