/**
 * Small, formatting-preserving YAML text edits for the quick fixes: append an entry to a block
 * mapping or sequence at its own indentation, create missing parent keys, remove a key with its
 * block. Edits are computed from the `yaml` library's node ranges; nothing is re-serialised.
 */
import * as YAML from 'yaml';
import type { Span } from '../types';
import type { JsonPath } from './document';

export interface Edit {
  span: Span;
  newText: string;
}

/** Column (0-based) of an offset. */
export function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** Offset of the end of the line holding the last non-blank character before `end`. */
function endOfContent(text: string, end: number): number {
  let q = Math.min(end, text.length);
  while (q > 0 && /\s/.test(text[q - 1])) q--;
  const eol = text.indexOf('\n', q);
  if (eol < 0) return text.length;
  return text[eol - 1] === '\r' ? eol - 1 : eol;
}

/** The text's line break (CRLF files keep CRLF). */
function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function lookup(doc: YAML.Document.Parsed, path: JsonPath): { node: unknown; pair?: YAML.Pair } {
  let node: unknown = doc.contents;
  let pair: YAML.Pair | undefined;
  for (const seg of path) {
    if (YAML.isMap(node)) {
      pair = node.items.find((p) => (YAML.isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
      if (!pair) return { node: undefined };
      node = pair.value;
    } else if (YAML.isSeq(node) && typeof seg === 'number') {
      node = node.items[seg];
      pair = undefined;
    } else return { node: undefined };
  }
  return { node, pair };
}

/** Indentation step of the document (first nested block mapping's offset), default 2. */
export function indentUnit(text: string, doc: YAML.Document.Parsed): number {
  const root = doc.contents;
  if (YAML.isMap(root)) {
    for (const p of root.items) {
      const v = p.value;
      if (
        YAML.isMap(v) &&
        !v.flow &&
        v.items[0] &&
        YAML.isNode(v.items[0].key) &&
        v.items[0].key.range &&
        YAML.isNode(p.key) &&
        p.key.range
      ) {
        const d = columnOf(text, v.items[0].key.range[0]) - columnOf(text, p.key.range[0]);
        if (d > 0 && d <= 8) return d;
      }
    }
  }
  return 2;
}

/** Extra indentation of `- ` items under their key (0 for `key:\n- a`, else the unit). */
export function sequenceIndent(text: string, doc: YAML.Document.Parsed, unit: number): number {
  let found: number | undefined;
  YAML.visit(doc, {
    Pair(_, pair) {
      if (found !== undefined) return YAML.visit.BREAK;
      const v = pair.value;
      if (YAML.isSeq(v) && !v.flow && v.range && YAML.isNode(pair.key) && pair.key.range) {
        const dash = text.lastIndexOf('-', v.range[0]);
        found = Math.max(0, columnOf(text, dash) - columnOf(text, pair.key.range[0]));
        return YAML.visit.BREAK;
      }
      return undefined;
    },
  });
  return found ?? unit;
}

function indentLines(lines: string[], col: number, eol = '\n'): string {
  return lines.map((l) => (l ? ' '.repeat(col) + l : l)).join(eol);
}

/**
 * Appends `lines` (relative indentation, first line at column 0) as new entries of the block map or
 * sequence at `path`. Creates the missing tail of `path` as nested keys under the deepest existing
 * mapping. Flow collections get the entry inline when it is one line. Undefined when impossible.
 */
export function appendAt(
  text: string,
  doc: YAML.Document.Parsed,
  path: JsonPath,
  lines: string[],
  unit = indentUnit(text, doc),
): Edit | undefined {
  const nl = eolOf(text);
  for (let depth = path.length; depth >= 0; depth--) {
    const { node, pair } = lookup(doc, path.slice(0, depth));
    const missing = path.slice(depth).map(String);
    // Lines to add below the existing node: the missing keys, then the entries.
    const nested = [...missing.map((k, i) => ' '.repeat(unit * i) + `${k}:`), ...lines.map((l) => ' '.repeat(unit * missing.length) + l)];
    if (node === undefined && depth > 0 && !pair) continue;
    if (
      (node === null || (YAML.isScalar(node) && (node.value === null || node.value === ''))) &&
      pair &&
      YAML.isNode(pair.key) &&
      pair.key.range
    ) {
      // `key:` with no value: the entries go on the following lines, one step deeper than the key.
      const keyCol = columnOf(text, pair.key.range[0]);
      const at = endOfContent(text, YAML.isNode(node) && node.range ? node.range[1] : pair.key.range[1]);
      return { span: { start: at, end: at }, newText: nl + indentLines(nested, keyCol + unit, nl) };
    }
    if (YAML.isMap(node) || YAML.isSeq(node)) {
      if (!node.range) return undefined;
      if (node.flow) {
        if (nested.length !== 1) return undefined;
        const close = text.lastIndexOf(YAML.isMap(node) ? '}' : ']', node.range[1]);
        if (close < node.range[0]) return undefined;
        const entry = YAML.isSeq(node) ? nested[0].replace(/^- /, '') : nested[0];
        return { span: { start: close, end: close }, newText: (node.items.length ? ', ' : '') + entry };
      }
      const first = node.items[0] as unknown;
      let col: number;
      if (YAML.isMap(node)) {
        const k = first && YAML.isPair(first) && YAML.isNode(first.key) ? first.key.range : undefined;
        col = k ? columnOf(text, k[0]) : columnOf(text, node.range[0]);
      } else {
        col = columnOf(text, text.lastIndexOf('-', YAML.isNode(first) && first.range ? first.range[0] : node.range[0]));
        if (missing.length) return undefined; // keys cannot be added to a sequence
      }
      const at = endOfContent(text, node.range[1]);
      return { span: { start: at, end: at }, newText: nl + indentLines(nested, col, nl) };
    }
    return undefined;
  }
  return undefined;
}

/** Removes `key: value` (with a block value, all its lines) at `path`, whole lines only. */
export function removePair(text: string, doc: YAML.Document.Parsed, path: JsonPath): Edit | undefined {
  const { pair } = lookup(doc, path);
  if (!pair || !YAML.isNode(pair.key) || !pair.key.range) return undefined;
  const start = text.lastIndexOf('\n', pair.key.range[0] - 1) + 1;
  if (text.slice(start, pair.key.range[0]).trim() !== '') return undefined; // key shares its line (flow or `- key:`)
  const v = pair.value;
  const end = endOfContent(text, YAML.isNode(v) && v.range ? v.range[1] : pair.key.range[1]);
  const next = text.indexOf('\n', end);
  return { span: { start, end: next < 0 ? text.length : next + 1 }, newText: '' };
}

/** Replaces the whole `key: value` block at `path` by `lines` (first line at the key's column). */
export function replacePair(text: string, doc: YAML.Document.Parsed, path: JsonPath, lines: string[]): Edit | undefined {
  const { pair } = lookup(doc, path);
  if (!pair || !YAML.isNode(pair.key) || !pair.key.range) return undefined;
  const col = columnOf(text, pair.key.range[0]);
  const v = pair.value;
  const end = endOfContent(text, YAML.isNode(v) && v.range ? v.range[1] : pair.key.range[1]);
  return { span: { start: pair.key.range[0], end }, newText: indentLines(lines, col, eolOf(text)).slice(col) };
}

// Starting with a letter avoids every YAML 1.1 number form (0x10, 1e3, 1:20, 0b1, .5).
const PLAIN_SAFE = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;
const YAML11_SPECIAL = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

/** A string as a YAML scalar that stays a string for both YAML 1.1 (Go) and 1.2 parsers. */
export function yamlString(s: string): string {
  if (PLAIN_SAFE.test(s) && !YAML11_SPECIAL.test(s)) return s;
  return JSON.stringify(s);
}

/** The file's own style for lists of scalars: flow (`[a, b]`) when it uses more flow than block lists. */
export function prefersFlowLists(doc: YAML.Document.Parsed): boolean {
  let flow = 0;
  let block = 0;
  YAML.visit(doc, {
    Pair(_, pair) {
      const k = YAML.isScalar(pair.key) ? String(pair.key.value) : '';
      const v = pair.value;
      // goTemplateOptions is written `["missingkey=error"]` from the docs even in block-style files.
      if (k === 'goTemplateOptions' || !YAML.isSeq(v) || !v.items.length || !v.items.every((x) => YAML.isScalar(x))) return;
      if (v.flow) flow++;
      else block++;
    },
  });
  return flow > block;
}
