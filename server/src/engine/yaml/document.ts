/**
 * Parsing a YAML file into documents and finding the ApplicationSets among them.
 *
 * The `yaml` library keeps source ranges on every node; `nodeAt` maps a JSON path
 * (`['spec', 'generators', 0, 'list']`) back to the key and value spans, which is how every
 * diagnostic ends up on the precise node. `toJS` is bounded (`maxAliasCount`) so alias bombs end in
 * a diagnostic rather than an out-of-memory crash.
 */
import * as YAML from 'yaml';
import type { EngineDiagnostic, Json, Span } from '../types';

export type JsonPath = (string | number)[];

export interface YamlDoc {
  /** Position of the document in the file (0-based). */
  index: number;
  doc: YAML.Document.Parsed;
  /** Span of the whole document (from its first content to its end). */
  span: Span;
  /** The document as JSON, or undefined when it could not be converted (syntax or alias errors). */
  value: Json | undefined;
}

export interface AppSetDoc extends YamlDoc {
  value: { [key: string]: Json };
  /** `metadata.name`, or '' when absent. */
  name: string;
  /** `metadata.namespace`, or '' when absent. */
  namespace: string;
}

export interface ParsedFile {
  text: string;
  docs: YamlDoc[];
  appsets: AppSetDoc[];
  /** YAML syntax and conversion problems (code `yaml/syntax`, `yaml/alias-limit`). */
  diagnostics: EngineDiagnostic[];
}

/** Alias expansions allowed per document before conversion stops (the `yaml` library counts them). */
export const MAX_ALIAS_COUNT = 100;

export function isAppSetValue(v: unknown): v is { [key: string]: Json } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.kind === 'ApplicationSet' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('argoproj.io/');
}

export function parseFile(text: string): ParsedFile {
  const diagnostics: EngineDiagnostic[] = [];
  const docs: YamlDoc[] = [];
  const appsets: AppSetDoc[] = [];
  const parsed = YAML.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true, strict: false });
  const list = Array.isArray(parsed) ? parsed : [parsed as unknown as YAML.Document.Parsed];
  list.forEach((doc, index) => {
    for (const err of doc.errors) {
      const [start, end] = err.pos;
      diagnostics.push({
        code: 'yaml/syntax',
        severity: 'error',
        message: cleanYamlMessage(err.message),
        span: { start, end: Math.max(end, start + 1) },
      });
    }
    const range = doc.range ?? [0, text.length, text.length];
    let value: Json | undefined;
    if (doc.errors.length === 0) {
      try {
        value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Json;
      } catch (e) {
        diagnostics.push({
          code: 'yaml/alias-limit',
          severity: 'error',
          message: `this document cannot be read: ${(e as Error).message}`,
          span: { start: range[0], end: Math.max(range[0] + 1, range[1]) },
        });
      }
    } else {
      // Still try, so that a syntax error late in a document does not hide everything else.
      try {
        value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Json;
      } catch {
        value = undefined;
      }
    }
    const yd: YamlDoc = { index, doc, span: { start: range[0], end: range[2] ?? range[1] }, value };
    docs.push(yd);
    if (isAppSetValue(value)) {
      const md = (value.metadata ?? {}) as Record<string, Json>;
      appsets.push({
        ...yd,
        value,
        name: typeof md?.name === 'string' ? md.name : '',
        namespace: typeof md?.namespace === 'string' ? md.namespace : '',
      });
    }
  });
  return { text, docs, appsets, diagnostics };
}

function cleanYamlMessage(m: string): string {
  // The library appends a code-frame after a colon and newline; keep the first line.
  return m.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

export interface NodeSpans {
  /** The key's span when the path ends at a map entry. */
  key?: Span;
  /** The value node's span (absent for `key:` with no value; then `key` is set). */
  value?: Span;
  node?: YAML.Node | null;
}

/**
 * Finds the node at a JSON path. Returns the deepest existing ancestor's spans with `exact: false`
 * when the path does not exist entirely (useful for "missing field" diagnostics).
 */
export function nodeAt(doc: YAML.Document.Parsed, path: JsonPath): NodeSpans & { exact: boolean } {
  let node: unknown = doc.contents;
  let result: NodeSpans = spansOf(node as YAML.Node | null);
  for (const seg of path) {
    if (YAML.isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === String(seg));
      if (!pair) return { ...result, exact: false };
      node = pair.value;
      const keySpan = YAML.isNode(pair.key) && pair.key.range ? { start: pair.key.range[0], end: pair.key.range[1] } : undefined;
      result = { ...spansOf(pair.value as YAML.Node | null), key: keySpan };
    } else if (YAML.isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) return { ...result, exact: false };
      node = item;
      result = spansOf(item as YAML.Node | null);
    } else {
      return { ...result, exact: false };
    }
  }
  return { ...result, exact: true };
}

/** The best span to underline for a path: the value, else the key, else the document start. */
export function spanAt(doc: YAML.Document.Parsed, path: JsonPath, prefer: 'key' | 'value' = 'value'): Span {
  const n = nodeAt(doc, path);
  const first = prefer === 'key' ? n.key ?? n.value : n.value ?? n.key;
  if (first) return first;
  const r = doc.range ?? [0, 0, 0];
  return { start: r[0], end: r[0] + 1 };
}

function spansOf(node: YAML.Node | null | undefined): NodeSpans {
  if (node && YAML.isNode(node) && node.range) return { value: { start: node.range[0], end: node.range[1] }, node };
  return { node: node ?? null };
}

function keyText(k: unknown): string | undefined {
  if (YAML.isScalar(k)) return String(k.value);
  if (typeof k === 'string' || typeof k === 'number') return String(k);
  return undefined;
}

/**
 * The JSON path of the innermost node at `offset`, and whether the offset is on a key.
 * Used by hover, completion and code actions.
 */
export function pathAt(doc: YAML.Document.Parsed, offset: number): { path: JsonPath; onKey: boolean; node?: YAML.Node } {
  const path: JsonPath = [];
  let node: unknown = doc.contents;
  const onKey = false;
  for (;;) {
    if (YAML.isMap(node)) {
      let next: unknown;
      for (const p of node.items) {
        const k = p.key as YAML.Node | null;
        const v = p.value as YAML.Node | null;
        const kr = YAML.isNode(k) ? k.range : undefined;
        const vr = YAML.isNode(v) ? v.range : undefined;
        if (kr && offset >= kr[0] && offset <= kr[1]) {
          path.push(keyText(p.key) ?? '');
          return { path, onKey: true, node: k ?? undefined };
        }
        if (vr && offset >= vr[0] && offset <= vr[1]) {
          path.push(keyText(p.key) ?? '');
          next = v;
          break;
        }
      }
      if (next === undefined) return { path, onKey, node: node as YAML.Node };
      node = next;
    } else if (YAML.isSeq(node)) {
      let idx = -1;
      node.items.forEach((it, i) => {
        const r = YAML.isNode(it) ? it.range : undefined;
        if (r && offset >= r[0] && offset <= r[1]) idx = i;
      });
      if (idx < 0) return { path, onKey, node: node as YAML.Node };
      path.push(idx);
      node = node.items[idx];
    } else {
      return { path, onKey, node: (node as YAML.Node) ?? undefined };
    }
  }
}
