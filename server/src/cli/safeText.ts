/**
 * One line of CLI output, whatever the user's text in it holds. File names, ApplicationSet names, list
 * parameters and messages that quote them can hold line breaks, carriage returns, terminal escapes or
 * U+2028; printed raw, they start lines of their own, and a CI runner reads a line that starts with
 * `::` (GitHub Actions trims leading blanks first) or holds `##[` (its legacy form) as a workflow
 * command: `::error …` makes an annotation, `::add-mask::` hides text, `::stop-commands::` turns the
 * tool's own annotations off. Every text format (lint, render, plan, diff, template, markdown) prints
 * each of its lines through `oneLine`, so no line of output starts with what the user wrote.
 * (`--format github` escapes its data the workflow-command way instead: `humanFormats.ts`.)
 */

/** Line breaks (every one a terminal or a log viewer may honour) and control characters. */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r' };
const escape = (c: string) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `s` as one line: line breaks, control characters and bidirectional overrides written as visible
 * escapes (`\n`, `\r`, `\u001b`, `\u2028`), the runner's legacy command prefix `##[` broken up, and a
 * line that would start with `::` (after blanks) given an escaped first colon.
 */
export function oneLine(s: string): string {
  const t = s.replace(UNSAFE, escape).replace(/##\[/g, '##\\u005b');
  return t.replace(/^(\s*):(?=:)/, '$1\\u003a');
}

/** Our own multi-line messages as one line (their breaks and indentation become one space), then `oneLine`. */
export function messageLine(s: string): string {
  return oneLine(s.replace(/[ \t]*(?:\r\n|[\n\r\u2028\u2029\u0085])\s*/g, ' '));
}

/** Lines to print: each made safe with `oneLine`, joined, with a final newline. */
export function textLines(lines: readonly string[]): string {
  return lines.map(oneLine).join('\n') + '\n';
}
