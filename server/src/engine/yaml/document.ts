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
import { astOf, property, type AstNode } from './ast';
import { guardYaml } from './limits';
import { argocdAppsAppSets, type HelmValuesOrigin } from './argocdApps';
import { severityOf } from '../diagnostics/codes';

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
  /**
   * Set when the ApplicationSet is an entry of the argocd-apps chart's `applicationsets` values
   * (helm/argocdApps.ts): `doc` is then a virtual document holding the values file's own nodes.
   */
  helmValues?: HelmValuesOrigin;
  /**
   * Set when the document is a patch of an ApplicationSet rather than a whole one (a kustomize patch,
   * a values override): why, in words (validate/partial.ts). Required fields are not asked of it and
   * it is not expanded on its own.
   */
  partial?: string;
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
  const docs: YamlDoc[] = [];
  const appsets: AppSetDoc[] = [];
  // Size, line length and nesting are checked before the parser sees the text (limits.ts).
  const guarded = guardYaml(text);
  const diagnostics: EngineDiagnostic[] = guarded.diagnostics;
  const parsed = YAML.parseAllDocuments(guarded.text, { prettyErrors: false, uniqueKeys: true, strict: false, logLevel: 'error' });
  const list = Array.isArray(parsed) ? parsed : [parsed as unknown as YAML.Document.Parsed];
  list.forEach((doc, index) => {
    for (const err of doc.errors) {
      const [start, end] = err.pos;
      diagnostics.push({
        code: 'yaml/syntax',
        severity: severityOf('yaml/syntax'),
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
          severity: severityOf('yaml/alias-limit'),
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
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const helm = argocdAppsAppSets(yd);
      appsets.push(...helm.appsets);
      diagnostics.push(...helm.diagnostics);
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

/**
 * The JSON path of the innermost node at `offset`, whether the offset is on a key, and the span
 * under the offset (the key's when on a key). Used by hover, completion and code actions.
 */
export function pathAt(doc: YAML.Document.Parsed, offset: number): { path: JsonPath; onKey: boolean; node?: AstNode; span?: Span } {
  const path: JsonPath = [];
  let node = astOf(doc);
  const inside = (s: Span | undefined) => !!s && offset >= s.start && offset <= s.end;
  for (;;) {
    if (node?.kind === 'object') {
      let next: AstNode | undefined;
      for (const p of node.properties) {
        if (inside(p.keySpan)) {
          path.push(p.key);
          return { path, onKey: true, node: p.value, span: p.keySpan };
        }
        if (p.value && inside(p.value.span)) {
          path.push(p.key);
          next = p.value;
          break;
        }
      }
      if (!next) return { path, onKey: false, node, span: node.span };
      node = next;
    } else if (node?.kind === 'array') {
      let idx = -1;
      node.items.forEach((it, i) => {
        if (inside(it.span)) idx = i;
      });
      if (idx < 0) return { path, onKey: false, node, span: node.span };
      path.push(idx);
      node = node.items[idx];
    } else {
      return { path, onKey: false, node, span: node?.span };
    }
  }
}
