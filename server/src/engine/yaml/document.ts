/**
 * Reading a YAML file into its documents: values, located trees, syntax findings. YAML only: what a
 * document is (an ApplicationSet, argocd-apps values, an argo-cd chart's extraObjects) is decided above
 * the reader, in engine/kinds/ (kinds/file.ts), which reads each document as the reader hands it on.
 *
 * The `yaml` library keeps source ranges on every node; `nodeAt` maps a JSON path
 * (`['spec', 'generators', 0, 'list']`) back to the key and value spans, which is how every
 * diagnostic ends up on the precise node. `toJS` is bounded (`maxAliasCount`) so alias bombs end in
 * a diagnostic rather than an out-of-memory crash.
 */
import { isTrimmed } from './charClasses';
import * as YAML from 'yaml';
import type { EngineDiagnostic, Json, Span } from '../types';
import { astOf, builtTree, inheritTree, property, type AstNode } from './ast';
import { fastRead } from './fastRead';
import { lazyDocument, lazyMoved } from './lazyDocument';
import { guardYamlSteps } from './limits';
import { lineOfOffset, lineStarts } from './lines';
import { composeAllSteps, valueSteps, type Graft } from './composeSteps';
import { duplicateKeySteps } from './duplicateKeys';
import { finding } from '../diagnostics/codes';
import { runSteps } from '../steps';
import { diffTexts, reparseEntry } from './incremental';
import { PARSE_OPTIONS } from './parseOptions';
import { isStackOverflow } from '@appset-tools/gotemplate';

export type JsonPath = (string | number)[];

/** One document of a file, as read. */
export interface YamlDoc {
  /** Position of the document in the file (0-based). */
  index: number;
  doc: YAML.Document.Parsed;
  /** Span of the whole document (from its first content to its end). */
  span: Span;
  /** The document as JSON, or undefined when it could not be converted (syntax or alias errors). */
  value: Json | undefined;
}

/** A file read: its documents and the YAML findings about them. */
export interface YamlFile {
  text: string;
  docs: YamlDoc[];
  /** YAML syntax and conversion problems (code `yaml/syntax`, `yaml/alias-limit`). */
  diagnostics: EngineDiagnostic[];
  /**
   * The `---` parts of the text as parsed, by their text (see `splitDocuments`): the next parse of
   * an edited text re-parses only the parts that changed (undefined when the text was parsed whole).
   */
  parts?: Map<string, ParsedPart>;
  /** The same parts in the order of the text (by their index in `splitDocuments`; absent where `only` left one out). */
  order?: (ParsedPart | undefined)[];
  /**
   * How this parse went: parts parsed, re-used as they were, re-used at a new offset, made from
   * the previous parse of the part with one block entry parsed again (incremental.ts) — of those, the
   * ones whose value was made from the previous value (`values`), not converted whole —, or read again
   * by the fast reader after an edit (`read`, fastRead.ts).
   */
  reuse?: { parsed: number; reused: number; moved: number; spliced: number; values: number; read: number };
}

/** One `---` part of a text, parsed: its offset and its documents with their values. */
export interface ParsedPart {
  /** The part's text. */
  text: string;
  start: number;
  docs: RawDoc[];
  /**
   * The part ends with an error at its very end (an unterminated quoted string): in the whole text
   * the parser may read on past the `---` line (a quoted string does), so the text is parsed whole.
   */
  open: boolean;
}

interface RawDoc {
  doc: YAML.Document.Parsed;
  value: Json | undefined;
  /** Why the value could not be built (alias limits, or the converter ran out of stack), when it could not. */
  failure?: Failure;
}

interface Failure {
  /** The library's words, shown to the user as they are. */
  message: string;
  /** The converter ran out of stack (JavaScript's stack overflow; aliases over the limit are another error). */
  outOfStack: boolean;
}

/** A document whose value could not be built; reported only when it has no syntax errors (those already have their finding). */
function failed(doc: YAML.Document.Parsed, e: unknown): RawDoc {
  const failure = doc.errors.length === 0 ? { message: (e as Error).message, outOfStack: isStackOverflow(e) } : undefined;
  return { doc, value: undefined, failure };
}

/** Alias expansions allowed per document before conversion stops (the `yaml` library counts them). */
export const MAX_ALIAS_COUNT = 100;

/**
 * Called with each document once it is read and its YAML findings are in `diagnostics` (the file's, so
 * far): a reader above this one (kinds/file.ts) adds what it finds about the document right after them.
 */
export type EachDocument = (doc: YamlDoc, diagnostics: EngineDiagnostic[]) => void;

/**
 * Reads a file. With `previous` (the reading of an earlier text of the same file, e.g. before a
 * keystroke), only the `---` parts whose text changed are parsed again: an unchanged part at the
 * same offset keeps its documents (the same objects, so analyses and expansions keyed by them are
 * re-used), and one that moved keeps its parse and values, shifted to the new offset. With `only`,
 * the parts it refuses are not parsed at all (their documents are missing from the result).
 */
export function parseYamlFile(
  text: string,
  previous?: YamlFile,
  only?: (part: string) => boolean,
  reader: Reader = 'fast',
  each?: EachDocument,
): YamlFile {
  return runSteps(parseYamlFileSteps(text, previous, only, reader, each));
}

/**
 * Who reads a changed part: the fast reader where it can (fastRead.ts), else the library; `library`
 * leaves the fast reader out (the tests of the library's incremental re-parse use it).
 */
export type Reader = 'fast' | 'library';

/**
 * `parseYamlFile` in steps: it yields every few hundred tokens of the parser, so that the language
 * server can answer other requests between them (lsp/state.ts). Composing one document's nodes from
 * its tokens is the one part done in a single step.
 */
export function* parseYamlFileSteps(
  text: string,
  previous?: YamlFile,
  only?: (part: string) => boolean,
  reader: Reader = 'fast',
  each?: EachDocument,
): Generator<void, YamlFile> {
  const docs: YamlDoc[] = [];
  // Size, line length and nesting are checked before the parser sees the text (limits.ts).
  const guarded = yield* guardYamlSteps(text);
  const diagnostics: EngineDiagnostic[] = guarded.diagnostics;
  const reuse: Reuse = { parsed: 0, reused: 0, moved: 0, spliced: 0, values: 0, read: 0 };
  const split = splitDocuments(guarded.text);
  const byPart = split ? yield* readParts(guarded.text, split, previous, only, reader, reuse) : undefined;
  let raws = byPart?.raws;
  if (!raws) {
    raws = yield* parseRaw(guarded.text, 0, reader);
    reuse.parsed = 1;
    reuse.reused = reuse.moved = reuse.spliced = reuse.values = reuse.read = 0;
  }
  raws.forEach((raw, index) => {
    const yd = readDocument(text, raw, index, diagnostics);
    docs.push(yd);
    each?.(yd, diagnostics);
  });
  return { text, docs, diagnostics, parts: byPart?.parts, order: byPart?.order, reuse };
}

type Reuse = NonNullable<YamlFile['reuse']>;

/**
 * The documents of the text's parts (`split`), each part re-used from `previous` when it can be;
 * undefined when a part with an error makes the split unsafe (the text is then read whole).
 */
function* readParts(
  text: string,
  split: { start: number; end: number }[],
  previous: YamlFile | undefined,
  only: ((part: string) => boolean) | undefined,
  reader: Reader,
  reuse: Reuse,
): Generator<void, { raws: RawDoc[]; parts: Map<string, ParsedPart>; order: (ParsedPart | undefined)[] } | undefined> {
  const parts = new Map<string, ParsedPart>();
  const order: (ParsedPart | undefined)[] = [];
  const raws: RawDoc[] = [];
  for (const [i, { start, end }] of split.entries()) {
    const partText = text.slice(start, end);
    // A first pass over part of the file (service/firstPass.ts): the other parts are left out.
    if (only && !only(partText)) continue;
    const part = yield* readPart(partText, start, previous?.parts?.get(partText), previous?.order?.[i], reader, reuse);
    if (part.open && i < split.length - 1) return undefined;
    order[i] = part;
    // Two equal parts (the same ApplicationSet pasted twice) keep the first; the other is parsed.
    if (!parts.has(partText)) parts.set(partText, part);
    raws.push(...part.docs);
  }
  return { raws, parts, order };
}

/**
 * One part of the text at `start`: the previous reading's part of the same text (moved if need be),
 * else read fast, else with one entry of the part at the same place parsed again, else parsed.
 */
function* readPart(
  partText: string,
  start: number,
  old: ParsedPart | undefined,
  prior: ParsedPart | undefined,
  reader: Reader,
  reuse: Reuse,
): Generator<void, ParsedPart> {
  if (old && old.start === start) {
    reuse.reused++;
    return old;
  }
  if (old) {
    reuse.moved++;
    return { text: partText, start, docs: old.docs.map((r) => shifted(r, start - old.start)), open: old.open };
  }
  // Read fast, with the previous reading's entries before the edit taken as they are (fastRead.ts).
  const fast = reader === 'fast' ? readFast(partText, start, prior) : undefined;
  // Else an edit inside one block entry of the part: that entry is parsed again by the library.
  const spliced =
    !fast && prior && prior.start === start && prior.docs.length === 1
      ? reparseEntry(prior.docs[0].doc, prior.text, partText, start)
      : undefined;
  if (fast) {
    reuse.read++;
    return { text: partText, start, docs: fast, open: false };
  }
  if (spliced && prior) {
    // Its located tree re-uses the previous tree's nodes before the entry (ast.ts).
    inheritTree(spliced.doc, prior.docs[0].doc, spliced.before);
    // The value too: the previous one with the entry's value replaced (the rest shared).
    const value = prior.docs[0].value === undefined ? undefined : spliced.valueFrom(prior.docs[0].value, MAX_ALIAS_COUNT);
    reuse.spliced++;
    if (value !== undefined) reuse.values++;
    return {
      text: partText,
      start,
      docs: [value === undefined ? rawOf(spliced.doc) : { doc: spliced.doc, value: value as Json }],
      open: false,
    };
  }
  // The fast reader was tried above (it reads with or without the prior reading alike).
  const docs = yield* parseRaw(partText, start, 'library');
  // A part with an error may read differently alone than in the whole text: the library's error
  // recovery can carry an unterminated quote or an unclosed flow collection over the `---`, and
  // where a broken document's range ends depends on what follows it. The text is then read
  // whole, so the split never gives what the whole reading does not (issue 25).
  reuse.parsed++;
  return { text: partText, start, docs, open: docs.some((d) => d.doc.errors.length > 0) };
}

/** One document read, with its syntax findings (added to `diagnostics`). */
function readDocument(text: string, raw: RawDoc, index: number, diagnostics: EngineDiagnostic[]): YamlDoc {
  const { doc } = raw;
  let { value, failure } = raw;
  const overflow = parserOverflow(doc, text, failure);
  if (overflow) {
    // One finding instead of the library's hundreds, and the document is not read (not checked).
    diagnostics.push(overflow);
    value = undefined;
    failure = undefined;
  }
  syntaxFindings(text, overflow ? [] : doc.errors, diagnostics);
  const range = doc.range ?? [0, text.length, text.length];
  if (failure !== undefined)
    diagnostics.push(
      finding('yaml/alias-limit', `this document cannot be read: ${failure.message}`, {
        start: range[0],
        end: Math.max(range[0] + 1, range[1]),
      }),
    );
  return { index, doc, span: { start: range[0], end: range[2] ?? range[1] }, value };
}

/**
 * One finding per line: the parser's later complaints on a line (a tab in the indentation is
 * followed by "nested mappings…" and "implicit keys…" about the same text) repeat the first.
 * After a tab in the indentation the parser's reading of the lines below is off ("all mapping
 * items must start at the same column"): the tab is the one finding until it is fixed.
 */
function syntaxFindings(text: string, errors: readonly YAML.YAMLError[], diagnostics: EngineDiagnostic[]): void {
  if (!errors.length) return;
  const lines = new Set<number>();
  for (const err of errors) {
    const [start, end] = err.pos;
    const line = lineOfOffset(lineStarts(text), start);
    if (lines.has(line)) continue;
    lines.add(line);
    diagnostics.push(finding('yaml/syntax', syntaxMessage(err), { start, end: Math.max(end, start + 1) }));
    if (err.code === 'TAB_AS_INDENT') break;
  }
}

/**
 * The documents of `text` (found at `offset` in the file) with their values: read by the fast reader
 * when it can (fastRead.ts; the library's nodes are then made when asked for, lazyDocument.ts), else
 * by the library, in steps.
 */
function* parseRaw(text: string, offset: number, reader: Reader): Generator<void, RawDoc[]> {
  const fast = reader === 'fast' ? readFast(text, offset) : undefined;
  if (fast) return fast;
  const { docs, grafts } = yield* composeAllSteps(text, offset, PARSE_OPTIONS);
  const out: RawDoc[] = [];
  for (const doc of docs) {
    yield* duplicateKeySteps(doc, text, offset);
    yield;
    out.push(yield* rawSteps(doc, grafts));
  }
  return out;
}

/**
 * The part `text` at `offset` read by fastRead.ts; `prior`, the part that was here before an edit,
 * lends the entries before the edit when it was read at the same offset and its tree is built.
 */
function readFast(text: string, offset: number, prior?: ParsedPart): RawDoc[] | undefined {
  if (text.length > FAST_READ_MAX) return undefined;
  const was = prior && prior.start === offset && prior.docs.length === 1 ? prior.docs[0] : undefined;
  const root = was && was.value !== undefined ? builtTree(was.doc) : undefined;
  const edit = prior && root ? diffTexts(prior.text, text) : undefined;
  const fast = fastRead(
    text,
    offset,
    was && root && edit && prior
      ? { root, value: was.value as Json, editStart: offset + edit.start, text: prior.text, editEnd: edit.newEnd }
      : undefined,
  );
  return fast && [{ doc: lazyDocument(text, offset, fast), value: fast.value }];
}

/**
 * Parts longer than this are read by the library, in steps: the fast reader reads in one go (100 KiB:
 * about 5 ms, 15 ms on a server's first document; a 190 KiB list of 3,000 elements held the server's
 * first answer for 34 ms), and the language server's turns are 10 ms (lsp/scheduler.ts).
 */
const FAST_READ_MAX = 128 * 1024;

/** `rawOf` in steps: the items of a list composed apart are converted apart too (composeSteps.ts `valueSteps`). */
function* rawSteps(doc: YAML.Document.Parsed, grafts: Graft[]): Generator<void, RawDoc> {
  try {
    return { doc, value: (yield* valueSteps(doc, grafts, MAX_ALIAS_COUNT)) as Json };
  } catch (e) {
    return failed(doc, e);
  }
}

function rawOf(doc: YAML.Document.Parsed): RawDoc {
  try {
    return { doc, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Json };
  } catch (e) {
    return failed(doc, e);
  }
}

/** A parsed document moved by `delta` characters: a copy with every offset shifted (values are shared). */
function shifted(raw: RawDoc, delta: number): RawDoc {
  const lazy = lazyMoved(raw.doc, delta);
  if (lazy) return { doc: lazy, value: raw.value };
  const doc = raw.doc.clone() as YAML.Document.Parsed;
  const move = (r: number[] | undefined | null) => (r ? r.map((x) => x + delta) : r);
  if (doc.range) doc.range = move(doc.range) as typeof doc.range;
  YAML.visit(doc, (_key, node) => {
    const n = node as { range?: number[] | null };
    if (YAML.isNode(node) && n.range) n.range = move(n.range);
  });
  const moveError = <E extends YAML.YAMLError>(e: E): E =>
    Object.assign(Object.create(Object.getPrototypeOf(e) as object) as E, e, { pos: [e.pos[0] + delta, e.pos[1] + delta] });
  doc.errors = doc.errors.map(moveError);
  doc.warnings = doc.warnings.map(moveError);
  return { doc, value: raw.value, failure: raw.failure };
}

/**
 * Where a text splits into parts that parse on their own: before every `---` line (a document start
 * at column 0 ends whatever came before it: block scalars, flow collections; a quoted string does
 * not, which `parseYamlFile` notices by the error at the part's end), once the part
 * before it holds more than blank and comment lines. Undefined — parse the text whole — when a
 * line starts with `%` (directives carry over to later documents) or `...` (a document end, after
 * which the stream may continue differently).
 */
export function splitDocuments(text: string): { start: number; end: number }[] | undefined {
  // One document, nothing of what is looked for below at a line's start (a marker, a directive, a
  // tab, an explicit key): the whole text, from one native search. The pattern's line starts and ends
  // include more than the lines below (after a lone `\r`, U+2028), which only sends a text on.
  // A text holding none of the pattern's characters is not searched with it: the pattern is compiled in the
  // process's first answer, 0.07 ms of it on a small document (issue 39), and most ApplicationSets hold none.
  if (!mayHoldSplitFeature(text) || !SPLIT_FEATURES.test(text)) return [{ start: 0, end: text.length }];
  // A directive carries over to later documents; a tab at a line's start is an error only the whole
  // text may show (a tab-indented line before `---`); after a document end (`...`) the stream may
  // continue differently; where the library ends a document after an explicit key (`? k`) depends on
  // what follows the `---` (ranges one character apart; never an ApplicationSet's style).
  if (READ_WHOLE.test(text)) return undefined;
  // Only the lines before each `---` at column 0 are looked at, from the last back to the last content
  // line (not blank, a comment or a marker): a loop over every line ran before V8 had compiled it, about
  // 1 ms of the first answer on a file of 50 ApplicationSets (issue 39). What is known of the lines
  // before `known` (a line start): the last content line (trimmed: `lastFrom` to `lastTo`), whether a
  // comment line came after it, and whether a `--- value` line (content on a marker line) stands at or
  // after `start`, the current part's start.
  const out: { start: number; end: number }[] = [];
  let start = 0;
  let known = 0;
  let lastFrom = -1;
  let lastTo = -1;
  let commentLineAfter = false;
  let valueMarker = false;
  MARKER_LINE.lastIndex = 0;
  // The first line is looked at too when it is a marker (a `---\rx` there can make the text read whole).
  for (let i = FIRST_MARKER.test(text) ? 0 : nextMarker(text); i >= 0; i = nextMarker(text)) {
    let comment = false;
    let found = false;
    for (let end = i - 1; end >= known;) {
      const from = end > 0 ? text.lastIndexOf('\n', end - 1) + 1 : 0;
      const f = trimStart(text, from, end);
      const e = trimEnd(text, f, end);
      if (f === e) {
        // blank
      } else if (text.charCodeAt(f) === 0x23 /* # */) comment = true;
      else if (isMarker(text, f, e)) {
        if (valueAfterMarker(text, f, e)) valueMarker = true;
      } else {
        lastFrom = f;
        lastTo = e;
        commentLineAfter = comment;
        found = true;
        break;
      }
      end = from - 1;
    }
    if (!found && comment) commentLineAfter = true;
    known = i;
    // Some content since the part's start: the `---` ends it.
    const content = lastFrom >= start || valueMarker;
    // The marker line itself, when `trim()` does not leave a marker of it (`---\rx`), is the last content line.
    const lineEnd = text.indexOf('\n', i);
    const e = trimEnd(text, i, lineEnd < 0 ? text.length : lineEnd);
    if (!isMarker(text, i, e)) {
      lastFrom = i;
      lastTo = e;
      commentLineAfter = false;
    }
    // The last content line ends in an empty value (`key:`, `-`), and a comment line came after it: the
    // library ends that document's range before the comment's line break when a `---` follows, after it
    // when the part is read alone; such texts are read whole.
    if (lastFrom >= 0 && emptyValueThenComment(text.slice(lastFrom, lastTo), commentLineAfter)) return undefined;
    if (content) {
      out.push({ start, end: i });
      start = i;
      valueMarker = false;
    }
  }
  out.push({ start, end: text.length });
  return out;
}

/** The start of the next `---` line after MARKER_LINE's last match, or -1. */
function nextMarker(text: string): number {
  const m = MARKER_LINE.exec(text);
  return m ? m.index + 1 : -1;
}

/** Where the line from `from` to `end` starts once `trim()` took its white space away. */
function trimStart(text: string, from: number, end: number): number {
  while (from < end && isTrimmed(text.charCodeAt(from))) from++;
  return from;
}

/** Where the line from `from` to `end` ends once `trim()` took its white space away. */
function trimEnd(text: string, from: number, end: number): number {
  while (end > from && isTrimmed(text.charCodeAt(end - 1))) end--;
  return end;
}

/** The trimmed line from `f` to `e` is a document marker (`---`, alone or before a space or tab). */
function isMarker(text: string, f: number, e: number): boolean {
  return e - f >= 3 && text.startsWith('---', f) && (e - f === 3 || text.charCodeAt(f + 3) === 0x20 || text.charCodeAt(f + 3) === 0x09);
}

/** `--- value`: content after the marker (the trimmed line from `f` to `e`) and its spaces, not a comment. */
function valueAfterMarker(text: string, f: number, e: number): boolean {
  let j = f + 3;
  while (j < e && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j++;
  return j > f + 3 && j < e && !isTrimmed(text.charCodeAt(j)) && text.charCodeAt(j) !== 0x23;
}

/**
 * The last content line (trimmed) ends in an empty value (`key:`, `-`, before any comment on it) and a
 * comment follows: on the line itself (`key:  # note`; inside a quoted string this reads too much as a
 * comment, which only makes the text read whole) or on a line after it.
 */
function emptyValueThenComment(trimmed: string, commentLineAfter: boolean): boolean {
  const hash = trimmed.search(/[ \t]#/);
  const emptyLast = /(?:^|[ \t])-$|:$/.test(hash < 0 ? trimmed : trimmed.slice(0, hash).trimEnd());
  return emptyLast && (hash >= 0 || commentLineAfter);
}

/** A line start `splitDocuments` acts on (a superset: see there). */
const SPLIT_FEATURES = /^(?:---|\.\.\.|[%\t]| *\?(?:[ \t\r]|$))/m;

/** Whether `text` holds a character sequence each alternative of SPLIT_FEATURES needs. */
function mayHoldSplitFeature(text: string): boolean {
  return text.includes('---') || text.includes('...') || text.includes('%') || text.includes('\t') || text.includes('?');
}

/**
 * A line (after a line break, or the text's first) that makes `splitDocuments` read the text whole: a
 * directive, a tab, a document end `...` or an explicit key `?`, each marker or indicator before a space,
 * a tab, a carriage return, a line break or the text's end.
 */
const READ_WHOLE = /(?:^|\n)(?:[%\t]|\.\.\.(?![^ \t\r\n])| *\?(?![^ \t\r\n]))/;

/** A document marker at the start of a line after the first (its line break before it), as `READ_WHOLE` ends it. */
const MARKER_LINE = /\n---(?![^ \t\r\n])/g;
const FIRST_MARKER = /^---(?![^ \t\r\n])/;

/**
 * The YAML library ran out of stack on this document: it catches the RangeError itself and records it
 * as an error (code RESOURCE_EXHAUSTION) on every level it unwinds, or converting the nodes to values
 * threw it. Seen after one mis-indented line in a long list (a tab, an item out of line), which makes
 * every later item nest one level deeper in the library's error recovery. Go's parser reports that
 * line as a syntax error; we say the same place, and that the document is not checked.
 */
function parserOverflow(doc: YAML.Document.Parsed, text: string, failure: Failure | undefined): EngineDiagnostic | undefined {
  // Most documents: nothing to look at (no list made for them).
  if (!doc.errors.length && !failure?.outOfStack) return undefined;
  const exhausted = doc.errors.filter((e) => outOfStack(e, text));
  if (!exhausted.length && !failure?.outOfStack) return undefined;
  let cause: YAML.YAMLError | undefined;
  for (const e of doc.errors)
    if (!exhausted.includes(e) && e.code !== 'TAG_RESOLVE_FAILED' && (!cause || e.pos[0] < cause.pos[0])) cause = e;
  const range = doc.range ?? [0, 0, 0];
  const at = cause?.pos ?? exhausted[0]?.pos ?? [range[0], range[1]];
  return finding(
    'yaml/parser-overflow',
    `This document is not checked: the YAML parser ran out of stack reading it${
      cause ? `, after this syntax error: ${syntaxMessage(cause)}` : ''
    }. One mis-indented line in a long list (a tab, an item out of line) can nest every line after it one level deeper; fix it and the document is read again.`,
    { start: at[0], end: Math.max(at[1], at[0] + 1) },
  );
}

/**
 * Whether the library ran out of stack where this error is. It catches the RangeError itself and keeps
 * only its text, so the structure is the code and the place: a collection it could not compose
 * (RESOURCE_EXHAUSTION; the library's own comment on that catch: "almost certainly a stack overflow"),
 * or a failure to resolve a scalar that has no tag (`compose-scalar.ts`: a scalar without a tag is
 * resolved by the schema's default tags, whose resolvers report nothing, so only a throw lands there;
 * a tag's own failures are reported at the tag, whose text starts with `!`).
 */
function outOfStack(e: YAML.YAMLError, text: string): boolean {
  return e.code === 'RESOURCE_EXHAUSTION' || (e.code === 'TAG_RESOLVE_FAILED' && text[e.pos[0]] !== '!');
}

/**
 * A syntax error in the user's words: the library's message as it gives it (every reader turns its
 * pretty errors off, so there is no code frame to cut), except for a tab in the indentation.
 */
function syntaxMessage(e: YAML.YAMLError): string {
  // YAML 1.2 §6.1: indentation is spaces only; go-yaml (sigs.k8s.io/yaml, which Argo CD and kubectl
  // read with) stops at the tab with "found character that cannot start any token".
  if (e.code === 'TAB_AS_INDENT')
    return 'a tab in the indentation: YAML allows only spaces there (YAML 1.2 §6.1), so kubectl and Argo CD cannot read this document ("found character that cannot start any token"); indent with spaces';
  return e.message;
}

export interface NodeSpans {
  /** The key's span when the path ends at a map entry. */
  key?: Span;
  /** The value node's span (absent for `key:` with no value; then `key` is set). */
  value?: Span;
  /** The located node at the path (see ast.ts). */
  ast?: AstNode;
}

/**
 * Finds the node at a JSON path in the document's located tree. Returns the deepest existing
 * ancestor's spans with `exact: false` when the path does not exist entirely (useful for "missing
 * field" diagnostics).
 */
export function nodeAt(doc: YAML.Document.Parsed, path: JsonPath): NodeSpans & { exact: boolean } {
  let node = astOf(doc);
  let result: NodeSpans = node ? { value: node.span, ast: node } : {};
  for (const seg of path) {
    if (node?.kind === 'object') {
      const prop = property(node, String(seg));
      if (!prop) return { ...result, exact: false };
      node = prop.value;
      result = { key: prop.keySpan, value: node?.span, ast: node };
    } else if (node?.kind === 'array' && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) return { ...result, exact: false };
      node = item;
      result = { value: item.span, ast: item };
    } else {
      return { ...result, exact: false };
    }
  }
  return { ...result, exact: true };
}

/** The best span to underline for a path: the value, else the key, else the document start. */
export function spanAt(doc: YAML.Document.Parsed, path: JsonPath, prefer: 'key' | 'value' = 'value'): Span {
  const n = nodeAt(doc, path);
  const first = prefer === 'key' ? (n.key ?? n.value) : (n.value ?? n.key);
  if (first) return first;
  const r = doc.range ?? [0, 0, 0];
  return { start: r[0], end: r[0] + 1 };
}

/** What the cursor is on (`pathAt`): its JSON path and, for each prefix of it, the located node there. */
export interface CursorAt {
  path: JsonPath;
  onKey: boolean;
  node?: AstNode;
  span?: Span;
  /**
   * `trail[i]` is what `nodeAt` gives `path.slice(0, i)` (0 … path.length): the spans and node of each
   * field the cursor is inside, outermost first, read on the way down — a hover about an enclosing
   * field (the selector, the generator entry) takes its place from here, not from a look-up by path.
   */
  trail: NodeSpans[];
}

/**
 * The node-at-offset door: the JSON path of the innermost node at `offset`, whether the offset is on a
 * key, the span under the offset (the key's when on a key) and the trail of fields down to it. With
 * schema errors' instance paths (`validate/instancePath.ts`), the one way a feature starts from a
 * place rather than from the view (hover, completion, navigation, code actions; ARCHITECTURE.md).
 */
export function pathAt(doc: YAML.Document.Parsed, offset: number): CursorAt {
  const path: JsonPath = [];
  let node = astOf(doc);
  const trail: NodeSpans[] = [node ? { value: node.span, ast: node } : {}];
  const inside = (s: Span | undefined) => !!s && offset >= s.start && offset <= s.end;
  for (;;) {
    if (node?.kind === 'object') {
      let next: AstNode | undefined;
      for (const p of node.properties) {
        if (inside(p.keySpan)) {
          path.push(p.key);
          trail.push({ key: p.keySpan, value: p.value?.span, ast: p.value });
          return { path, onKey: true, node: p.value, span: p.keySpan, trail };
        }
        if (p.value && inside(p.value.span)) {
          path.push(p.key);
          trail.push({ key: p.keySpan, value: p.value.span, ast: p.value });
          next = p.value;
          break;
        }
      }
      if (!next) return { path, onKey: false, node, span: node.span, trail };
      node = next;
    } else if (node?.kind === 'array') {
      let idx = -1;
      node.items.forEach((it, i) => {
        if (inside(it.span)) idx = i;
      });
      if (idx < 0) return { path, onKey: false, node, span: node.span, trail };
      path.push(idx);
      node = node.items[idx];
      trail.push({ value: node.span, ast: node });
    } else {
      return { path, onKey: false, node, span: node?.span, trail };
    }
  }
}
