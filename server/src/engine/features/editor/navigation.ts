/**
 * Parameters as symbols: go to definition, find references and rename, from a use in a template
 * (`.name`, `.metadata.labels.tier`, `{{path.basename}}`, `.values.x`) or from where a generator
 * defines it (a list element's key, a generator's `values:` entry).
 */
import type { AppSetContext } from '../context';
import type { Location, Span, TextEdit } from '../../types';
import { pathAt } from '../../yaml/document';
import { isObject } from '../../generators/params';
import { paramDefinitions, type ParamDef } from './paramDefs';
import { generatorSpecs, goTemplateOf, isGoIdentifier, paramUses, samePrefix, useAt, type ParamUse } from './paramUses';

export interface ParamAt {
  /** goTemplate: segments; fasttemplate: one flat key. */
  path: string[];
  /** The reference or the defining key under the cursor. */
  span: Span;
}

/** The parameter under the cursor: a use in a template string, or a key that defines one. */
export function paramAt(ctx: AppSetContext, offset: number): ParamAt | undefined {
  const use = useAt(ctx, offset);
  if (use) return { path: use.path, span: use.span };
  const at = pathAt(ctx.doc.doc, offset);
  if (!at.onKey || !at.span) return undefined;
  const span = at.span;
  const goTemplate = goTemplateOf(ctx);
  for (const g of generatorSpecs(ctx)) {
    const n = g.path.length;
    if (at.path.length <= n || !g.path.every((s, i) => at.path[i] === s)) continue;
    const rest = at.path.slice(n);
    // A list element's key: [elements, i, key, …]
    if (g.kind === 'list' && rest[0] === 'elements' && typeof rest[1] === 'number' && rest.length >= 3) {
      const keys = rest.slice(2).map(String);
      if (goTemplate) return { path: keys, span };
      if (keys.length === 1) return { path: [keys[0]], span };
      if (keys.length === 2 && keys[0] === 'values') return { path: [`values.${keys[1]}`], span };
      return undefined;
    }
    // A generator's values entry: [values, key]
    if (rest[0] === 'values' && rest.length === 2) return { path: goTemplate ? ['values', String(rest[1])] : [`values.${rest[1]}`], span };
  }
  return undefined;
}

export function definitionsAt(ctx: AppSetContext, offset: number): ParamDef[] {
  const p = paramAt(ctx, offset);
  return p ? paramDefinitions(ctx, p.path) : [];
}

/** Uses of the parameter under the cursor (and of anything below it: `.config` finds `.config.replicas`). */
export function referencesAt(ctx: AppSetContext, offset: number, includeDeclaration: boolean): Location[] {
  const p = paramAt(ctx, offset);
  if (!p) return [];
  const out: Location[] = paramUses(ctx)
    .filter((u) => samePrefix(p.path, u.path))
    .map((u) => ({ file: ctx.file.uri, span: u.span }));
  if (includeDeclaration) for (const d of paramDefinitions(ctx, p.path)) out.push({ file: d.file, span: d.span });
  return out;
}

export type RenameResult = { edits: TextEdit[] } | { error: string };

/** What rename would rename at the cursor: the first segment of the parameter, when list elements define it. */
export function prepareRenameAt(ctx: AppSetContext, offset: number): { span: Span; placeholder: string } | { error: string } | undefined {
  const p = paramAt(ctx, offset);
  if (!p) return undefined;
  const name = p.path[0];
  const check = renamable(ctx, name);
  if (check) return { error: check };
  const use = useAt(ctx, offset);
  const span = use ? (segmentSpan(ctx.file.text, use, name, goTemplateOf(ctx)) ?? p.span) : keySpan(ctx.file.text, p.span);
  return { span, placeholder: name };
}

/** Renames a list-element key in every element that has it and in every template that uses it. */
export function renameAt(ctx: AppSetContext, offset: number, newName: string): RenameResult | undefined {
  const p = paramAt(ctx, offset);
  if (!p) return undefined;
  const goTemplate = goTemplateOf(ctx);
  const name = p.path[0];
  const check = renamable(ctx, name);
  if (check) return { error: check };
  if (goTemplate && !isGoIdentifier(newName))
    return { error: `"${newName}" is not a Go identifier, so .${newName} would not parse; use letters, digits and _` };
  if (!goTemplate && (!newName || /[{}\s]/.test(newName))) return { error: `"${newName}" cannot be a fasttemplate key` };
  const text = ctx.file.text;
  const edits: TextEdit[] = [];
  for (const d of paramDefinitions(ctx, [name])) edits.push({ file: ctx.file.uri, span: keySpan(text, d.span), newText: newName });
  for (const u of paramUses(ctx)) {
    if (u.path[0] !== name) continue;
    const s = segmentSpan(text, u, name, goTemplate);
    if (s) edits.push({ file: ctx.file.uri, span: s, newText: newName });
  }
  return { edits: dedupe(edits) };
}

/** Why the parameter cannot be renamed here, or undefined when it can. */
function renamable(ctx: AppSetContext, name: string): string | undefined {
  const defs = paramDefinitions(ctx, [name]);
  if (!defs.length) return `no list element defines "${name}"`;
  const other = defs.find((d) => !d.renamable);
  if (other) return `"${name}" also comes from ${other.source}, which rename cannot change`;
  // Keys from elementsYaml or generated elsewhere are not in this document's list elements.
  const listed = generatorSpecs(ctx).some(
    (g) =>
      g.kind === 'list' &&
      Array.isArray(g.spec.elements) &&
      g.spec.elements.some((e) => isObject(e) && Object.prototype.hasOwnProperty.call(e, name)),
  );
  return listed ? undefined : `no list element defines "${name}"`;
}

/** A key's text without its quotes. */
function keySpan(text: string, span: Span): Span {
  const q = text[span.start];
  if ((q === '"' || q === "'") && text[span.end - 1] === q && span.end - span.start >= 2)
    return { start: span.start + 1, end: span.end - 1 };
  return span;
}

/** Where the first segment `name` of a use sits in the document (`.name`, `$.name`, `index . "name"`, fasttemplate `name`). */
function segmentSpan(text: string, u: ParamUse, name: string, goTemplate: boolean): Span | undefined {
  const src = text.slice(u.span.start, u.span.end);
  if (!goTemplate) return src === name ? u.span : undefined;
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?:^|[^\\p{L}\\p{Nd}_$])\\.(${esc})(?![\\p{L}\\p{Nd}_])|"(${esc})"`, 'u').exec(src);
  if (!m) return undefined;
  const inner = m[1] !== undefined ? m.index + m[0].length - name.length : m.index + 1;
  // The source may hold escapes (a double-quoted YAML string): only rename when it reads as the name.
  if (src.slice(inner, inner + name.length) !== name) return undefined;
  return { start: u.span.start + inner, end: u.span.start + inner + name.length };
}

function dedupe(edits: TextEdit[]): TextEdit[] {
  const seen = new Set<string>();
  return edits.filter((e) => {
    const k = `${e.file}@${e.span.start}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
