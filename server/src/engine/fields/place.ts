/**
 * Where a field of a document is: the spans a finding underlines, taken from the located tree
 * (`yaml/ast.ts`) while the located fields are read, so no check looks a path up afterwards.
 *
 * A field the document does not have gets the place of the nearest field around it that it does
 * have (`exact: false`): a finding about a missing `steps` sits on `rollingSync:`, one about a missing
 * `spec` on the document. That is the same fallback `yaml/document.ts` `spanAt` gives a path, so
 * moving a check onto the located fields moves none of its findings.
 */
import type { Json, Span } from '../types';
import { astOf, property, type AstNode } from '../yaml';
import type { AppSetDoc } from '../kinds';
import { own } from '../objects';

export interface Place {
  /** True when the document has this field; false: the spans are those of the nearest enclosing field. */
  exact: boolean;
  /** The located node of the value (undefined for `key:` with no value, or when not `exact`). */
  node?: AstNode;
  /** The key's span, when the field is a map entry. */
  keyRange?: Span;
  /** The value's span (absent for `key:` with no value). */
  valueRange?: Span;
  /** What to underline for the value: the value, else the key, else the document's start. */
  span: Span;
  /** What to underline for the field's name: the key, else the value, else the document's start. */
  keySpan: Span;
}

/** A field of the document: its value as the document's JSON has it, and its place. */
export interface Field<T = Json> extends Place {
  value: T | undefined;
}

/**
 * A field: its value and its place, the keys always in this order. Built without spreading conditional
 * parts into a literal (intermediate objects): every step down a field makes one (issue 39).
 */
function placedField(
  value: Json | undefined,
  node: AstNode | undefined,
  key: Span | undefined,
  valueSpan: Span | undefined,
  start: Span,
  exact: boolean,
): Field {
  const f = { value, exact } as Field;
  if (node) f.node = node;
  if (key) f.keyRange = key;
  if (valueSpan) f.valueRange = valueSpan;
  f.span = valueSpan ?? key ?? start;
  f.keySpan = key ?? valueSpan ?? start;
  return f;
}

/** Where the document starts, what a field gets when nothing around it is located either. */
function startOf(doc: AppSetDoc): Span {
  const r = doc.doc.range ?? [0, 0, 0];
  return { start: r[0], end: r[0] + 1 };
}

/** The document itself as a field: its JSON value and the root of its located tree. */
export function rootField(doc: AppSetDoc): Field {
  const root = astOf(doc.doc);
  const start = startOf(doc);
  return placedField(doc.value, root, undefined, root?.span, start, true);
}

/** A field with no document behind it (a strategy read from a bare value, in tests and tools). */
export function unplaced(value: Json | undefined): Field {
  const none = { start: 0, end: 0 };
  return { value, exact: false, span: none, keySpan: none };
}

/**
 * The field `seg` of `parent` (a map key or a list index), one step down from a node already held.
 * Not there: the parent's place, `exact: false`.
 */
export function sub(parent: Field, seg: string | number): Field {
  const pv = parent.value;
  const value = Array.isArray(pv) && typeof seg === 'number' ? pv[seg] : own(pv, String(seg));
  const n = parent.exact ? parent.node : undefined;
  if (n?.kind === 'object') {
    const p = propertyOf(n, String(seg));
    if (p) return placedField(value, p.value, p.keySpan, p.value?.span, p.keySpan, true);
  } else if (n?.kind === 'array' && typeof seg === 'number') {
    const item = n.items[seg];
    if (item) return placedField(value, item, undefined, item.span, item.span, true);
  }
  // `{ ...outside(parent), value }`: the same keys in the same order.
  const f = outside(parent) as Field;
  f.value = value;
  return f;
}

type Property = ReturnType<typeof property>;
/** Maps with more keys than this get an index, so walking every field of a big map stays linear. */
const INDEXED = 16;
const indexes = new WeakMap<AstNode, { size: number; byKey: Map<string, NonNullable<Property>> }>();

/** `property` (the first entry with that key, as `nodeAt` finds it), by an index kept per map node. */
function propertyOf(node: AstNode & { kind: 'object' }, key: string): Property {
  const props = node.properties;
  if (props.length <= INDEXED) return property(node, key);
  let ix = indexes.get(node);
  if (!ix || ix.size !== props.length) {
    const byKey = new Map<string, NonNullable<Property>>();
    for (const p of props) if (!byKey.has(p.key)) byKey.set(p.key, p);
    ix = { size: props.length, byKey };
    indexes.set(node, ix);
  }
  return ix.byKey.get(key);
}

/** The place of a field the document does not have: its nearest enclosing field's spans. */
function outside(parent: Place): Place {
  const { keyRange, valueRange, span, keySpan } = parent;
  const p = { exact: false } as Place;
  if (keyRange) p.keyRange = keyRange;
  if (valueRange) p.valueRange = valueRange;
  p.span = span;
  p.keySpan = keySpan;
  return p;
}

/**
 * A walk's path below a field, whose places are read only when asked (`here`): one step down at a time
 * from the deepest place already read on the way, at most one per level of the path. A walk that needs the
 * places of few values (a finding's key, a template string's) skips a place for every other value, which
 * was most of such a walk's cost over the ApplicationSets of a file (issue 39).
 */
export class LazyPath {
  /** The segments from the walk's field down to the value being walked. */
  readonly path: (string | number)[] = [];
  private readonly placed: Field[];

  constructor(from: Field) {
    this.placed = [from];
  }

  down(seg: string | number): void {
    this.path.push(seg);
  }

  up(): void {
    this.path.pop();
    if (this.placed.length > this.path.length + 1) this.placed.length = this.path.length + 1;
  }

  /** The place of the value at the end of the path. */
  here(): Field {
    const { path, placed } = this;
    for (let d = placed.length; d <= path.length; d++) placed.push(sub(placed[d - 1], path[d - 1]));
    return placed[path.length];
  }
}

/** A field `path` below `from`, step by step (each step from the node the previous one held). */
export function subPath(from: Field, path: readonly (string | number)[]): Field {
  let f = from;
  for (const seg of path) f = sub(f, seg);
  return f;
}
