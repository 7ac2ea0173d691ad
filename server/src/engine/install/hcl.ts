/**
 * A bounded reader of the HCL that Terraform's `helm_release` blocks are written in: bodies of
 * attributes (`name = expr`) and blocks (`type "label" { … }`), where an expression is read only as far as
 * the install model needs it — string literals (escapes, and whether they interpolate `${…}`/`%{…}`),
 * heredocs (`<<EOT`, `<<-EOT` with its indentation removed), numbers, booleans, lists, objects and function
 * calls (`file("…")`); anything else (a reference `var.x`, an operator, a `for` expression) is kept as its
 * text, as "not read". Comments (`#`, `//` and block comments) are skipped. Syntax follows the HCL native syntax
 * specification (hashicorp/hcl `hclsyntax/spec.md`). Linear in the text, nesting at most MAX_DEPTH deep;
 * text it cannot follow ends the body read so far (the caller says what it did not read).
 */
import type { Span } from '../types';

export type HclValue =
  | { kind: 'string'; text: string; template: boolean; span: Span }
  | { kind: 'literal'; text: string; span: Span }
  | { kind: 'list'; items: HclValue[]; span: Span }
  | { kind: 'object'; attrs: HclAttr[]; span: Span }
  | { kind: 'call'; name: string; args: HclValue[]; span: Span }
  | { kind: 'expr'; text: string; span: Span };

export interface HclAttr {
  name: string;
  value: HclValue;
  span: Span;
}

export interface HclBlock {
  type: string;
  labels: string[];
  body: HclBody;
  span: Span;
}

export interface HclBody {
  attrs: HclAttr[];
  blocks: HclBlock[];
}

const MAX_DEPTH = 32;
const IDENT = /[A-Za-z_][A-Za-z0-9_-]*/y;

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  /** Skips spaces, comments and (when `lines`) newlines. */
  skip(lines: boolean): void {
    const s = this.s;
    while (this.i < s.length) {
      const ch = s[this.i];
      if (ch === ' ' || ch === '\t' || ch === '\r' || (lines && ch === '\n')) this.i++;
      else if (ch === '#' || (ch === '/' && s[this.i + 1] === '/')) {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl;
      } else if (ch === '/' && s[this.i + 1] === '*') {
        const end = s.indexOf('*/', this.i + 2);
        this.i = end < 0 ? s.length : end + 2;
      } else break;
    }
  }

  ident(): string | undefined {
    IDENT.lastIndex = this.i;
    const m = IDENT.exec(this.s);
    if (!m) return undefined;
    this.i += m[0].length;
    return m[0];
  }

  /** A body up to `}` (not consumed) or the end. */
  body(depth: number): HclBody {
    const out: HclBody = { attrs: [], blocks: [] };
    for (;;) {
      this.skip(true);
      const start = this.i;
      if (this.i >= this.s.length || this.s[this.i] === '}') return out;
      const name = this.ident();
      if (!name) return out;
      this.skip(false);
      if (this.s[this.i] === '=' && this.s[this.i + 1] !== '=') {
        this.i++;
        const value = this.expr(depth + 1);
        if (!value) return out;
        out.attrs.push({ name, value, span: { start, end: this.i } });
        continue;
      }
      const labels: string[] = [];
      for (;;) {
        this.skip(false);
        if (this.s[this.i] === '"') {
          const l = this.string();
          if (!l) return out;
          labels.push(l.text);
        } else {
          const l = this.ident();
          if (!l) break;
          labels.push(l);
        }
      }
      if (this.s[this.i] !== '{' || depth >= MAX_DEPTH) return out;
      this.i++;
      const body = this.body(depth + 1);
      if (this.s[this.i] !== '}') return out;
      this.i++;
      out.blocks.push({ type: name, labels, body, span: { start, end: this.i } });
    }
  }

  /** A quoted template: its text with escapes read, and whether it interpolates. */
  string(): { text: string; template: boolean; span: Span } | undefined {
    const s = this.s;
    const start = this.i++;
    let text = '';
    let template = false;
    while (this.i < s.length) {
      const ch = s[this.i];
      if (ch === '"') {
        this.i++;
        return { text, template, span: { start, end: this.i } };
      }
      if (ch === '\n') return undefined;
      if (ch === '\\') {
        const e = s[this.i + 1];
        const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
        if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          text += String.fromCodePoint(parseInt(s.slice(this.i + 2, this.i + 2 + n), 16) || 0xfffd);
          this.i += 2 + n;
        } else {
          text += map[e] ?? e;
          this.i += 2;
        }
        continue;
      }
      if ((ch === '$' || ch === '%') && s[this.i + 1] === '{') {
        if (s[this.i - 1] === ch && text.endsWith(ch)) {
          // `$${` and `%%{` are the literal `${` and `%{`.
          text += '{';
          this.i += 2;
          continue;
        }
        template = true;
        const end = this.balanced(this.i + 1);
        if (end < 0) return undefined;
        text += s.slice(this.i, end);
        this.i = end;
        continue;
      }
      text += ch;
      this.i++;
    }
    return undefined;
  }

  /** The index after the bracket that closes the one at `open` (strings inside skipped), or -1. */
  balanced(open: number): number {
    const s = this.s;
    let depth = 0;
    for (let j = open; j < s.length; j++) {
      const ch = s[j];
      if (ch === '"') {
        for (j++; j < s.length && s[j] !== '"'; j++) if (s[j] === '\\') j++;
      } else if (ch === '{' || ch === '(' || ch === '[') depth++;
      else if (ch === '}' || ch === ')' || ch === ']') {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }

  heredoc(): HclValue | undefined {
    const s = this.s;
    const start = this.i;
    const m = /<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/y;
    m.lastIndex = this.i;
    const h = m.exec(s);
    if (!h) return undefined;
    const lines: string[] = [];
    let at = this.i + h[0].length;
    while (at < s.length) {
      const nl = s.indexOf('\n', at);
      const line = s.slice(at, nl < 0 ? s.length : nl).replace(/\r$/, '');
      at = nl < 0 ? s.length : nl + 1;
      if (line.trim() === h[2]) {
        this.i = nl < 0 ? s.length : nl;
        let body = lines;
        if (h[1]) {
          // `<<-`: the common leading spaces of the lines are removed.
          const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
          body = lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
        }
        const text = body.join('\n') + (body.length ? '\n' : '');
        return { kind: 'string', text, template: /(^|[^$])\$\{|(^|[^%])%\{/.test(text), span: { start, end: this.i } };
      }
      lines.push(line);
    }
    return undefined;
  }

  /** An expression; read as far as the model needs it, else kept as its text up to where it ends. */
  expr(depth: number): HclValue | undefined {
    this.skip(false);
    const start = this.i;
    const primary = depth > MAX_DEPTH ? undefined : this.primary(depth);
    this.skip(false);
    const ch = this.s[this.i];
    if (primary && (ch === undefined || ch === '\n' || ch === ',' || ch === '}' || ch === ']' || ch === ')')) return primary;
    // Something more (an operator, an index, a reference): the whole expression, unread.
    this.i = start;
    let depthHere = 0;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '"') {
        if (!this.string()) return undefined;
        continue;
      }
      if (c === '<' && this.s[this.i + 1] === '<' && this.heredoc()) continue;
      if (c === '{' || c === '(' || c === '[') depthHere++;
      else if (c === '}' || c === ')' || c === ']') {
        if (depthHere === 0) break;
        depthHere--;
      } else if (depthHere === 0 && (c === '\n' || c === ',')) break;
      this.i++;
    }
    return { kind: 'expr', text: this.s.slice(start, this.i).trim(), span: { start, end: this.i } };
  }

  primary(depth: number): HclValue | undefined {
    const s = this.s;
    const start = this.i;
    const ch = s[this.i];
    if (ch === '"') {
      const str = this.string();
      return str && { kind: 'string', ...str };
    }
    if (ch === '<' && s[this.i + 1] === '<') return this.heredoc();
    if (ch === '[' || ch === '{') {
      const close = ch === '[' ? ']' : '}';
      this.i++;
      const items: HclValue[] = [];
      const attrs: HclAttr[] = [];
      for (let last = -1; ;) {
        this.skip(true);
        // Text it cannot follow (`[}`) is not skipped in a loop: the list is not read.
        if (this.i === last) return undefined;
        last = this.i;
        if (s[this.i] === close) {
          this.i++;
          return ch === '['
            ? { kind: 'list', items, span: { start, end: this.i } }
            : { kind: 'object', attrs, span: { start, end: this.i } };
        }
        if (ch === '[') {
          const v = this.expr(depth + 1);
          if (!v || (v.kind === 'expr' && /^for\s/.test(v.text))) return undefined;
          items.push(v);
        } else {
          const at = this.i;
          const key = s[this.i] === '"' ? this.string()?.text : this.ident();
          this.skip(false);
          if (key === undefined || (s[this.i] !== '=' && s[this.i] !== ':')) return undefined;
          this.i++;
          const v = this.expr(depth + 1);
          if (!v) return undefined;
          attrs.push({ name: key, value: v, span: { start: at, end: this.i } });
        }
        this.skip(true);
        if (s[this.i] === ',') this.i++;
      }
    }
    if (/[0-9]/.test(ch ?? '')) {
      const m = /[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
      m.lastIndex = this.i;
      const n = m.exec(s)!;
      this.i += n[0].length;
      return { kind: 'literal', text: n[0], span: { start, end: this.i } };
    }
    const name = this.ident();
    if (!name) return undefined;
    if (name === 'true' || name === 'false' || name === 'null') return { kind: 'literal', text: name, span: { start, end: this.i } };
    if (s[this.i] !== '(') return undefined;
    this.i++;
    const args: HclValue[] = [];
    for (let last = -1; ;) {
      this.skip(true);
      if (this.i === last) return undefined;
      last = this.i;
      if (s[this.i] === ')') {
        this.i++;
        return { kind: 'call', name, args, span: { start, end: this.i } };
      }
      const v = this.expr(depth + 1);
      if (!v) return undefined;
      args.push(v);
      this.skip(true);
      if (s[this.i] === ',') this.i++;
      else if (s[this.i] !== ')') return undefined;
    }
  }
}

/** The top-level body of an HCL file (what it can read of it). */
export function readHcl(text: string): HclBody {
  return new Reader(text).body(0);
}

/** An attribute of a body, by name (the last one written, as a duplicate is an error in HCL anyway). */
export const attr = (body: HclBody, name: string): HclValue | undefined => [...body.attrs].reverse().find((a) => a.name === name)?.value;
