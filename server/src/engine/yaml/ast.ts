/**
 * The located document model: a YAML document as a tree whose nodes carry their kind, value, span,
 * key span and parent, in the manner of vscode-json-languageservice's `ASTNode`. A check that walks
 * this tree holds the span of what it reads, instead of looking a JSON path up again afterwards.
 *
 * Built once per parsed document (lazily, cached by document) from the `yaml` library's nodes, which
 * stay an implementation detail of this folder. The walk is iterative and bounded, so a hostile
 * document (deep nesting, millions of nodes) ends the tree early rather than the process.
 */
import * as YAML from 'yaml';
import type { Span } from '../types';
import { runSteps } from '../steps';

export type ScalarStyle = 'plain' | 'single' | 'double' | 'block';

interface NodeBase {
  span: Span;
  parent?: AstNode;
  /** The property name (in an object) or index (in an array) of this node in its parent. */
  key?: string | number;
  /** The span of the key when this node is the value of an object property. */
  keySpan?: Span;
}

export interface ObjectNode extends NodeBase {
  kind: 'object';
  properties: PropertyNode[];
}

export interface PropertyNode {
  key: string;
  keySpan: Span;
  /** Undefined for `key:` with no value. */
  value?: AstNode;
}

export interface ArrayNode extends NodeBase {
  kind: 'array';
  items: AstNode[];
}

export interface ScalarNode extends NodeBase {
  kind: 'scalar';
  value: string | number | boolean | null | bigint | Date | unknown;
  style: ScalarStyle;
  /** The scalar's text as written (without quotes), when the parser kept it. */
  source?: string;
}

/** An alias (`*name`): its target is not copied into the tree. */
export interface AliasNode extends NodeBase {
  kind: 'alias';
}

export type AstNode = ObjectNode | ArrayNode | ScalarNode | AliasNode;

/** Nodes built per document at most; beyond it the rest of the document is left out of the tree. */
export const MAX_AST_NODES = 500_000;

const cache = new WeakMap<object, AstNode | null>();

/** Trees built whole (not cut at MAX_AST_NODES): only those lend subtrees to the next version's tree. */
const whole = new WeakSet<AstNode>();

/** A document made from an earlier one by re-parsing one entry (incremental.ts), and where that entry starts. */
const heirs = new WeakMap<object, { earlier: YAML.Document; before: number }>();

/**
 * `doc` was made from `earlier` by re-parsing one entry starting at offset `before`: every node of
 * `doc` that ends at or before it is `earlier`'s own node, unchanged. Its tree then re-uses the
 * subtrees of `earlier`'s tree that end there (a keystroke near the end of a long document builds a
 * few nodes, not the whole tree again).
 */
export function inheritTree(doc: YAML.Document, earlier: YAML.Document, before: number): void {
  heirs.set(doc, { earlier, before });
}

/**
 * Gives `doc` the tree `root`, built by another reader of the same text (fastRead.ts) that gives the
 * same tree `build` would (test/unit/engine/yaml/fast-read.test.ts).
 */
export function presetTree(doc: YAML.Document, root: AstNode): void {
  cache.set(doc, root);
  whole.add(root);
}

/** The tree of `doc` when it is built already (never builds it). */
export function builtTree(doc: YAML.Document): AstNode | undefined {
  return cache.get(doc) ?? undefined;
}

/** The tree of a parsed document (cached), or undefined for an empty document. */
export function astOf(doc: YAML.Document): AstNode | undefined {
  return runSteps(astSteps(doc));
}

/** Nodes built between two steps of `astSteps`. */
const NODES_PER_STEP = 4000;

/**
 * `astOf` in steps of a few thousand nodes (the language server builds the tree of a long document
 * between other requests; lsp/scheduler.ts). The same tree, cached the same way.
 */
export function* astSteps(doc: YAML.Document): Generator<void, AstNode | undefined> {
  let root = cache.get(doc);
  if (root === undefined) {
    const heir = heirs.get(doc);
    heirs.delete(doc);
    const earlier = heir && cache.get(heir.earlier);
    const lend = earlier && whole.has(earlier) ? { root: earlier, before: heir.before } : undefined;
    const built = (yield* build(doc.contents, lend)) ?? null;
    // Built meanwhile in one go by another caller: theirs is the tree (one tree per document).
    root = cache.get(doc) ?? built;
    cache.set(doc, root);
  }
  return root ?? undefined;
}

const spanOf = (n: YAML.Node): Span => (n.range ? { start: n.range[0], end: n.range[1] } : { start: 0, end: 0 });

const STYLES: Record<string, ScalarStyle> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'block',
  BLOCK_FOLDED: 'block',
};

function makeNode(n: unknown): AstNode | undefined {
  if (YAML.isMap(n)) return { kind: 'object', span: spanOf(n), properties: [] };
  if (YAML.isSeq(n)) return { kind: 'array', span: spanOf(n), items: [] };
  if (YAML.isScalar(n))
    return {
      kind: 'scalar',
      span: spanOf(n),
      value: n.value,
      style: STYLES[n.type ?? 'PLAIN'] ?? 'plain',
      source: (n as { source?: string }).source,
    };
  if (YAML.isAlias(n)) return { kind: 'alias', span: spanOf(n) };
  return undefined;
}

/** Text of a map key as the JSON conversion names it. */
export function keyText(k: unknown): string | undefined {
  if (YAML.isScalar(k)) return String(k.value);
  if (typeof k === 'string' || typeof k === 'number') return String(k);
  return undefined;
}

/**
 * The tree of `contents`, iteratively, at most MAX_AST_NODES nodes. With `lend`, the tree of the
 * document this one was made from: a subtree of it that ends at or before `lend.before`, at the same
 * place (same index, same key), is taken as it is and hung under its new parent.
 */
function* build(contents: unknown, lend?: { root: AstNode; before: number }): Generator<void, AstNode | undefined> {
  const root = makeNode(contents);
  if (!root) return undefined;
  let budget = MAX_AST_NODES;
  let pause = budget - NODES_PER_STEP;
  const before = lend?.before ?? -1;
  const stack: [unknown, AstNode, AstNode | undefined][] = [[contents, root, lend?.root]];
  const taken = (old: AstNode | undefined, span: Span): old is AstNode =>
    old !== undefined && old.span.end <= before && old.span.start === span.start && old.span.end === span.end;
  while (stack.length && budget > 0) {
    if (budget <= pause) {
      pause = budget - NODES_PER_STEP;
      yield;
    }
    const [src, node, was] = stack.pop() as [unknown, AstNode, AstNode | undefined];
    if (node.kind === 'object' && YAML.isMap(src)) {
      const wasProps = was?.kind === 'object' ? was.properties : undefined;
      for (const pair of src.items) {
        const key = keyText(pair.key);
        if (key === undefined || !YAML.isNode(pair.key)) continue;
        const keySpan = spanOf(pair.key);
        const prior = wasProps?.[node.properties.length];
        const old = prior && prior.key === key && prior.keySpan.start === keySpan.start ? prior.value : undefined;
        const child = YAML.isNode(pair.value) && taken(old, spanOf(pair.value)) ? old : makeNode(pair.value);
        if (child) {
          child.parent = node;
          child.key = key;
          child.keySpan = keySpan;
          if (child !== old) stack.push([pair.value, child, old]);
          budget--;
        }
        node.properties.push({ key, keySpan, value: child });
      }
    } else if (node.kind === 'array' && YAML.isSeq(src)) {
      const wasItems = was?.kind === 'array' ? was.items : undefined;
      src.items.forEach((item, i) => {
        const old = wasItems?.[i];
        const child =
          (YAML.isNode(item) && taken(old, spanOf(item)) ? old : makeNode(item)) ??
          ({ kind: 'scalar', span: node.span, value: null, style: 'plain' } as ScalarNode);
        child.parent = node;
        child.key = i;
        node.items.push(child);
        if (child !== old) stack.push([item, child, old]);
        budget--;
      });
    }
  }
  if (budget > 0) whole.add(root);
  return root;
}

/** The property of an object node by name (the first, where a duplicate key is already a syntax error). */
export function property(node: AstNode | undefined, key: string): PropertyNode | undefined {
  if (node?.kind !== 'object') return undefined;
  // A loop, not `find` with a closure: asked for every field read of every ApplicationSet.
  const properties = node.properties;
  for (let i = 0; i < properties.length; i++) if (properties[i].key === key) return properties[i];
  return undefined;
}

/** The child of a node by property name or index. */
export function child(node: AstNode | undefined, seg: string | number): AstNode | undefined {
  if (node?.kind === 'object') return property(node, String(seg))?.value;
  if (node?.kind === 'array' && typeof seg === 'number') return node.items[seg];
  return undefined;
}

/** The JSON path from the root to a node. */
export function pathOf(node: AstNode): (string | number)[] {
  const out: (string | number)[] = [];
  for (let n: AstNode | undefined = node; n?.parent; n = n.parent) out.push(n.key as string | number);
  return out.reverse();
}

/** Visits every node, depth first, parents before children; `visit` returning false skips a subtree. */
export function walk(root: AstNode | undefined, visit: (node: AstNode) => boolean | void): void {
  if (!root) return;
  const stack: AstNode[] = [root];
  while (stack.length) {
    const n = stack.pop() as AstNode;
    if (visit(n) === false) continue;
    if (n.kind === 'object') {
      for (let i = n.properties.length - 1; i >= 0; i--) {
        const v = n.properties[i].value;
        if (v) stack.push(v);
      }
    } else if (n.kind === 'array') for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
  }
}
