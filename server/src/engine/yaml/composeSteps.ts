/**
 * Composing a YAML document from its parser tokens in steps. The `yaml` library composes a whole
 * document in one call (a 6,000-line ApplicationSet with a 3,000-element list: tens of milliseconds
 * that held the language server). A document's longest block sequence is therefore composed apart:
 * all its items but the last, a few hundred a step, by a composer of their own (a block sequence
 * holding just those items, at the same offsets: the same nodes the whole document gives them); then
 * the document itself with that sequence cut to its last item (so every range around it comes out as
 * before); then the items are put back in front of the last one. Anything that could make the parts
 * differ from the whole falls back to one call: directives (`%`), an item that is not a `- ` entry
 * (a trailing comment line), and any error or warning while composing the items apart.
 * `test/unit/engine/yaml/compose-steps.test.ts` compares both ways over the repository's YAML and mutated texts.
 */
import * as YAML from 'yaml';
import { toJS, type ToJSContext } from 'yaml/util';

type Token = YAML.CST.Token;
type BlockSequence = YAML.CST.BlockSequence;
type Options = ConstructorParameters<typeof YAML.Composer>[0];

export interface ComposeLimits {
  /** Sequences with fewer items are composed with their document. */
  minItems: number;
  /** Items composed apart per step. */
  itemsPerStep: number;
}

export const COMPOSE_LIMITS: ComposeLimits = { minItems: 500, itemsPerStep: 200 };

/** Items composed apart, to put back into their sequence once the document is composed. */
export interface Graft {
  /** The sequence's offset (its nodes are found by it). */
  offset: number;
  items: YAML.Node[];
  /** Once put back: the document and the sequence. */
  doc?: YAML.Document.Parsed;
  seq?: YAML.YAMLSeq;
  /** No anchor or alias in or on the sequence: its items convert to values apart too (`valueSteps`). */
  plain?: boolean;
}

/**
 * Feeds `token` to `composer` (the documents it completes are returned), composing a long block
 * sequence of a document token apart first (see above); `grafts` receives what `graftAll` puts back.
 */
export function* composeToken(
  composer: YAML.Composer,
  token: Token,
  options: Options,
  grafts: Graft[],
  text: string,
  limits: ComposeLimits = COMPOSE_LIMITS,
): Generator<void, YAML.Document.Parsed[]> {
  const seq = token.type === 'document' && !/^%/m.test(text) ? longestSequence(token.value, limits.minItems) : undefined;
  if (seq) {
    const all = seq.items;
    const apart = yield* composeApart(all.slice(0, -1), seq, options, limits.itemsPerStep);
    if (apart) {
      seq.items = all.slice(-1);
      try {
        const done = [...composer.next(token)] as YAML.Document.Parsed[];
        grafts.push({ offset: seq.offset, items: apart });
        return done;
      } finally {
        seq.items = all;
      }
    }
  }
  return [...composer.next(token)] as YAML.Document.Parsed[];
}

/** Parser tokens between two steps of `composeAllSteps`. */
const TOKENS_PER_STEP = 256;

/**
 * The documents of `text` (found at `offset` in a file): what the library's
 * `Composer.compose(Parser.parse(text))` gives, fed one token at a time so that it can pause, with
 * each document's longest list composed apart and put back (`grafts`, for `valueSteps`).
 */
export function* composeAllSteps(
  text: string,
  offset: number,
  options: Options,
): Generator<void, { docs: YAML.Document.Parsed[]; grafts: Graft[] }> {
  const parser = new YAML.Parser();
  parser.offset = offset;
  const composer = new YAML.Composer(options);
  const docs: YAML.Document.Parsed[] = [];
  const grafts: Graft[] = [];
  let n = 0;
  for (const token of new YAML.Lexer().lex(text)) {
    for (const cst of parser.next(token)) docs.push(...(yield* composeToken(composer, cst, options, grafts, text)));
    if (++n % TOKENS_PER_STEP === 0) yield;
  }
  for (const cst of parser.end()) docs.push(...(yield* composeToken(composer, cst, options, grafts, text)));
  for (const doc of composer.end()) docs.push(doc as YAML.Document.Parsed);
  yield* graftAll(docs, grafts);
  return { docs, grafts };
}

/** The block sequence with the most items (at least `min`) in a document's tokens, if all of them are `- ` entries. */
function longestSequence(root: Token | undefined, min: number): BlockSequence | undefined {
  let best: BlockSequence | undefined;
  const stack: Token[] = root ? [root] : [];
  while (stack.length) {
    const t = stack.pop() as Token;
    if (t.type === 'block-seq') {
      if (t.items.length >= min && t.items.length > (best?.items.length ?? 0)) best = t;
      for (const it of t.items) if (it.value) stack.push(it.value);
    } else if (t.type === 'block-map') {
      for (const it of t.items) if (it.value) stack.push(it.value);
    }
  }
  if (!best) return undefined;
  return best.items.every((it) => it.start.some((s) => s.type === 'seq-item-ind')) ? best : undefined;
}

/** The nodes of `items` composed as a sequence of their own, in steps; undefined on any error or warning. */
function* composeApart(
  items: BlockSequence['items'],
  seq: BlockSequence,
  options: Options,
  perStep: number,
): Generator<void, YAML.Node[] | undefined> {
  const out: YAML.Node[] = [];
  for (let i = 0; i < items.length; i += perStep) {
    yield;
    const part = items.slice(i, i + perStep);
    const first = part[0].start[0];
    const value: BlockSequence = { type: 'block-seq', offset: first.offset, indent: seq.indent, items: part };
    const composer = new YAML.Composer(options);
    const docs = [
      ...composer.next({ type: 'document', offset: first.offset, start: [], value }),
      ...composer.end(),
    ] as YAML.Document.Parsed[];
    const doc = docs[0];
    if (docs.length !== 1 || doc.errors.length || doc.warnings.length || !YAML.isSeq(doc.contents)) return undefined;
    const composed = doc.contents.items as YAML.Node[];
    if (composed.length !== part.length) return undefined;
    out.push(...composed);
  }
  return out;
}

/** Nodes given the document's schema between two steps of `graftAll`. */
const NODES_PER_STEP = 4000;

/** Puts the grafted items back in front of their sequence's last item, in steps. */
export function* graftAll(docs: YAML.Document.Parsed[], grafts: Graft[]): Generator<void, void> {
  for (const g of grafts) {
    for (const doc of docs) {
      let target: YAML.YAMLSeq | undefined;
      YAML.visit(doc, {
        Seq(_key, node) {
          if (node.range?.[0] === g.offset) {
            target = node;
            return YAML.visit.BREAK;
          }
        },
      });
      if (!target) continue;
      target.items = [...g.items, ...target.items];
      g.doc = doc;
      g.seq = target;
      let plain = target.constructor === YAML.YAMLSeq && !target.anchor;
      // Collections keep the schema they were made with: the document's, as if composed with it.
      let n = 0;
      const stack: unknown[] = [...target.items];
      while (stack.length) {
        const node = stack.pop();
        if (++n % NODES_PER_STEP === 0) yield;
        if (YAML.isAlias(node) || (YAML.isNode(node) && node.anchor)) plain = false;
        if (YAML.isCollection(node)) {
          (node as { schema?: unknown }).schema = doc.schema;
          for (const it of node.items as unknown[]) stack.push(it);
        } else if (YAML.isPair(node)) {
          stack.push(node.key, node.value);
        }
      }
      g.plain = plain;
      break;
    }
  }
}

/** Items converted to values between two steps of `valueSteps`. */
const VALUES_PER_STEP = 200;

/**
 * `doc.toJS({ maxAliasCount })` in steps: the items of a grafted sequence without anchors or aliases
 * are converted first, a few hundred a step (nothing else can refer to them, so the order does not
 * matter), and the document's conversion takes them as the sequence's value.
 */
export function* valueSteps(doc: YAML.Document.Parsed, grafts: Graft[], maxAliasCount: number): Generator<void, unknown> {
  const seqs = grafts.filter((g) => g.doc === doc && g.plain && g.seq).map((g) => g.seq as YAML.YAMLSeq);
  if (!seqs.length) return doc.toJS({ maxAliasCount });
  const ctx: ToJSContext = { anchors: new Map(), doc, keep: true, mapAsMap: false, mapKeyWarned: false, maxAliasCount };
  try {
    for (const seq of seqs) {
      const values: unknown[] = [];
      for (const [i, item] of seq.items.entries()) {
        if (i % VALUES_PER_STEP === VALUES_PER_STEP - 1) yield;
        values.push(toJS(item, String(i), ctx));
      }
      Object.defineProperty(seq, 'toJSON', { value: () => values, configurable: true, writable: true });
    }
    return doc.toJS({ maxAliasCount });
  } finally {
    for (const seq of seqs) delete (seq as { toJSON?: unknown }).toJSON;
  }
}
