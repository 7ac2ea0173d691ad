/**
 * A fast reader for the plain YAML that ApplicationSets are mostly written in: block mappings and
 * sequences, one-line scalars and flow collections, literal and folded block scalars, comments and
 * blank lines between entries. It builds the document's value and located tree (ast.ts) in one
 * pass over the text, without the `yaml` library's tokens, CST and nodes, which are most of the time
 * of a first answer on a long document.
 *
 * It answers only when it is sure to give what the `yaml` library gives for the same text (the same
 * value, the same tree with the same spans, the same document range): anything else, from an
 * anchor, a tag, a multi-line plain scalar or a comment where the library's placement of comments
 * moves a collection's end, to any YAML error, makes it give up (undefined), and the text is parsed
 * by the library as before. `test/unit/engine/yaml/fast-read.test.ts` compares both readers over the repository's
 * YAML and mutated texts, and readings after an edit (`PriorReading`) with fresh ones.
 *
 * The budget of tree nodes mirrors ast.ts's cut at MAX_AST_NODES; entries taken from a previous
 * reading are not counted again, which cannot matter below document.ts's size limit for this reader
 * (128 KiB hold far fewer nodes than that).
 *
 * Scalars resolve as in YAML 1.2's core schema (the library's default): null, booleans, integers
 * (decimal, 0o, 0x) and floats; NaN and infinities, and keys that do not resolve to strings, give up.
 */
import type { Json } from '../types';
import { MAX_AST_NODES, type ArrayNode, type AstNode, type ObjectNode, type ScalarNode, type ScalarStyle } from './ast';

export interface FastDocument {
  value: Json;
  root: AstNode;
  /** The document's range as the library gives it: [start, contents end, end]. */
  range: [number, number, number];
}

/** Nesting beyond this gives up (the library then reads it, under limits.ts). */
const MAX_DEPTH = 200;

/** Thrown to give up; caught by `fastRead` only. */
const GIVE_UP: unique symbol = Symbol('give up');

/** Characters that may not start a plain scalar (YAML's c-indicator), as a lookup by char code. */
const INDICATOR = new Uint8Array(128);
for (const c of '-?:,[]{}#&*!|>\'"%@`') INDICATOR[c.charCodeAt(0)] = 1;

/** Flow indicators: they end a plain scalar inside a flow collection. */
const FLOW = new Uint8Array(128);
for (const c of ',[]{}') FLOW[c.charCodeAt(0)] = 1;

const NL = 10;
const SP = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;

/**
 * The previous reading of the same part, at the same offset, before an edit that starts at `editStart`
 * (an offset in the file): an entry of a collection whose text, and the start of the line after it,
 * lie before the edit is taken from it as it is (its tree hung under the new parent, its value
 * shared), as a fresh reading of the same text would give it.
 */
export interface PriorReading {
  root: AstNode;
  value: Json;
  editStart: number;
  /** The text the previous reading read, and where the edit ends in this text (local offsets; see `clean`). */
  text?: string;
  editEnd?: number;
}

/**
 * Where each entry of a collection read by `fastRead` starts, where the reading went on after it and
 * where the next content line's text starts (offsets in the file, three numbers an entry): what a later
 * reading needs to know that the entry's text and what decides its end are unchanged.
 */
const spots = new WeakMap<AstNode, number[]>();

/**
 * Parts shorter than this keep no spots: after an edit they are read again whole, which takes tens of
 * microseconds, and recording the spots of every collection of a file of 50 ApplicationSets (about 1 KiB
 * each) was a tenth of its reading in a fresh process (issue 39).
 */
export const LEND_MIN = 4096;

/**
 * The document of `text` (a `---` part of a file, found at `offset`), or undefined to let the library read
 * it. `lend`: keep where each entry is, so that the reading after an edit can take entries from this one.
 */
export function fastRead(text: string, offset: number, prior?: PriorReading, lend = text.length >= LEND_MIN): FastDocument | undefined {
  if (!clean(text, offset, prior)) return undefined;
  try {
    return new Reader(text, offset, prior, lend).document();
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}

/** Tabs, carriage returns, other control characters and a byte order mark: left to the library. */
const UNCLEAN = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;

/** The last text found clean (one: the document being typed in). */
let lastClean: string | undefined;

/**
 * Whether `text` holds none of UNCLEAN's characters. After an edit of a text found clean, only the
 * edited part is looked at: the text before and after it is the same (a keystroke in a 111 KiB list
 * searched the whole text again).
 */
function clean(text: string, offset: number, prior: PriorReading | undefined): boolean {
  const edited =
    prior?.text !== undefined && prior.editEnd !== undefined && prior.text === lastClean
      ? text.slice(prior.editStart - offset, prior.editEnd)
      : text;
  if (UNCLEAN.test(edited)) return false;
  lastClean = text;
  return true;
}

/** A node read: `this.p` is then past it and what trails it on its line (the library's range[2]). */
interface Read {
  ast: AstNode;
  value: Json;
}

interface Gap {
  /** Start of the next content line (local), or -1 at the end of the text. */
  line: number;
  indent: number;
  /** Indents of the comment lines before it. */
  comments: number[];
}

const NO_COMMENTS: number[] = [];

class Reader {
  private p = 0;
  private depth = 0;
  /** Nodes left before the tree would be cut (ast.ts cuts it; the library's reading then applies). */
  private budget = MAX_AST_NODES;
  private readonly n: number;

  /**
   * The first `#` after a space at or after the start of the last plain value searched from (`n`: none):
   * values are read in the text's order, so one search serves every value before it (see `inline`).
   */
  private commentAt = -1;

  /** The previous reading of the collection about to be read (see `hinted`). */
  private hint: { node: AstNode; value: Json } | undefined;
  private readonly editStart: number;

  constructor(
    private readonly s: string,
    private readonly off: number,
    prior: PriorReading | undefined,
    private readonly lend: boolean,
  ) {
    this.n = s.length;
    this.hint = prior && { node: prior.root, value: prior.value };
    this.editStart = prior ? prior.editStart : -1;
  }

  /** The hint for a collection of `kind` starting at `this.p`, if it read one there; the hint is used up. */
  private hinted(kind: 'object' | 'array'): { node: AstNode; value: Json; spots: number[] } | undefined {
    const h = this.hint;
    this.hint = undefined;
    const at = h && h.node.kind === kind && h.node.span.start === this.off + this.p ? spots.get(h.node) : undefined;
    return at && h && { node: h.node, value: h.value, spots: at };
  }

  /** Whether entry `i` of the previous reading starts here and everything that decides it lies before the edit. */
  private unchanged(prior: { spots: number[] } | undefined, i: number): boolean {
    // The reading of an entry looks at most one character past the start of the next content line.
    return !!prior && i * 3 < prior.spots.length && prior.spots[i * 3] === this.off + this.p && prior.spots[i * 3 + 2] + 1 < this.editStart;
  }

  /** Records where entry of `rec` ended (reading goes on at `this.p`) and where the next content starts. */
  private spot(rec: number[] | undefined, start: number, g: Gap): void {
    rec?.push(this.off + start, this.off + this.p, this.off + (g.line < 0 ? this.n : g.line + g.indent));
  }

  document(): FastDocument {
    const s = this.s;
    let g = this.gap(true);
    let start = -1;
    if (g.line >= 0 && g.indent === 0 && this.marker(g.line) === '---') {
      start = g.line;
      this.p = g.line + 3;
      this.afterValue();
      g = this.gap();
    }
    if (g.line < 0 || g.indent !== 0) throw GIVE_UP;
    this.p = g.line;
    const root = this.block(0);
    const end = this.p;
    const rest = this.gap();
    if (rest.line >= 0 || rest.comments.length) throw GIVE_UP;
    return {
      value: root.value,
      root: root.ast,
      range: [this.off + (start >= 0 ? start : root.ast.span.start - this.off), this.off + end, this.off + s.length],
    };
  }

  /** `---` or `...` when the line starting at `i` is a document marker. */
  private marker(i: number): string | undefined {
    const s = this.s;
    const c = s.charCodeAt(i);
    if ((c !== DASH && c !== 46) || s.charCodeAt(i + 1) !== c || s.charCodeAt(i + 2) !== c) return undefined;
    const after = s.charCodeAt(i + 3);
    return i + 3 >= this.n || after === NL || after === SP ? s.slice(i, i + 3) : undefined;
  }

  /**
   * From a line start: skips blank and comment lines, to the next content line. The answer is the
   * reader's one Gap object, filled again by the next call (each caller reads it before that): one
   * object per entry of a 540-element list was garbage, in a process whose young generation is small.
   */
  private gap(markerFirst = false): Gap {
    const s = this.s;
    const n = this.n;
    // Most gaps hold no comment: they share one empty list (never written to).
    let comments = NO_COMMENTS;
    let i = this.p;
    for (;;) {
      let k = i;
      while (k < n && s.charCodeAt(k) === SP) k++;
      if (k >= n) return this.gapAt(-1, 0, comments);
      const c = s.charCodeAt(k);
      if (c === NL) {
        i = k + 1;
        continue;
      }
      if (c === HASH) {
        if (comments === NO_COMMENTS) comments = [];
        comments.push(k - i);
        const e = s.indexOf('\n', k);
        if (e < 0) return this.gapAt(-1, 0, comments);
        i = e + 1;
        continue;
      }
      if (k === i && !markerFirst && this.marker(i) !== undefined) throw GIVE_UP;
      return this.gapAt(i, k - i, comments);
    }
  }

  private readonly lastGap: Gap = { line: -1, indent: 0, comments: NO_COMMENTS };

  private gapAt(line: number, indent: number, comments: number[]): Gap {
    const g = this.lastGap;
    g.line = line;
    g.indent = indent;
    g.comments = comments;
    return g;
  }

  /** The block collection whose first entry starts at column `indent` of the line at `this.p`. */
  private block(indent: number): Read {
    const at = this.p + indent;
    this.p = at;
    return this.isSeqItem(at) ? this.seq(indent) : this.map(indent);
  }

  private isSeqItem(i: number): boolean {
    const s = this.s;
    if (s.charCodeAt(i) !== DASH) return false;
    const c = s.charCodeAt(i + 1);
    return i + 1 >= this.n || c === SP || c === NL;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH || --this.budget < 0) throw GIVE_UP;
  }

  /** A block mapping at column `indent`; `this.p` is at its first key. */
  private map(indent: number): Read {
    this.enter();
    const off = this.off;
    const node: ObjectNode = {
      kind: 'object',
      span: { start: off + this.p, end: 0 },
      properties: [],
      parent: undefined,
      key: undefined,
      keySpan: undefined,
    };
    const value: { [key: string]: Json } = {};
    const prior = this.hinted('object');
    const priorValue = prior?.value as { [key: string]: Json } | undefined;
    const rec = this.lend ? ([] as number[]) : undefined;
    let end = 0;
    for (;;) {
      const keyStart = this.p;
      const i = node.properties.length;
      const was = prior && (prior.node as ObjectNode).properties[i];
      if (was && was.value && priorValue && this.unchanged(prior, i)) {
        this.newKey(value, was.key);
        was.value.parent = node;
        node.properties.push(was);
        value[was.key] = priorValue[was.key];
        this.p = prior.spots[i * 3 + 1] - off;
      } else {
        const key = this.key();
        this.newKey(value, key);
        const keySpan = { start: off + keyStart, end: off + this.p };
        this.p++; // the ':'
        this.spaces();
        this.hint =
          was?.value && priorValue && was.keySpan.start === keySpan.start ? { node: was.value, value: priorValue[was.key] } : undefined;
        const child = this.atLineEnd() ? this.blockValue(indent) : this.inline(indent);
        this.hint = undefined;
        const ast = child.ast;
        ast.parent = node;
        ast.key = key;
        ast.keySpan = keySpan;
        node.properties.push({ key, keySpan, value: ast });
        value[key] = child.value;
      }
      end = this.p;
      const g = this.afterEntry(rec, keyStart, indent);
      if (!g || g.indent < indent) break;
      this.sameIndent(g, indent);
      if (this.isSeqItem(this.p)) throw GIVE_UP;
    }
    node.span.end = off + end;
    if (rec) spots.set(node, rec);
    this.depth--;
    return { ast: node, value };
  }

  /** A block sequence at column `indent`; `this.p` is at its first `-`. */
  private seq(indent: number): Read {
    this.enter();
    const s = this.s;
    const off = this.off;
    const node: ArrayNode = {
      kind: 'array',
      span: { start: off + this.p, end: 0 },
      items: [],
      parent: undefined,
      key: undefined,
      keySpan: undefined,
    };
    const value: Json[] = [];
    const prior = this.hinted('array');
    const priorValue = prior?.value as Json[] | undefined;
    const rec = this.lend ? ([] as number[]) : undefined;
    let end = 0;
    for (;;) {
      const itemStart = this.p;
      const i = node.items.length;
      const was = prior && (prior.node as ArrayNode).items[i];
      if (was && priorValue && this.unchanged(prior, i)) {
        was.parent = node;
        node.items.push(was);
        value.push(priorValue[i]);
        this.p = prior.spots[i * 3 + 1] - off;
      } else {
        const lineStart = this.p - indent;
        this.p++; // the '-'
        if (!this.spaces() || this.atLineEnd()) throw GIVE_UP;
        const c = s.charCodeAt(this.p);
        if (c === HASH || this.isSeqItem(this.p)) throw GIVE_UP;
        this.hint = was && priorValue ? { node: was, value: priorValue[i] } : undefined;
        const item = this.keyColon(this.p) >= 0 ? this.map(this.p - lineStart) : this.inline(indent);
        this.hint = undefined;
        item.ast.parent = node;
        item.ast.key = i;
        node.items.push(item.ast);
        value.push(item.value);
      }
      end = this.p;
      const g = this.afterEntry(rec, itemStart, indent);
      if (!g || g.indent < indent || !this.isSeqItem(g.line + indent)) break;
      this.sameIndent(g, indent);
    }
    node.span.end = off + end;
    if (rec) spots.set(node, rec);
    this.depth--;
    return { ast: node, value };
  }

  /**
   * After an entry (which started at `start`) of the collection at column `indent`: records its spot
   * and finds the next content line, undefined at the end of the text. A line indented deeper would
   * continue the entry (a multi-line scalar) or be an error, and comments at the end of the text go
   * where the library lets them move a collection's end: both give up.
   */
  private afterEntry(rec: number[] | undefined, start: number, indent: number): Gap | undefined {
    const g = this.gap();
    this.spot(rec, start, g);
    if (g.line < 0) {
      if (g.comments.length) throw GIVE_UP;
      return undefined;
    }
    if (g.indent > indent) throw GIVE_UP;
    return g;
  }

  /** Moves to the next entry at the same column; comment lines before it must stand at that column too. */
  private sameIndent(g: Gap, indent: number): void {
    const comments = g.comments;
    for (let i = 0; i < comments.length; i++) if (comments[i] !== indent) throw GIVE_UP;
    this.p = g.line + indent;
  }

  /**
   * The value of `key:` at the end of its line: a block collection on the next lines, or nothing (null)
   * when the next entry of the same mapping follows. An empty value that ends its mapping is left to
   * the library: its end there depends on the lines after it.
   */
  private blockValue(indent: number): Read {
    const at = this.p;
    const next = this.lineEnd();
    const g = this.gap();
    if (g.line < 0) throw GIVE_UP;
    for (let i = 0; i < g.comments.length; i++) if (g.comments[i] !== g.indent) throw GIVE_UP;
    this.p = g.line;
    if (g.indent > indent) return this.block(g.indent);
    if (g.indent === indent && this.isSeqItem(g.line + indent)) {
      // A sequence may stand at its key's own column.
      this.p = g.line + indent;
      return this.seq(indent);
    }
    if (g.indent === indent && !g.comments.length) {
      // Nothing: an empty scalar where the spaces after the `:` end (the library's place for it).
      this.p = next;
      return { ast: this.scalar(at, at, null, '', 'plain'), value: null };
    }
    throw GIVE_UP;
  }

  /** Skips spaces; whether there were any. */
  private spaces(): boolean {
    const s = this.s;
    const from = this.p;
    while (this.p < this.n && s.charCodeAt(this.p) === SP) this.p++;
    return this.p > from;
  }

  /** At a line's end or at a comment (after the spaces `spaces` skipped). */
  private atLineEnd(): boolean {
    const c = this.s.charCodeAt(this.p);
    return this.p >= this.n || c === NL || c === HASH;
  }

  /** After a value: spaces, a comment after a space, the line break; `this.p` goes to the next line. */
  private afterValue(): number {
    const spaced = this.spaces();
    const c = this.s.charCodeAt(this.p);
    if (c === HASH && !spaced) throw GIVE_UP;
    if (this.p < this.n && c !== NL && c !== HASH) throw GIVE_UP;
    return this.lineEnd();
  }

  /** Moves past the current line's break (or to the end); returns that position. */
  private lineEnd(): number {
    const e = this.s.indexOf('\n', this.p);
    this.p = e < 0 ? this.n : e + 1;
    return this.p;
  }

  /** Whether `i` is a space, a line break or the end of the text. */
  private spaceOrEnd(i: number): boolean {
    const c = this.s.charCodeAt(i);
    return i >= this.n || c === SP || c === NL;
  }

  /**
   * The `:` of the implicit key starting at `i` (quoted or plain, on this line), or -1 when none starts
   * there. In a block mapping the `:` needs a space or the line's end after it, after a quoted key too.
   */
  private keyColon(i: number): number {
    const s = this.s;
    const c = s.charCodeAt(i);
    if (c === 34 || c === 39) {
      const close = this.quoteEnd(i);
      return close > 0 && s.charCodeAt(close) === COLON && this.spaceOrEnd(close + 1) ? close : -1;
    }
    if (c < 128 && INDICATOR[c]) return -1;
    for (let j = i; j < this.n; j++) {
      const d = s.charCodeAt(j);
      if (d === NL || (d === HASH && s.charCodeAt(j - 1) === SP)) return -1;
      if (d === COLON && this.spaceOrEnd(j + 1)) return j;
    }
    return -1;
  }

  /** An implicit key at `this.p`, which moves to its `:`. */
  private key(): string {
    const s = this.s;
    const start = this.p;
    const colon = this.keyColon(start);
    if (colon < 0) throw GIVE_UP;
    let key: string;
    const c = s.charCodeAt(start);
    if (c === 34 || c === 39) key = this.quoted(start, colon);
    else {
      if (s.charCodeAt(colon - 1) === SP) throw GIVE_UP;
      key = s.slice(start, colon);
      if (typeof plainValue(key) !== 'string') throw GIVE_UP;
    }
    this.p = colon;
    return key;
  }

  /** `key` goes into `value` (a mapping's value so far): a repeated key is a YAML error, and `__proto__` and `<<` are left to the library. */
  private newKey(value: { [key: string]: Json }, key: string): void {
    if (key === '__proto__' || key === '<<' || Object.prototype.hasOwnProperty.call(value, key)) throw GIVE_UP;
  }

  /** A value on the rest of the line (after `key: ` or `- `); `parent` is the enclosing collection's column. */
  private inline(parent: number): Read {
    const s = this.s;
    const start = this.p;
    const c = s.charCodeAt(start);
    if (c === 124 /* | */ || c === 62 /* > */) return this.blockScalar(parent);
    if (c === 91 /* [ */ || c === 123 /* { */) {
      const r = this.flow();
      this.afterValue();
      return r;
    }
    if (c === 34 || c === 39) {
      const v = this.readQuoted();
      const ast = this.scalar(start, this.p, v, v, c === 34 ? 'double' : 'single');
      this.afterValue();
      return { ast, value: v };
    }
    if (c < 128 && INDICATOR[c]) {
      // `-`, `?` and `:` start a plain scalar when a non-space follows.
      const d = s.charCodeAt(start + 1);
      if (!(c === DASH || c === 63 || c === COLON) || start + 1 >= this.n || d === SP || d === NL) throw GIVE_UP;
    }
    // The scalar ends at the line break or at a `#` after a space (never at `start`: a `#` there is
    // not read as a value). Native searches, not a loop over each character: the values of a 540-element
    // list are most of its text, read in a fresh process before V8 has compiled the loop (issue 39).
    let stop = s.indexOf('\n', start);
    if (stop < 0) stop = this.n;
    if (this.commentAt < start) {
      const h = s.indexOf(' #', start);
      this.commentAt = h < 0 ? this.n : h + 1;
    }
    if (this.commentAt < stop) stop = this.commentAt;
    let last = stop;
    while (last > start && s.charCodeAt(last - 1) === SP) last--;
    const text = s.slice(start, last);
    if (text.endsWith(':') || text.includes(': ')) throw GIVE_UP;
    this.p = last;
    this.afterValue();
    const v = plainValue(text);
    return { ast: this.scalar(start, last, v, text, 'plain'), value: v };
  }

  /*
   * Every node is made with its place in its parent (`parent`, `key`, `keySpan`) as fields that are
   * undefined (which every reader of the tree takes as absent), filled in when it is hung under its
   * parent: three properties added to each of the thousands of nodes of a long list were a change of
   * hidden class and a property store of their own each, in code not yet optimised.
   */
  private scalar(start: number, end: number, value: Json, source: string, style: ScalarStyle): ScalarNode {
    if (--this.budget < 0) throw GIVE_UP;
    return {
      kind: 'scalar',
      span: { start: this.off + start, end: this.off + end },
      value,
      style,
      source,
      parent: undefined,
      key: undefined,
      keySpan: undefined,
    };
  }

  /** The value of the quoted scalar at `this.p` (on this line), which moves past its closing quote. */
  private readQuoted(): string {
    const start = this.p;
    const close = this.quoteEnd(start);
    if (close < 0) throw GIVE_UP;
    this.p = close;
    return this.quoted(start, close);
  }

  /** Where the quoted scalar starting at `i` ends (after its closing quote), or -1 when not on this line. */
  private quoteEnd(i: number): number {
    const s = this.s;
    const q = s.charCodeAt(i);
    for (let j = i + 1; j < this.n; j++) {
      const d = s.charCodeAt(j);
      if (d === NL) return -1;
      if (q === 34 && d === 92 /* \ */) {
        j++;
        if (s.charCodeAt(j) === NL) return -1;
      } else if (d === q) {
        if (q === 39 && s.charCodeAt(j + 1) === 39) j++;
        else return j + 1;
      }
    }
    return -1;
  }

  /** The value of the quoted scalar at [start, end) (quotes included). */
  private quoted(start: number, end: number): string {
    const s = this.s;
    const body = s.slice(start + 1, end - 1);
    if (s.charCodeAt(start) === 39) return body.includes("''") ? body.replace(/''/g, "'") : body;
    if (!body.includes('\\')) return body;
    let out = '';
    for (let i = 0; i < body.length; i++) {
      const ch = body[i];
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const e = body[++i];
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        continue;
      }
      const len = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!len || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw GIVE_UP;
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw GIVE_UP;
      out += String.fromCodePoint(code);
      i += len;
    }
    return out;
  }

  /** A flow collection on one line at `this.p` (at `[` or `{`); `this.p` goes past its end. */
  private flow(): Read {
    this.enter();
    const s = this.s;
    const off = this.off;
    const open = s.charCodeAt(this.p);
    const start = this.p++;
    const close = open === 91 ? 93 : 125;
    const ast: ObjectNode | ArrayNode =
      open === 91
        ? { kind: 'array', span: { start: off + start, end: 0 }, items: [], parent: undefined, key: undefined, keySpan: undefined }
        : { kind: 'object', span: { start: off + start, end: 0 }, properties: [], parent: undefined, key: undefined, keySpan: undefined };
    // The value: an array for `[`, an object for `{` (one of them made, not both).
    const value: { [key: string]: Json } | Json[] = open === 91 ? [] : {};
    this.flowSpaces();
    if (s.charCodeAt(this.p) === close) {
      this.p++;
    } else {
      for (;;) {
        if (ast.kind === 'object') {
          const keyStart = this.p;
          const c = s.charCodeAt(keyStart);
          let key: string;
          if (c === 34 || c === 39) {
            key = this.readQuoted();
          } else {
            const t = this.flowPlain();
            if (typeof t.value !== 'string' || s.charCodeAt(this.p) !== COLON || s.charCodeAt(this.p + 1) !== SP) throw GIVE_UP;
            key = t.text;
          }
          const keySpan = { start: off + keyStart, end: off + this.p };
          if (s.charCodeAt(this.p) !== COLON) throw GIVE_UP;
          this.newKey(value as { [key: string]: Json }, key);
          this.p++;
          this.flowSpaces();
          const v = this.flowItem();
          v.ast.parent = ast;
          v.ast.key = key;
          v.ast.keySpan = keySpan;
          ast.properties.push({ key, keySpan, value: v.ast });
          (value as { [key: string]: Json })[key] = v.value;
        } else {
          const v = this.flowItem();
          v.ast.parent = ast;
          v.ast.key = ast.items.length;
          ast.items.push(v.ast);
          (value as Json[]).push(v.value);
        }
        this.flowSpaces();
        const d = s.charCodeAt(this.p);
        if (d === close) {
          this.p++;
          break;
        }
        if (d !== 44 /* , */) throw GIVE_UP;
        this.p++;
        this.flowSpaces();
        if (s.charCodeAt(this.p) === close || s.charCodeAt(this.p) === 44) throw GIVE_UP;
      }
    }
    ast.span.end = off + this.p;
    this.depth--;
    return { ast, value };
  }

  private flowSpaces(): void {
    this.spaces();
    const c = this.s.charCodeAt(this.p);
    if (this.p >= this.n || c === NL || c === HASH) throw GIVE_UP;
  }

  /** One value inside a flow collection. */
  private flowItem(): Read {
    const s = this.s;
    const start = this.p;
    const c = s.charCodeAt(start);
    if (c === 91 || c === 123) return this.flow();
    if (c === 34 || c === 39) {
      const v = this.readQuoted();
      return { ast: this.scalar(start, this.p, v, v, c === 34 ? 'double' : 'single'), value: v };
    }
    const t = this.flowPlain();
    // `a: b` inside a flow sequence is a one-pair mapping: left to the library.
    if (s.charCodeAt(this.p) === COLON) throw GIVE_UP;
    return { ast: this.scalar(start, start + t.text.length, t.value, t.text, 'plain'), value: t.value };
  }

  /** A plain scalar inside a flow collection; `this.p` goes to its end (before spaces). */
  private flowPlain(): { text: string; value: Json } {
    const s = this.s;
    const start = this.p;
    const c = s.charCodeAt(start);
    if (c < 128 && INDICATOR[c]) {
      const d = s.charCodeAt(start + 1);
      if (!(c === DASH || c === 63 || c === COLON) || d === SP || d === NL || (d < 128 && FLOW[d])) throw GIVE_UP;
    }
    let j = start;
    let last = start;
    for (; j < this.n; j++) {
      const d = s.charCodeAt(j);
      if (d === NL) throw GIVE_UP;
      if (d < 128 && FLOW[d]) break;
      if (d === COLON) {
        const e = s.charCodeAt(j + 1);
        if (e === SP || e === NL || (e < 128 && FLOW[e])) break;
      }
      if (d === HASH && s.charCodeAt(j - 1) === SP) throw GIVE_UP;
      if (d !== SP) last = j + 1;
    }
    if (last === start) throw GIVE_UP;
    const text = s.slice(start, last);
    this.p = last;
    return { text, value: plainValue(text) };
  }

  /**
   * A literal (`|`) or folded (`>`) block scalar whose header is at `this.p`; `parent` is the column
   * of the collection holding it. Explicit indentation, keep chomping (`+`), leading blank lines and
   * more-indented lines of a folded scalar are left to the library.
   */
  private blockScalar(parent: number): Read {
    const s = this.s;
    const start = this.p;
    const folded = s.charCodeAt(start) === 62;
    this.p++;
    let strip = false;
    const ch = s.charCodeAt(this.p);
    if (ch === DASH) {
      strip = true;
      this.p++;
    } else if (ch !== SP && ch !== NL && this.p < this.n) throw GIVE_UP;
    const headerEnd = this.afterValue();
    if (headerEnd >= this.n) throw GIVE_UP;
    // The first line sets the indentation.
    let k = headerEnd;
    while (k < this.n && s.charCodeAt(k) === SP) k++;
    const indent = k - headerEnd;
    if (k >= this.n || s.charCodeAt(k) === NL || indent <= parent) throw GIVE_UP;
    const lines: string[] = [];
    let contentEnd = headerEnd;
    let line = headerEnd;
    let blanks = 0;
    while (line < this.n) {
      let j = line;
      while (j < this.n && s.charCodeAt(j) === SP) j++;
      const e0 = s.indexOf('\n', j);
      const e = e0 < 0 ? this.n : e0;
      if (j === e) {
        // A blank line: spaces beyond the indentation would be content.
        if (j - line > indent) throw GIVE_UP;
        blanks++;
        line = e0 < 0 ? this.n : e + 1;
        continue;
      }
      if (j - line < indent) break;
      if (folded && j - line > indent) throw GIVE_UP;
      for (; blanks > 0; blanks--) lines.push('');
      lines.push(s.slice(line + indent, e));
      contentEnd = e0 < 0 ? this.n : e + 1;
      line = contentEnd;
    }
    this.p = contentEnd;
    let v: string;
    if (folded) {
      v = '';
      for (let i = 0; i < lines.length; i++) {
        if (lines[i] === '') v += '\n';
        else if (i > 0 && lines[i - 1] !== '') v += ' ' + lines[i];
        else v += lines[i];
      }
    } else v = lines.join('\n');
    // Clipped, the value ends with one line break, also where the text ends without one (as the library reads it).
    if (!strip) v += '\n';
    return { ast: this.scalar(start, contentEnd, v, v, 'block'), value: v };
  }
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/** A plain scalar's value in YAML 1.2's core schema (the `yaml` library's tags and their order). */
function plainValue(t: string): Json {
  if (t === '' || t === '~' || t === 'null' || t === 'Null' || t === 'NULL') return null;
  const c = t.charCodeAt(0);
  // Only these can start a non-string: digits, signs, '.', and the letters of true/false/null.
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 116 || c === 84 || c === 102 || c === 70)) return t;
  if (t === 'true' || t === 'True' || t === 'TRUE') return true;
  if (t === 'false' || t === 'False' || t === 'FALSE') return false;
  // A letter (t, f) starts no number: the patterns below are not tried on keys like `template` or `team`.
  if (c >= 65) return t;
  if (OCT.test(t)) return parseInt(t.slice(2), 8);
  if (INT.test(t)) return parseInt(t, 10);
  if (HEX.test(t)) return parseInt(t.slice(2), 16);
  if (INF_NAN.test(t)) throw GIVE_UP;
  if (EXP.test(t) || FLOAT.test(t)) return parseFloat(t);
  return t;
}

// Made once: a pattern literal in the function is a new RegExp object each time it is evaluated.
const OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const INF_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
