/**
 * The `{{ … }}` actions of a text, found in one pass the way Go's text/template lexer delimits them
 * (text/template/parse/lex.go): an action ends at the first `}}` outside its string literals
 * ("…" ends at its closing quote or the line's end, `…` at its closing backtick) and outside a
 * `/* … *\/` comment; an action never closed runs to the end of the text. Every character is looked
 * at a bounded number of times, so recognising a Helm template stays linear on hostile input (50,000
 * unclosed `{{` in one annotation); `work` counts the characters visited, for the tests.
 */
import { isTrimmed, isWordCode } from '../yaml';

export interface Action {
  /** Offset of `{{`. */
  start: number;
  /** Offset after `}}` (the text's length when never closed). */
  end: number;
  /** The text between the delimiters (trim markers included). */
  body: string;
  closed: boolean;
  /** Offset of the start of the action's line. */
  lineStart: number;
}

export interface ActionScan {
  actions: Action[];
  /** Characters visited (each at most a few times): the scan's work, which tests bound. */
  work: number;
  /** Lines that start with a Terraform template directive (`%{ for … }`, `%{ if … }`, `%{ endfor }`). */
  terraformDirective?: number;
}

/** Bound on the actions kept (a file has far fewer; the rest are not needed to decide anything). */
const MAX_ACTIONS = 100_000;

export function scanActions(text: string): ActionScan {
  const actions: Action[] = [];
  let work = 0;
  let lineStart = 0;
  let terraformDirective: number | undefined;
  let i = 0;
  const n = text.length;
  while (i < n) {
    // The text up to the next `{{` is visited in one go with the string's own search (a character loop
    // here was a sizeable part of a first answer, run before V8 has compiled it: issue 39): its newlines
    // move the line start, and its `%{` may open a Terraform directive.
    const next = text.indexOf('{{', i);
    const stop = next < 0 ? n : next;
    for (let p = terraformDirective === undefined ? text.indexOf('%{', i) : -1; p >= 0 && p < stop; p = text.indexOf('%{', p + 1)) {
      const nl = text.lastIndexOf('\n', p - 1);
      if (onlySpaceBefore(text, nl >= i ? nl + 1 : lineStart, p) && /^%\{~?\s*(?:for|if|endfor|endif|else)\b/.test(text.slice(p, p + 12))) {
        terraformDirective = p;
        break;
      }
    }
    const nl = text.lastIndexOf('\n', stop - 1);
    if (nl >= i) lineStart = nl + 1;
    if (next < 0) {
      work += n - i;
      break;
    }
    work += next - i + 1;
    i = next;
    const start = i;
    const actionLine = lineStart;
    let j = i + 2;
    let closed = false;
    // A comment action: `{{/*` or `{{- /*` up to `*/`.
    const comment = commentOpens(text, j);
    while (j < n) {
      const d = text.charCodeAt(j);
      work++;
      if (d === 10) lineStart = j + 1;
      if (comment) {
        if (d === 42 && text.charCodeAt(j + 1) === 47) {
          j += 2;
          // `*/` then optional ` -` and `}}`.
          const close = /^\s?-?\}\}/.exec(text.slice(j, j + 4));
          if (close) {
            j += close[0].length;
            closed = true;
            break;
          }
          continue;
        }
        j++;
        continue;
      }
      if (d === 125 /* } */ && text.charCodeAt(j + 1) === 125) {
        j += 2;
        closed = true;
        break;
      }
      if (d === 34 /* " */ || d === 39 /* ' */) {
        // Interpreted string or rune: to the closing quote, a backslash escaping one character; a newline ends it (Go: unterminated).
        j++;
        while (j < n) {
          const e = text.charCodeAt(j);
          work++;
          if (e === 92) j += 2;
          else if (e === d || e === 10) break;
          else j++;
        }
        if (text.charCodeAt(j) === d) j++;
        continue;
      }
      if (d === 96 /* ` */) {
        const close = text.indexOf('`', j + 1);
        const stop = close < 0 ? n : close + 1;
        for (let k = j + 1; k < stop; k++) if (text.charCodeAt(k) === 10) lineStart = k + 1;
        work += stop - j;
        j = stop;
        continue;
      }
      j++;
    }
    if (actions.length < MAX_ACTIONS)
      actions.push({ start, end: j, body: text.slice(start + 2, closed ? j - 2 : j), closed, lineStart: actionLine });
    i = j;
  }
  return { actions, work, ...(terraformDirective !== undefined ? { terraformDirective } : {}) };
}

function onlySpaceBefore(text: string, lineStart: number, i: number): boolean {
  if (i - lineStart > 200) return false;
  for (let k = lineStart; k < i; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Whether an action sits where YAML cannot hold it as text: alone on its line (control flow around
 * the structure), as a key, or unquoted at the start of a value or list item. An action inside a
 * quoted or block string is text to YAML, and a plain ApplicationSet may hold any function there.
 */
export function inStructure(text: string, a: Action): boolean {
  if (a.start - a.lineStart > 200) return false;
  const before = text.slice(a.lineStart, a.start);
  return /^[ \t]*(?:- )*$/.test(before) || /^[ \t]*(?:- )*[^\s#'"|>][^#'"]*:[ \t]+$/.test(before);
}

// The character tests of the scans compare character codes: a pattern literal in a loop was a new RegExp object
// at each evaluation (one per character of every action, issue 39), and even made once each pattern is compiled
// in every fresh process at its first use, twice (V8 compiles a pattern again to machine code at its second
// run): five patterns for a few characters of the first answer (issue 39, tenth pass).
/** `/[A-Za-z_]/` of one character code. */
const identStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
/** `/[\s(|$,=]/` of one character code. */
const rootBefore = (c: number) => isTrimmed(c) || c === 40 || c === 124 || c === 36 || c === 44 || c === 61;
/** `/[\w$]/` of one character code. */
const chainBefore = (c: number) => isWordCode(c) || c === 36;
/** Whether a comment opens at `at`, after an action's `{{`: an optional `-`, one optional white space, then a slash and a star. */
function commentOpens(text: string, at: number): boolean {
  let k = at;
  if (text.charCodeAt(k) === 45 /* - */) k++;
  if (isTrimmed(text.charCodeAt(k))) k++;
  // A slash, then a star.
  return text.charCodeAt(k) === 47 && text.charCodeAt(k + 1) === 42;
}

/** The words an action's body uses: root fields (`.Values`, `$.Release`) and identifiers (functions, keywords), strings left out. */
export function actionWords(body: string): { fields: string[]; idents: string[] } {
  const fields: string[] = [];
  const idents: string[] = [];
  const n = Math.min(body.length, 10_000);
  let i = 0;
  while (i < n) {
    const c = body[i];
    if (c === '"' || c === "'") {
      i++;
      while (i < n && body[i] !== c && body[i] !== '\n') i += body[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '`') {
      const close = body.indexOf('`', i + 1);
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (identStart(body.charCodeAt(i))) {
      let j = i + 1;
      while (j < n && isWordCode(body.charCodeAt(j))) j++;
      const prev = i > 0 ? body.charCodeAt(i - 1) : 32;
      const w = body.slice(i, j);
      // A root field: `.X` after a space, `(`, `|`, `$` or the start (not `a.X` or `).X`, which are chains).
      if (prev === 46 /* . */) {
        const before = i > 1 ? body.charCodeAt(i - 2) : 32;
        if (rootBefore(before) || i === 1) fields.push(w);
      } else if (!chainBefore(prev)) idents.push(w);
      i = j;
      continue;
    }
    i++;
  }
  return { fields, idents };
}
