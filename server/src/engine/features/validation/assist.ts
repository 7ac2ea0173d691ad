/**
 * Editing help from the schema: completion of field names and allowed values, and hover on a field
 * (its type and, for fields whose meaning is not obvious, a short explanation in our own words).
 */
import { astOf, type AstNode } from '../../yaml/ast';
import type { AppSetContext } from '../context';
import type { CompletionItem, Hover } from '../../types';
import { pathAt, type JsonPath } from '../../yaml/document';
import { describeType, schemaAt } from '../../validate/schemaIndex';
import { dottedPath } from '../../validate/describe';

/** Values the controller understands for fields the CRD types only as strings. */
function knownValues(path: JsonPath): string[] | undefined {
  const p = path.filter((s) => typeof s === 'string').join('.');
  if (p === 'spec.strategy.type') return ['AllAtOnce', 'RollingSync'];
  if (p === 'spec.strategy.deletionOrder') return ['AllAtOnce', 'Reverse'];
  if (p === 'spec.strategy.rollingSync.steps.matchExpressions.operator') return ['In', 'NotIn'];
  if (p.endsWith('matchExpressions.operator')) return ['In', 'NotIn', 'Exists', 'DoesNotExist'];
  if (p === 'spec.goTemplateOptions') return ['missingkey=error', 'missingkey=zero', 'missingkey=default', 'missingkey=invalid'];
  return undefined;
}

/** Short explanations for fields whose behaviour is easy to get wrong. */
const FIELD_NOTES: Record<string, string> = {
  goTemplate:
    'Renders templates with Go text/template + Sprig instead of `{{param}}` substitution; also makes generator parameters nested (`.path.basename`) and typed.',
  goTemplateOptions:
    'Options for Go templates; only `missingkey=default|invalid|zero|error` are accepted. `missingkey=error` turns a missing parameter into an error instead of `<no value>`.',
  templatePatch:
    'A templated YAML/JSON patch applied to each generated Application (strategic merge: objects merge, lists are replaced). It cannot change `spec.project`.',
  applyNestedSelectors: 'Deprecated and ignored: selectors of nested generators always apply since Argo CD 3.0.',
  strategy:
    'How changes reach the generated Applications: `AllAtOnce` (default) or `RollingSync` (step by step; needs progressive syncs enabled on the controller).',
  type: 'For `strategy`: `AllAtOnce` or `RollingSync` (case-sensitive); any other value is treated as AllAtOnce.',
  maxUpdate:
    'How many Applications of this step may sync at the same time: an integer, or a percentage string like `"25%"` (rounded down, minimum 1 unless `"0%"`). `0` means the step is synced by hand. A quoted number like `"3"` is invalid and means 1.',
  deletionOrder:
    '`AllAtOnce` (default) or `Reverse`: when the ApplicationSet is deleted with RollingSync, delete Applications step by step, last step first.',
  mergeKeys:
    'Parameter names whose values identify the same parameter set across the merge children; later children override the first (base) child.',
  selector: 'Post-selector: keeps only parameter sets whose (flattened) parameters match. Operators: In, NotIn, Exists, DoesNotExist.',
  requeueAfterSeconds: 'How often the controller re-runs this generator (seconds).',
  preserveResourcesOnDeletion: 'When true, deleting an Application does not delete its resources (no resources finalizer is added).',
  applicationsSync:
    'Limits what the controller does to generated Applications: `create-only`, `create-update`, `create-delete` or `sync` (all).',
};

/**
 * The note for a field where it is: `selector` under `clusters` picks cluster Secrets, next to a
 * generator kind it is a post-selector; `type` only means something under `strategy`.
 */
function noteFor(path: JsonPath): string | undefined {
  const key = String(path[path.length - 1]);
  const parent = path[path.length - 2];
  if (key === 'selector') {
    if (parent === 'clusters') return CLUSTER_SELECTOR_NOTE;
    if (typeof parent === 'number' && path[path.length - 3] === 'generators') return FIELD_NOTES.selector;
    return undefined;
  }
  if (key === 'type' && path[1] !== 'strategy') return undefined;
  return FIELD_NOTES[key];
}

const CLUSTER_SELECTOR_NOTE =
  'Cluster selector: which cluster Secrets the cluster generator reads, by their labels (`matchLabels`, or `matchExpressions` with In, NotIn, Exists, DoesNotExist). Without it the generator reads every cluster Secret and adds the local in-cluster entry, which has no labels. Not a post-selector: it filters clusters before any parameter set exists.';

export function fieldHover(ctx: AppSetContext, offset: number): Hover | undefined {
  const at = pathAt(ctx.doc.doc, offset);
  if (!at.onKey || !at.span) return undefined;
  const schema = schemaAt(at.path);
  if (!schema) return undefined;
  const key = String(at.path[at.path.length - 1]);
  const lines = [`**${key}** — ${describeType(schema)}`, '', `\`${dottedPath(at.path)}\``];
  const note = noteFor(at.path);
  if (note) lines.push('', note);
  const values = schema.enum ?? knownValues(at.path);
  if (values) lines.push('', `Values: ${values.map((v) => `\`${v}\``).join(', ')}`);
  return { span: at.span, markdown: lines.join('\n') };
}

export function fieldCompletions(ctx: AppSetContext, offset: number): CompletionItem[] {
  const text = ctx.file.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const prefix = text.slice(lineStart, offset);
  // Typing a value: `key: par|`
  const valueMatch = /^(\s*(?:-\s+)?)([\w.\-/]+):\s+(\S*)$/.exec(prefix);
  if (valueMatch) {
    const keyCol = valueMatch[1].length;
    const mapPath = mapPathAt(ctx, offset, keyCol, valueMatch[1].includes('-'));
    if (!mapPath) return [];
    const path = [...mapPath, valueMatch[2]];
    const schema = schemaAt(path);
    const values = schema?.enum ?? knownValues(path) ?? (schema?.type === 'boolean' ? ['true', 'false'] : undefined);
    if (!values) return [];
    const span = { start: offset - valueMatch[3].length, end: offset };
    return values.map((v) => ({ label: v, kind: 'value', span }));
  }
  // Typing a key: `  par|` or `- par|`
  const keyMatch = /^(\s*(?:-\s+)?)([\w.\-/]*)$/.exec(prefix);
  if (!keyMatch) return [];
  const col = keyMatch[1].length;
  const mapPath = mapPathAt(ctx, offset, col, keyMatch[1].includes('-'));
  if (!mapPath) return [];
  const schema = schemaAt(mapPath);
  if (!schema?.properties) {
    const values = schema?.type === 'array' ? knownValues(mapPath) : undefined;
    return values && keyMatch[1].includes('-')
      ? values.map((v) => ({ label: v, kind: 'value', span: { start: offset - keyMatch[2].length, end: offset } }))
      : [];
  }
  const present = new Set(existingKeys(ctx, mapPath));
  const span = { start: offset - keyMatch[2].length, end: offset };
  return Object.keys(schema.properties)
    .filter((k) => !present.has(k) || k === keyMatch[2])
    .map((k) => {
      const s = schemaAt([...mapPath, k]);
      const container = s?.type === 'object' || s?.properties || s?.type === 'array';
      return {
        label: k,
        kind: 'property' as const,
        detail: describeType(s),
        documentation: FIELD_NOTES[k],
        insertText: container ? `${k}:\n${' '.repeat(col + 2)}` : `${k}: `,
        span,
      };
    });
}

function existingKeys(ctx: AppSetContext, path: JsonPath): string[] {
  let v: unknown = ctx.doc.value;
  for (const s of path) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[s] : undefined;
  return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
}

/**
 * The JSON path of the mapping a key typed at column `col` on the cursor's line belongs to: the
 * closest mapping above the cursor whose keys start at that column (or the list whose items do).
 */
function mapPathAt(ctx: AppSetContext, offset: number, col: number, dash = false): JsonPath | undefined {
  const text = ctx.file.text;
  const column = (pos: number) => pos - (text.lastIndexOf('\n', pos - 1) + 1);
  let best: { path: JsonPath; start: number } | undefined;
  let steps = 0;
  const visit = (node: AstNode | undefined, path: JsonPath) => {
    if (++steps > 20000 || !node) return;
    if (node.kind === 'object') {
      const first = node.properties[0]?.keySpan;
      if (!dash && first && first.start < offset && column(first.start) === col) {
        if (!best || first.start > best.start) best = { path, start: first.start };
      }
      for (const p of node.properties) if (p.keySpan.start < offset) visit(p.value, [...path, p.key]);
    } else if (node.kind === 'array') {
      node.items.forEach((it, i) => {
        if (it.span.start < offset) visit(it, [...path, i]);
      });
      // A new item `- ` in this list: the map path is the next index.
      const firstItem = node.items[0];
      if (dash && firstItem && firstItem.span.start < offset && column(firstItem.span.start) === col) {
        if (!best || firstItem.span.start > best.start) best = { path: [...path, node.items.length], start: firstItem.span.start };
      }
    }
  };
  visit(astOf(ctx.doc.doc), []);
  if (best) return best.path;
  // An empty document: top-level keys.
  return col === 0 ? [] : undefined;
}
