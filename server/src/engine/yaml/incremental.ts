/**
 * Re-parsing one edited block entry of a YAML document instead of the whole document.
 *
 * A keystroke in a long ApplicationSet changes one line of one list element or template field. The
 * `yaml` library can only parse whole texts, so `reparseEntry` finds the smallest block entry around
 * the edit (one `- ` item of a block sequence, or one `key: value` entry of a block mapping, with all
 * its lines), parses that entry's lines alone — at their own column and offset, so the new nodes carry
 * the offsets a whole parse would give them — and puts the new entry in a copy of the previous tree:
 * nodes before the edit are shared, nodes after it are copied with their offsets moved, the entry's
 * ancestors are copied with their ends moved.
 *
 * It gives up (the caller parses the document whole) whenever the entry's parse could differ from the
 * whole parse: errors or warnings before or after the edit, comments in or right around the entry
 * (the library attaches them to neighbouring nodes), block scalars (they can claim trailing lines),
 * anchors, aliases and tags (they reach across the document), a key that repeats a sibling's, an edit
 * that touches the entry's indentation or indicator or the line after it, an entry whose new text is
 * not exactly one entry at the same column, or a line after the entry that could continue it.
 * test/unit/engine/yaml/incremental.test.ts checks the result against the whole parse over thousands of
 * random edits.
 */
import * as YAML from 'yaml';
import { put } from '../objects';
import { runSteps } from '../steps';
import { duplicateKeySteps } from './duplicateKeys';
import { PARSE_OPTIONS } from './parseOptions';

/** An edit between two texts: `old.slice(start, oldEnd)` became `text.slice(start, newEnd)`. */
export interface TextEdit {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** Characters compared at once by `diffTexts` before it goes one by one. */
const DIFF_BLOCK = 256;

/** The one changed range between two texts (common prefix and suffix), or undefined when equal. */
export function diffTexts(a: string, b: string): TextEdit | undefined {
  if (a === b) return undefined;
  const max = Math.min(a.length, b.length);
  // Blocks first: comparing two slices is V8's own loop, ten times faster on a 111 KiB text than
  // `charCodeAt` per character (an editor's text is often a concatenation, slower to index).
  let p = 0;
  while (p + DIFF_BLOCK <= max && a.substring(p, p + DIFF_BLOCK) === b.substring(p, p + DIFF_BLOCK)) p += DIFF_BLOCK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  const room = max - p;
  let s = 0;
  while (
    s + DIFF_BLOCK <= room &&
    a.substring(a.length - s - DIFF_BLOCK, a.length - s) === b.substring(b.length - s - DIFF_BLOCK, b.length - s)
  )
    s += DIFF_BLOCK;
  while (s < room && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return { start: p, oldEnd: a.length - s, newEnd: b.length - s };
}

type Coll = YAML.YAMLMap<unknown, unknown> | YAML.YAMLSeq<unknown>;
type Range = [number, number, number];

/** One step from a collection down to the entry: the collection and the index of the item or pair. */
interface Step {
  coll: Coll;
  index: number;
}

/** A document with one entry parsed again (`reparseEntry`). */
export interface SplicedDoc {
  doc: YAML.Document.Parsed;
  /** The start of the re-parsed entry's first line: every node of `doc` that ends at or before it is the previous document's. */
  before: number;
  /**
   * The new document's value from the previous one's (`before`, its `toJS`): a copy along the path to
   * the entry, the entry's value converted anew, every other value shared. Undefined when `before`
   * does not have the previous tree's shape (then the caller converts the whole document).
   */
  valueFrom(before: unknown, maxAliasCount: number): unknown;
}

/**
 * The document `doc` (parsed from `oldText`, offsets relative to the file where `oldText` starts at
 * `base`) after `oldText` became `newText`, with one block entry parsed again; undefined when that is
 * not certain to equal a whole parse of `newText` (see the file comment).
 */
export function reparseEntry(doc: YAML.Document.Parsed, oldText: string, newText: string, base: number): SplicedDoc | undefined {
  if (doc.errors.length || doc.warnings.length || !YAML.isCollection(doc.contents) || !doc.range) return undefined;
  const e = diffTexts(oldText, newText);
  if (!e) return undefined;
  // File offsets of the edit.
  const a = base + e.start;
  const b = base + e.oldEnd;
  const delta = e.newEnd - e.oldEnd;

  const inner = innermostEntry(doc, oldText, base, a, b);
  if (!inner) return undefined;
  const { steps, entry } = inner;
  const { end, lineStart, pair } = entry;
  // Deeper steps than the entry chosen were pushed only when each was an entry: the last one is it.
  const last = steps[steps.length - 1];
  const newEnd = end + delta;
  if (!standsAlone(oldText, newText, base, entry, newEnd)) return undefined;
  const parsed = parseEntry(newText, base, entry, newEnd, last);
  if (!parsed) return undefined;
  const { fresh } = parsed;
  if (!plainTree(fresh) || !plainTree(pair ? (last.coll.items[last.index] as YAML.Pair) : last.coll.items[last.index])) return undefined;
  adopt(fresh, doc.schema);

  // A copy of the tree along the steps; the entry replaced, what follows it moved by delta.
  const rebuilt = rebuild(doc.contents, steps, 0, fresh, b, delta);
  const out = Object.create(Object.getPrototypeOf(doc) as object, Object.getOwnPropertyDescriptors(doc)) as YAML.Document.Parsed;
  out.contents = rebuilt as YAML.Document.Parsed['contents'];
  out.range = moveRange(doc.range as Range, b, delta) as typeof doc.range;
  out.errors = [];
  out.warnings = [];
  // An alias elsewhere may repeat the edited entry's value (it sits under an anchor): with an anchor
  // anywhere in the text, the whole document is converted.
  const anchored = ANCHOR.test(newText);
  return {
    doc: out,
    before: lineStart,
    valueFrom: (before, maxAliasCount) => (anchored ? undefined : spliceValue(before, steps, fresh, out, maxAliasCount)),
  };
}

/** The block entry chosen for parsing again: its first line's start, its content's end, its column. */
interface Entry {
  start: number;
  end: number;
  col: number;
  lineStart: number;
  pair: boolean;
}

/** The innermost block entry whose lines hold the edit (file offsets `a` to `b`), and the steps down to it. */
function innermostEntry(
  doc: YAML.Document.Parsed,
  oldText: string,
  base: number,
  a: number,
  b: number,
): { steps: Step[]; entry: Entry } | undefined {
  const at = (off: number) => oldText.charCodeAt(off - base);
  const steps: Step[] = [];
  let found: Entry | undefined;
  let node: unknown = doc.contents;
  for (;;) {
    if (!YAML.isCollection(node) || node.flow || !node.range) break;
    const items = node.items as unknown[];
    let index = -1;
    let entry: { start: number; end: number } | undefined;
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const span = YAML.isPair(it) ? pairSpan(it) : YAML.isNode(it) && it.range ? { start: it.range[0], end: it.range[1] } : undefined;
      if (!span) return undefined;
      if (span.start > b) break;
      if (span.start > a) continue;
      // The end of the line of the entry's last content (a collection's end includes its line break).
      let q = span.end - base;
      while (q > span.start - base && WHITE.has(oldText.charCodeAt(q - 1))) q--;
      const nl = oldText.indexOf('\n', q);
      const lineEnd = nl < 0 ? base + oldText.length : base + nl;
      if (b <= lineEnd) {
        index = i;
        entry = { start: span.start, end: lineEnd };
        break;
      }
    }
    if (index < 0 || !entry) break;
    const it = items[index];
    const pair = YAML.isPair(it);
    // Where the entry's first line starts, and the entry's column: a pair starts at its key, an item at its `-`.
    let start = entry.start;
    if (!pair) {
      let q = start - 1;
      while (q >= base && at(q) === 0x20) q--;
      if (q < base || at(q) !== 0x2d /* - */) break;
      start = q;
    }
    let lineStart = start;
    while (lineStart > base && at(lineStart - 1) !== 0x0a) lineStart--;
    // Only spaces and `- ` indicators may come before the entry on its line (`- key: v`, `- - a`).
    const prefix = oldText.slice(lineStart - base, start - base);
    if (!/^(?: |- )*$/.test(prefix)) break;
    const end = entry.end;
    if (!(start < a && b <= end)) break;
    steps.push({ coll: node as Coll, index });
    found = { start, end, col: start - lineStart, lineStart, pair };
    node = pair ? (it as YAML.Pair).value : it;
  }
  return found ? { steps, entry: found } : undefined;
}

/**
 * Nothing around the entry may belong to it: the line before is content, the line after is a
 * sibling or a parent's entry, and no comment is near.
 */
function standsAlone(oldText: string, newText: string, base: number, { end, col, lineStart, pair }: Entry, newEnd: number): boolean {
  const oldEntry = oldText.slice(lineStart - base, end - base);
  const newEntry = newText.slice(lineStart - base, newEnd - base);
  if (UNSAFE.test(oldEntry) || UNSAFE.test(newEntry)) return false;
  if (!lineBeforeIsContent(oldText, lineStart - base)) return false;
  if (!lineAfterEnds(oldText, end - base, col, pair)) return false;
  // An entry that ends, or ended, in an empty value (`key:`, `-`): the library ends the ranges of the
  // collections around it before that line's break, not after it, so moving the old ranges would
  // leave them one character off. Parsed whole instead (the case is rare: a value just deleted or typed).
  for (const t of [newEntry.trimEnd(), oldEntry.trimEnd()]) if (t.endsWith(':') || t.endsWith('-')) return false;
  // An edit that leaves blank lines at the entry's end (a line break typed at its last line): the
  // collections around it end before those lines, so they do not move with the edit (issue 25).
  if (!/\S/.test(newEntry.slice(newEntry.lastIndexOf('\n') + 1))) return false;
  return true;
}

/**
 * The entry's lines alone, the first one's prefix (`- `) made spaces, parsed at their offset: the new
 * pair or item, or undefined when it does not read as one entry where the old one stood.
 */
function parseEntry(
  newText: string,
  base: number,
  { start, col, lineStart, pair }: Entry,
  newEnd: number,
  last: Step,
): { fresh: unknown } | undefined {
  const fragment = ' '.repeat(col) + newText.slice(start - base, newEnd - base) + (newEnd - base < newText.length ? '\n' : '');
  const parsed = parseAt(fragment, lineStart);
  if (!parsed) return undefined;
  const top = parsed.contents;
  if (!YAML.isCollection(top) || top.flow || top.items.length !== 1 || !top.range || top.range[0] !== start) return undefined;
  if (pair) {
    if (!YAML.isMap(top)) return undefined;
    const p = top.items[0];
    if (!YAML.isScalar(p.key) || !p.key.range || p.key.range[0] !== start) return undefined;
    // A key that repeats a sibling's is an error only the whole mapping sees.
    const siblings = (last.coll as YAML.YAMLMap).items;
    const k = p.key.value;
    if (siblings.some((s, i) => i !== last.index && YAML.isScalar(s.key) && s.key.value === k)) return undefined;
    return { fresh: p };
  }
  if (!YAML.isSeq(top)) return undefined;
  return { fresh: top.items[0] };
}

/** Returned by `splice` when the previous value does not have the previous tree's shape. */
const MISMATCH = Symbol('mismatch');

/**
 * `before` with the entry at the end of `steps` replaced by the value of `fresh`, copied along the
 * steps and sharing the rest: what `toJS` of the new document gives (its objects hold a map's string
 * keys in the map's order, its arrays a sequence's items), checked level by level against the
 * previous tree, so that a value of another shape (keys that are not strings, or that JavaScript
 * orders differently, like `"1"`) falls back to the whole conversion.
 */
function spliceValue(before: unknown, steps: Step[], fresh: unknown, doc: YAML.Document.Parsed, maxAliasCount: number): unknown {
  const toJS = (n: unknown) => (YAML.isNode(n) ? n.toJS(doc, { maxAliasCount }) : null);
  const stringKey = (k: unknown) => (YAML.isScalar(k) && typeof k.value === 'string' ? k.value : undefined);
  const splice = (v: unknown, depth: number): unknown => {
    const { coll, index } = steps[depth];
    const last = depth === steps.length - 1;
    if (YAML.isSeq(coll)) {
      if (!Array.isArray(v) || v.length !== coll.items.length) return MISMATCH;
      const inner = last ? toJS(fresh) : splice(v[index], depth + 1);
      if (inner === MISMATCH) return MISMATCH;
      const out = v.slice();
      out[index] = inner;
      return out;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return MISMATCH;
    const keys = Object.keys(v);
    const pairs = (coll as YAML.YAMLMap).items;
    if (keys.length !== pairs.length) return MISMATCH;
    for (let i = 0; i < keys.length; i++) if (stringKey(pairs[i].key) !== keys[i]) return MISMATCH;
    const src = v as Record<string, unknown>;
    let newKey = keys[index];
    let inner: unknown;
    if (last) {
      newKey = stringKey((fresh as YAML.Pair).key) as string;
      if (newKey === undefined || (newKey !== keys[index] && (Object.prototype.hasOwnProperty.call(src, newKey) || /^\d+$/.test(newKey))))
        return MISMATCH;
      inner = toJS((fresh as YAML.Pair).value);
    } else inner = splice(src[keys[index]], depth + 1);
    if (inner === MISMATCH) return MISMATCH;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const k = i === index ? newKey : keys[i];
      const x = i === index ? inner : src[k];
      // `__proto__` from YAML is an ordinary key, as toJS makes it.
      put(out, k, x);
    }
    return out;
  };
  const v = splice(before, 0);
  return v === MISMATCH ? undefined : v;
}

/**
 * Text in or beside an entry that the entry's own parse may read differently: a comment (`#` at a
 * line start or after a blank), a block scalar indicator, an anchor, alias or tag at a node's
 * start, a directive or document marker, tabs (indentation errors), a complex key.
 */
const UNSAFE = /(?:^|[ \t])#|[|>][-+0-9]*[ \t]*(?:$|\n)|(?:^|[\s:\-[{,])[&*!]|\t|^[ -]*\?|(?:^|\n)(?:---|\.\.\.|%)/m;

/** An anchor (`&name`) where a node may start; in a quoted string it only costs the fast path. */
const ANCHOR = /(?:^|[\s:\-[{,])&/;

const WHITE = new Set([0x20, 0x0a, 0x0d, 0x09]);

/** The span of a block pair: from its key to the end of its value (or key). */
function pairSpan(p: YAML.Pair): { start: number; end: number } | undefined {
  const k = p.key;
  if (!YAML.isNode(k) || !k.range) return undefined;
  const v = p.value;
  if (v === null || v === undefined) return { start: k.range[0], end: k.range[1] };
  if (!YAML.isNode(v) || !v.range) return undefined;
  return { start: k.range[0], end: Math.max(k.range[1], v.range[1]) };
}

/** The line before `lineStart` holds content (not blank, not a comment) — or there is none before the entry's document. */
function lineBeforeIsContent(text: string, lineStart: number): boolean {
  if (lineStart === 0) return false;
  const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
  const line = text.slice(prevStart, lineStart - 1);
  const t = line.trim();
  return t !== '' && !/(?:^|[ \t])#/.test(line) && !line.includes('\t');
}

/**
 * After the entry's last line (`nl`, the offset of its line break) comes nothing, or a line that
 * starts a sibling or a parent's entry: indented less than the entry, or at its column and (for an
 * item) another `- `, (for a pair) not a `-` — never blank or a comment, which the whole parse could
 * attach to the entry.
 */
function lineAfterEnds(text: string, nl: number, col: number, pair: boolean): boolean {
  if (nl >= text.length) return true;
  const from = nl + 1;
  if (from >= text.length) return true;
  let eol = text.indexOf('\n', from);
  if (eol < 0) eol = text.length;
  const line = text.slice(from, eol);
  const indent = line.length - line.trimStart().length;
  const t = line.trimStart();
  if (t === '' || t.startsWith('#') || line.slice(0, indent).includes('\t')) return false;
  if (indent < col) return true;
  if (indent > col) return false;
  return pair ? !t.startsWith('-') && !t.startsWith('?') : t.startsWith('- ') || t === '-';
}

/** `text` parsed as one document whose first character is at `offset`; undefined on any error or warning. */
function parseAt(text: string, offset: number): YAML.Document.Parsed | undefined {
  const parser = new YAML.Parser();
  parser.offset = offset;
  const composer = new YAML.Composer(PARSE_OPTIONS);
  const docs: YAML.Document.Parsed[] = [];
  for (const cst of parser.parse(text)) for (const d of composer.next(cst)) docs.push(d as YAML.Document.Parsed);
  for (const d of composer.end()) docs.push(d as YAML.Document.Parsed);
  if (docs.length !== 1) return undefined;
  const d = docs[0];
  runSteps(duplicateKeySteps(d, text, offset));
  if (d.errors.length || d.warnings.length || d.comment || d.commentBefore) return undefined;
  return d;
}

/** No comment, anchor, tag, alias or block scalar anywhere in the subtree (see the file comment). */
function plainTree(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (n === null || n === undefined) continue;
    if (YAML.isPair(n)) {
      stack.push(n.key, n.value);
      continue;
    }
    if (!YAML.isNode(n) || YAML.isAlias(n)) return false;
    const x = n as YAML.Node & { commentBefore?: string | null; comment?: string | null; anchor?: string; tag?: string };
    if (x.commentBefore || x.comment || x.anchor || x.tag || x.spaceBefore) return false;
    if (YAML.isScalar(n)) {
      if (n.type === 'BLOCK_LITERAL' || n.type === 'BLOCK_FOLDED') return false;
    } else if (YAML.isCollection(n)) {
      if (Object.getPrototypeOf(n) !== (YAML.isMap(n) ? YAML.YAMLMap.prototype : YAML.YAMLSeq.prototype)) return false;
      for (const it of n.items as unknown[]) stack.push(it);
    } else return false;
  }
  return true;
}

/** The new entry's collections take the document's schema, as the whole parse gives them. */
function adopt(root: unknown, schema: YAML.Schema): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (YAML.isPair(n)) stack.push(n.key, n.value);
    else if (YAML.isCollection(n)) {
      (n as { schema?: YAML.Schema }).schema = schema;
      for (const it of n.items as unknown[]) stack.push(it);
    }
  }
}

/** A range with every offset at or after `b` (the old end of the edit) moved by `delta`. */
function moveRange(r: Range, b: number, delta: number): Range {
  return [r[0] >= b ? r[0] + delta : r[0], r[1] >= b ? r[1] + delta : r[1], r[2] >= b ? r[2] + delta : r[2]];
}

/** A shallow copy of a node (same prototype, same own properties, the library's node type included). */
function copyNode<T extends object>(n: T): T {
  return Object.create(Object.getPrototypeOf(n) as object, Object.getOwnPropertyDescriptors(n)) as T;
}

/** A copy of a subtree entirely after the edit, every offset moved by `delta`. */
export function moved<T>(n: T, delta: number): T {
  if (delta === 0 || n === null || n === undefined) return n;
  if (YAML.isPair(n)) return new YAML.Pair(moved(n.key, delta), moved(n.value, delta)) as T;
  const r = (n as { range?: Range | null }).range;
  if (!YAML.isNode(n)) return n;
  let c: YAML.Node;
  if (YAML.isScalar(n) && Object.getPrototypeOf(n) === YAML.Scalar.prototype) {
    const s = new YAML.Scalar(n.value) as unknown as Record<string, unknown>;
    const from = n as unknown as Record<string, unknown>;
    for (const k in from) if (k !== 'range' && k !== 'value') s[k] = from[k];
    c = s as unknown as YAML.Node;
  } else {
    const proto = Object.getPrototypeOf(n) as unknown;
    if (proto === YAML.YAMLMap.prototype || proto === YAML.YAMLSeq.prototype) {
      // The plain collections through their constructors (the node type and schema are not enumerable):
      // many times faster than copying property descriptors, and most of a long document is these.
      const from = n as unknown as Coll;
      const x = YAML.isMap(n) ? new YAML.YAMLMap(from.schema) : new YAML.YAMLSeq(from.schema);
      Object.assign(x, from);
      c = x;
    } else c = copyNode(n);
    if (YAML.isCollection(c)) (c as Coll).items = (n as unknown as Coll).items.map((it: unknown) => moved(it, delta)) as never;
  }
  if (r) c.range = [r[0] + delta, r[1] + delta, r[2] + delta];
  return c as T;
}

/** `node` copied along `steps` from `depth` on, the entry at the last step replaced by `fresh`. */
function rebuild(node: unknown, steps: Step[], depth: number, fresh: unknown, b: number, delta: number): unknown {
  const { index } = steps[depth];
  const coll = node as Coll;
  const c = copyNode(coll);
  const items = coll.items as unknown[];
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i < index) out[i] = items[i];
    else if (i > index) out[i] = moved(items[i], delta);
    else if (depth === steps.length - 1) out[i] = fresh;
    else {
      const it = items[i];
      if (YAML.isPair(it)) out[i] = new YAML.Pair(it.key, rebuild(it.value, steps, depth + 1, fresh, b, delta));
      else out[i] = rebuild(it, steps, depth + 1, fresh, b, delta);
    }
  }
  (c as { items: unknown[] }).items = out;
  if (coll.range) c.range = moveRange(coll.range as Range, b, delta);
  return c;
}
