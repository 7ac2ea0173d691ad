/**
 * Duplicate mapping keys, found with one Map per mapping. The `yaml` library's own check
 * (`uniqueKeys: true`) compares every key with all earlier keys of its mapping, so 90,000 keys in a
 * cluster Secret's `data` cost minutes; Go's YAML readers check duplicates with a map too. The engine
 * composes with the library's check off and adds the library's error here, at the same place and in
 * the same words (`yaml` `compose/resolve-block-map.js`: "Map keys must be unique" at the key's start;
 * keys are equal when both are scalars with the same value, `===`, as `util-map-includes.js` compares).
 */
import * as YAML from 'yaml';
import { PARSE_OPTIONS } from './parseOptions';

/** Nodes visited between two steps of `duplicateKeySteps`. */
const NODES_PER_STEP = 4000;

/** Work counter for the tests: mapping entries looked at so far (never a clock). */
export const duplicateKeyWork = { keys: 0 };

/**
 * Adds the library's DUPLICATE_KEY error to `doc` for every key that repeats an earlier one of its
 * mapping; `text` is the text `doc` was composed from, found at `offset` in its file.
 */
export function* duplicateKeySteps(doc: YAML.Document.Parsed, text: string, offset: number): Generator<void, void> {
  const repeated: { map: YAML.YAMLMap; index: number }[] = [];
  const stack: unknown[] = [doc.contents];
  let n = 0;
  // What the library's own check would cost: it compares each key with every earlier one.
  let pairs = 0;
  while (stack.length) {
    const node = stack.pop();
    if (++n % NODES_PER_STEP === 0) yield;
    if (YAML.isMap(node)) {
      pairs += node.items.length * node.items.length;
      const seen = new Map<unknown, true>();
      node.items.forEach((pair, index) => {
        duplicateKeyWork.keys++;
        const key = pair.key;
        // NaN never equals itself (`===`), though a Map would find it.
        if (YAML.isScalar(key) && key.value === key.value) {
          if (seen.has(key.value)) repeated.push({ map: node as YAML.YAMLMap, index });
          else seen.set(key.value, true);
        }
        stack.push(pair.value, pair.key);
      });
    } else if (YAML.isSeq(node)) {
      for (const it of node.items) stack.push(it);
    } else if (YAML.isPair(node)) {
      stack.push(node.value, node.key);
    }
  }
  if (!repeated.length) return;
  // In a document with syntax errors, where the library lists a duplicate among them depends on its
  // error recovery; when its check is cheap here, the library's own list is taken (exact).
  if (doc.errors.length && pairs <= LIBRARY_CHECK_MAX && !doc.errors.some((e) => e.code === 'RESOURCE_EXHAUSTION')) {
    const own = libraryErrors(doc, text, offset);
    if (own) {
      doc.errors = own;
      return;
    }
  }
  const blockMaps = blockMapTokens(text, offset);
  const starts = new Map<YAML.YAMLMap, KeyStart[]>();
  const found = repeated.map(({ map, index }) => {
    let at = starts.get(map);
    if (!at) starts.set(map, (at = keyStarts(map, blockMaps.get(map.range?.[0] ?? -1))));
    const { start, valueFrom } = at[index];
    const error = new YAML.YAMLParseError([start, start + 1], 'DUPLICATE_KEY', 'Map keys must be unique');
    return { error, valueFrom, key: (map.items[index].key as YAML.Node | null)?.range ?? undefined };
  });
  doc.errors = mergeByPosition(doc.errors, found);
}

/**
 * Key comparisons (the sum of each mapping's keys squared) up to which a document with syntax errors
 * and a repeated key is composed again with the library's check on: 4 million is a few milliseconds,
 * and a mapping of 2,000 keys; past it the errors are merged by position (`mergeByPosition`).
 */
const LIBRARY_CHECK_MAX = 4_000_000;

/** `doc`'s errors as the library lists them with its own duplicate check (undefined if not found). */
function libraryErrors(doc: YAML.Document.Parsed, text: string, offset: number): YAML.YAMLError[] | undefined {
  try {
    const parser = new YAML.Parser();
    parser.offset = offset;
    const composer = new YAML.Composer({ ...PARSE_OPTIONS, uniqueKeys: true });
    const docs: YAML.Document.Parsed[] = [];
    for (const cst of parser.parse(text)) docs.push(...(composer.next(cst) as Iterable<YAML.Document.Parsed>));
    docs.push(...(composer.end() as Iterable<YAML.Document.Parsed>));
    return docs.find((d) => d.range?.[0] === doc.range?.[0])?.errors;
  } catch {
    return undefined;
  }
}

type BlockMapToken = Extract<YAML.CST.Token, { type: 'block-map' }>;
type SourceToken = YAML.CST.SourceToken;

/** The block mappings of `text`'s syntax tree by offset (read again only when a document repeats a key). */
function blockMapTokens(text: string, offset: number): Map<number, BlockMapToken> {
  const out = new Map<number, BlockMapToken>();
  const parser = new YAML.Parser();
  parser.offset = offset;
  const stack: (YAML.CST.Token | null | undefined)[] = [];
  try {
    for (const t of parser.parse(text)) stack.push(t);
  } catch {
    // The parser's own recursion overflowed (issue 25's YAML stack overflow): the keys' starts are
    // then the key nodes' own, which differ from the library's only after an empty value.
    return out;
  }
  while (stack.length) {
    const t = stack.pop();
    if (!t) continue;
    if (t.type === 'document') stack.push(t.value);
    else if (t.type === 'block-map') {
      out.set(t.offset, t);
      for (const it of t.items) stack.push(it.key, it.value);
    } else if (t.type === 'block-seq') for (const it of t.items) stack.push(it.value);
    else if (t.type === 'flow-collection') for (const it of t.items) stack.push(it.key, it.value);
  }
  return out;
}

const endOf = (tokens: SourceToken[] | undefined): number | undefined => {
  const last = tokens?.[tokens.length - 1];
  return last ? last.offset + last.source.length : undefined;
};

/**
 * Where the library reports a duplicate of a pair's key, and after which offset the errors it reports
 * after that duplicate begin: those of the pair's `:` and value and of later pairs (`valueFrom`).
 */
interface KeyStart {
  start: number;
  valueFrom: number;
}

/**
 * Where the library reports a duplicate of each pair's key (`compose/resolve-block-map.js`): the end of
 * the tokens before the key, or — when there are none — where the previous entry ended (its value's
 * end, or the end of its `:` and spaces). It checks the key once the tokens before it and the key are
 * read, so their errors come first in its list, even those after where it reports the duplicate; the
 * errors of the `:` and the value come after (those after the first of their tokens; with neither, those
 * after the key). A flow mapping's keys are reported where they start, before any error after that.
 */
function keyStarts(map: YAML.YAMLMap, token: BlockMapToken | undefined): KeyStart[] {
  const out = map.items.map((pair) => {
    const start = (pair.key as YAML.Node | null)?.range?.[0] ?? 0;
    return { start, valueFrom: start };
  });
  if (!token) return out;
  let at = token.offset;
  let p = 0;
  for (const item of token.items) {
    duplicateKeyWork.keys++;
    const props = item.start.some((s) => s.type === 'explicit-key-ind' || s.type === 'anchor' || s.type === 'tag');
    // An item with neither `:`, `?` nor properties is a comment or stray text: no pair.
    if (!props && !item.sep) continue;
    const pair = map.items[p];
    if (!pair) break;
    const start = endOf(item.start) ?? at;
    const key = pair.key as YAML.Node | null;
    const keyEnd = Math.max(start, key?.range?.[1] ?? start);
    out[p++] = { start, valueFrom: item.sep?.[0]?.offset ?? item.value?.offset ?? keyEnd };
    const value = pair.value as YAML.Node | null;
    at = value ? (value.range?.[2] ?? at) : (endOf(item.sep) ?? key?.range?.[2] ?? at);
  }
  return out;
}

/**
 * Whether the library reports `e` after the duplicate `dup` of the key at `key`: the errors after
 * `valueFrom`, a block collection in a flow collection that holds the duplicate, and the `MISSING_CHAR` "Implicit map keys need to be followed by map values" that it
 * reports at the key's own range once it has checked the key.
 */
function after(e: YAML.YAMLError, dup: Duplicate): boolean {
  if (e.pos[0] > dup.valueFrom) return true;
  // A block collection inside a flow collection is reported at its whole range once it is composed
  // (`compose/resolve-flow-collection.js`), so after the duplicates inside it.
  const at = dup.error.pos[0];
  if (e.code === 'BLOCK_IN_FLOW' && e.pos[0] <= at && at < e.pos[1]) return true;
  const key = dup.key;
  // The library's one MISSING_CHAR reported at a key's whole range is "Implicit map keys need to be
  // followed by map values" (`compose/resolve-block-map.js`, onError(keyNode.range)); the others it
  // reports at a token or a single character that is not a key (a tag, a comma's place, a quote's end).
  return !!key && e.code === 'MISSING_CHAR' && e.pos[0] === key[0] && e.pos[1] === key[1];
}

interface Duplicate {
  error: YAML.YAMLParseError;
  valueFrom: number;
  key: YAML.Range | undefined;
}

/**
 * The two lists of errors in the library's order: it reports a duplicate when it has read the key, so
 * after every error before the pair's `:` and value (see `after`). (An error the library finds at a
 * mapping's end can come after later keys in its list; findings are shown by position.)
 */
function mergeByPosition(errors: YAML.YAMLError[], added: Duplicate[]): YAML.YAMLError[] {
  added.sort((a, b) => a.error.pos[0] - b.error.pos[0]);
  const out: YAML.YAMLError[] = [];
  let j = 0;
  for (const e of errors) {
    while (j < added.length && after(e, added[j])) out.push(added[j++].error);
    out.push(e);
  }
  while (j < added.length) out.push(added[j++].error);
  return out;
}
