/**
 * Editing help from the schema: completion of field names and allowed values, and hover on a field
 * (its type, path and our documentation of it from validate/fieldDocs.ts).
 */
import { astOf, type AstNode, pathAt, type JsonPath } from '../../yaml';
import type { AppSetContext } from '../context';
import type { CompletionItem, Hover } from '../../types';
import { describeType, schemaAt, type SchemaNode } from '../../validate/schemaIndex';
import { fieldDoc, fieldDocMarkdown } from '../../validate/fieldDocs';
import { dottedPath } from '../../validate/describe';
import { fieldAddedIn, newerThan } from '../../versions/fields';
import { label } from '../../versions/releases';

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

export function fieldHover(ctx: AppSetContext, offset: number, withTrap = true): Hover | undefined {
  const at = pathAt(ctx.doc.doc, offset);
  if (!at.onKey || !at.span) return undefined;
  const schema = schemaAt(at.path);
  if (!schema) return undefined;
  const key = String(at.path[at.path.length - 1]);
  const lines = [`**${key}** — ${describeType(schema)}`, '', `\`${dottedPath(at.path)}\``];
  const values = schema.enum ?? knownValues(at.path);
  const doc = fieldDoc(at.path);
  if (doc) lines.push('', fieldDocMarkdown(withTrap ? doc : { ...doc, trap: undefined }, values));
  else if (values) lines.push('', `Values: ${values.map((v) => `\`${v}\``).join(', ')}.`);
  // A field not every supported release has: since when, and whether the target knows it (fields.ts).
  const since = at.path[0] === 'spec' ? fieldAddedIn(at.path.slice(1)) : undefined;
  if (since) {
    const target = ctx.target();
    lines.push('', `Since ${label(since)}.`);
    if (newerThan(since, target.line, target.belowOldest))
      lines.push(`Unknown to the release this ApplicationSet is checked against, whose API server drops it: ${target.why}.`);
  }
  return { span: at.span, markdown: lines.join('\n'), fieldDocs: true };
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
    const doc = fieldDoc(path);
    return values.map((v) => ({ label: v, kind: 'value', span, ...(doc ? { documentation: fieldDocMarkdown(doc) } : {}) }));
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
        documentation: docOf([...mapPath, k], s),
        insertText: container ? `${k}:\n${' '.repeat(col + 2)}` : `${k}: `,
        span,
      };
    });
}

function docOf(path: JsonPath, schema: SchemaNode | undefined): string | undefined {
  const d = fieldDoc(path);
  return d && fieldDocMarkdown(d, schema?.enum ?? knownValues(path));
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
