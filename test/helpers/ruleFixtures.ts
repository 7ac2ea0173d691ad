/**
 * Rule fixtures: a YAML file whose findings are written beside the text they underline, as caret
 * comments under the line (rust-analyzer's style), checked by test/unit/rule-fixtures.test.ts:
 *
 *     strategy:
 *       type: rollingSync
 *     #       ^^^^^^^^^^^ warning appset/strategy-type "did you mean"
 *
 * An annotation line is a YAML comment: `#`, then the carets under the columns the finding
 * underlines, the severity, the code and, optionally, a quoted piece of its message. It speaks about
 * the nearest line above it that is not an annotation. A `#` written directly before the carets is
 * the first of them (`#^^^` under `spec:` marks columns 0 to 3). `^^^~` marks a finding that runs on
 * past the end of the line (the carets go to the end of the line's text); `|` marks an empty one.
 * The engine reads the fixture with its annotation lines taken out, so an annotation may sit inside
 * a block scalar it speaks about. A fixture lives in test/fixtures/rules/<prefix>/ and states every
 * finding of its prefix's codes; other prefixes' findings are theirs to state.
 *
 * A rule that reads other files (cluster Secrets, AppProjects, the argocd-cmd-params-cm of the install)
 * has a folder fixture, test/fixtures/rules/<prefix>/<name>/: a small workspace whose every YAML file
 * states its own findings of the prefix the same way (a file with no annotation has none).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The files of a folder fixture, by their path in the workspace (`/ws/…`) → their path on disk. */
export function workspaceOf(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string) => {
    for (const n of fs.readdirSync(abs).sort()) {
      const p = path.join(abs, n);
      if (fs.statSync(p).isDirectory()) walk(p);
      else out.set('/ws/' + path.relative(folder, p).split(path.sep).join('/'), p);
    }
  };
  walk(folder);
  return out;
}

export interface Annotation {
  /** 0-based line of the text the annotation speaks about. */
  line: number;
  col: number;
  /** End column on the same line, or 'on' when the finding runs past the line's end. */
  end: number | 'on';
  severity: string;
  code: string;
  /** A piece of the message, when the annotation quotes one. */
  says?: string;
}

const ANNOTATION = /^(\s*)#(\s*)([\^~|]+)\s+(error|warning|information|hint)\s+(\S+)(?:\s+"(.*)")?\s*$/;

export const isAnnotation = (line: string) => ANNOTATION.test(line);

/** The annotations of a fixture's text (0-based lines and columns of the text as written). */
export function annotationsOf(text: string): Annotation[] {
  const lines = text.split('\n');
  const out: Annotation[] = [];
  let target = -1;
  lines.forEach((l, i) => {
    const m = ANNOTATION.exec(l);
    if (!m) {
      target = i;
      return;
    }
    if (target < 0) throw new Error(`line ${i + 1}: an annotation with no line above it`);
    const [, indent, gap, marks, severity, code, says] = m;
    // `#^^^`: the `#` is the first caret.
    const col = gap === '' && marks[0] === '^' ? indent.length : indent.length + 1 + gap.length;
    const width = gap === '' && marks[0] === '^' ? marks.length + 1 : marks.length;
    const end = marks.endsWith('~') ? 'on' : marks === '|' ? col : col + width;
    out.push({ line: target, col, end, severity, code, ...(says !== undefined ? { says } : {}) });
  });
  return out;
}

/** The annotation of a finding at `start..end` of `text` (its line, columns, and whether it runs on). */
export function annotationAt(text: string, start: number, end: number, severity: string, code: string): Annotation {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const line = text.slice(0, lineStart).split('\n').length - 1;
  const eol = text.indexOf('\n', start) < 0 ? text.length : text.indexOf('\n', start);
  return { line, col: start - lineStart, end: end > eol ? 'on' : end - lineStart, severity, code };
}

/** One annotation as a line of text (what annotationsOf reads back), for writing a fixture's findings. */
export function annotationLine(a: Annotation, lineText: string): string {
  const width = a.end === 'on' ? Math.max(1, lineText.trimEnd().length - a.col) : a.end - a.col;
  const marks = width === 0 ? '|' : '^'.repeat(width) + (a.end === 'on' ? '~' : '');
  const lead =
    a.col >= 2 ? '#' + ' '.repeat(a.col - 1) + marks : width >= 2 || a.end === 'on' ? ' '.repeat(a.col) + '#' + marks.slice(1) : undefined;
  if (lead === undefined) throw new Error(`a one-column finding at column ${a.col} cannot be annotated: ${a.code}`);
  return `${lead} ${a.severity} ${a.code}${a.says !== undefined ? ` "${a.says}"` : ''}`;
}

/** The annotation as a comparable string: `line:col-end severity code`. */
export const key = (a: Annotation) => `${a.line + 1}:${a.col}-${a.end} ${a.severity} ${a.code}`;

/**
 * The annotations with their lines counted in `strip(text)`: the engine reads the fixture without its
 * annotation lines (a comment line would end a block scalar it annotates).
 */
export function expectedOf(text: string): Annotation[] {
  const lines = text.split('\n');
  const stripped: number[] = [];
  let n = 0;
  lines.forEach((l, i) => {
    stripped[i] = n;
    if (!isAnnotation(l)) n++;
  });
  return annotationsOf(text).map((a) => ({ ...a, line: stripped[a.line] }));
}

/** The fixture's text without its annotation lines: what the engine reads. */
export const strip = (text: string) =>
  text
    .split('\n')
    .filter((l) => !isAnnotation(l))
    .join('\n');

/**
 * `text` with its annotation lines replaced by `found`, the findings of `strip(text)`; a quoted piece
 * of a message stays where the same finding still says it.
 */
export function rewrite(text: string, found: readonly Annotation[], messages: ReadonlyMap<string, string>): string {
  const lines = text.split('\n');
  const stripped: number[] = [];
  const kept: string[] = [];
  lines.forEach((l, i) => {
    stripped[i] = kept.length;
    if (!isAnnotation(l)) kept.push(l);
  });
  const old = annotationsOf(text).map((o) => ({ ...o, line: stripped[o.line] }));
  const byLine = new Map<number, string[]>();
  for (const a of found) {
    const quoted = old.find((o) => key(o) === key(a) && o.says !== undefined && messages.get(key(a))?.includes(o.says));
    const line = annotationLine({ ...a, ...(quoted ? { says: quoted.says } : {}) }, kept[a.line]);
    byLine.set(a.line, [...(byLine.get(a.line) ?? []), line]);
  }
  return kept.flatMap((l, i) => [l, ...(byLine.get(i) ?? [])]).join('\n');
}
