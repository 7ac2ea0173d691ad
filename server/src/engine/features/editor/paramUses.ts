/**
 * Where an ApplicationSet uses its parameters: every `{{ }}` reference in the strings the controller
 * renders with parameters (spec.template, the generators' own templates, templatePatch, generator
 * `values`), as a span in the document. The base of go to definition, find references, rename,
 * semantic tokens and "did you mean" fixes.
 */
import type { AppSetContext } from '../context';
import type { Span } from '../../types';
import type { JsonPath } from '../../yaml';
import { fieldsOf } from '../../fields/appset';
import { sub, type Field } from '../../fields/place';
import { referencedParams } from '@appset-tools/gotemplate';
import { isObj } from '../../objects';
import { COMBINING_KINDS, GENERATOR_KINDS } from '../../rules/generatorKinds';
import { valueSpan } from '../../yaml';

export interface ParamUse {
  /** Param path: ['metadata', 'labels', 'tier'] in goTemplate mode; one flat key in fasttemplate mode. */
  path: string[];
  /** The reference in the document (`.metadata.labels.tier`, `index .metadata.labels "tier"`, `tier`). */
  span: Span;
  /** The template string holding it. */
  at: JsonPath;
}

export interface TemplateString {
  at: JsonPath;
  value: string;
  /** Span of the scalar node in the document. */
  span: Span;
}

const MAX_STRINGS = 20000;

/** Strings with `{{` that the controller renders against a parameter set. */
export function templateStrings(ctx: AppSetContext): TemplateString[] {
  return templateStringsRead(ctx).list;
}

/** Whether `templateStrings` stopped at its bound (20,000 strings): rename then refuses rather than change only some. */
export function templateStringsCut(ctx: AppSetContext): boolean {
  return templateStringsRead(ctx).cut;
}

function templateStringsRead(ctx: AppSetContext): { list: TemplateString[]; cut: boolean } {
  return ctx.memo('templateStrings', () => {
    const out: TemplateString[] = [];
    let cut = false;
    const view = fieldsOf(ctx.doc);
    // Each string's place is read with it, one step down the located fields at a time.
    const visit = (f: Field, at: JsonPath) => {
      const v = f.value;
      if (cut) return;
      if (typeof v === 'string') {
        if (!v.includes('{{')) return;
        if (out.length >= MAX_STRINGS) cut = true;
        else if (f.exact && f.valueRange) out.push({ at, value: v, span: f.valueRange });
      } else if (Array.isArray(v)) v.forEach((_x, i) => visit(sub(f, i), [...at, i]));
      else if (isObj(v)) for (const k of Object.keys(v)) visit(sub(f, k), [...at, k]);
    };
    if (isObj(ctx.doc.value.spec)) {
      visit(view.template, ['spec', 'template']);
      if (typeof view.templatePatch.value === 'string') visit(view.templatePatch, ['spec', 'templatePatch']);
    }
    for (const g of generatorSpecs(ctx)) {
      if (isObj(g.spec.template)) visit(sub(g.at, 'template'), [...g.path, 'template']);
      if (isObj(g.spec.values)) visit(sub(g.at, 'values'), [...g.path, 'values']);
    }
    return { list: out, cut };
  });
}

export interface GeneratorSpec {
  kind: string;
  /** Path of the kind's object, e.g. ['spec', 'generators', 0, 'matrix', 'generators', 1, 'list']. */
  path: JsonPath;
  /** The kind's object with its place. */
  at: Field;
  spec: Record<string, unknown>;
}

/** Every generator of the ApplicationSet, nested matrix/merge children included (two levels, as the controller). */
export function generatorSpecs(ctx: AppSetContext): GeneratorSpec[] {
  return ctx.memo('generatorSpecs', () => {
    const out: GeneratorSpec[] = [];
    const walk = (entries: Field, at: JsonPath, depth: number) => {
      if (!Array.isArray(entries.value) || depth > 2) return;
      entries.value.forEach((e, i) => {
        if (!isObj(e)) return;
        const entry = sub(entries, i);
        for (const kind of GENERATOR_KINDS) {
          const s = e[kind];
          if (!isObj(s)) continue;
          const path = [...at, i, kind];
          const kindAt = sub(entry, kind);
          out.push({ kind, path, at: kindAt, spec: s });
          if (COMBINING_KINDS.includes(kind)) walk(sub(kindAt, 'generators'), [...path, 'generators'], depth + 1);
        }
      });
    };
    if (isObj(ctx.doc.value.spec)) walk(fieldsOf(ctx.doc).generators, ['spec', 'generators'], 0);
    return out;
  });
}

export function goTemplateOf(ctx: AppSetContext): boolean {
  const spec = ctx.doc.value.spec;
  return isObj(spec) && spec.goTemplate === true;
}

/** Every parameter reference of the ApplicationSet, placed in the document. */
export function paramUses(ctx: AppSetContext): ParamUse[] {
  return ctx.memo('paramUses', () => {
    const goTemplate = goTemplateOf(ctx);
    const out: ParamUse[] = [];
    for (const s of templateStrings(ctx)) {
      for (const r of referencedParams(s.value, goTemplate)) {
        if (!r.path.length) continue;
        const span = valueSpan(ctx.file.text, s.span, s.value, r.offset, r.length);
        if (span) out.push({ path: r.path, span, at: s.at });
      }
    }
    return out;
  });
}

/** The reference under the cursor. */
export function useAt(ctx: AppSetContext, offset: number): ParamUse | undefined {
  let best: ParamUse | undefined;
  for (const u of paramUses(ctx)) {
    if (offset >= u.span.start && offset <= u.span.end && (!best || u.span.end - u.span.start < best.span.end - best.span.start)) best = u;
  }
  return best;
}

/** Is `path` the same parameter as `other`, or inside it (`.config` covers `.config.replicas`)? */
export function samePrefix(prefix: string[], path: string[]): boolean {
  if (prefix.length > path.length) return false;
  return prefix.every((s, i) => path[i] === s);
}

/** Go's identifier rule for a field name (`.name` works, `.team-name` does not). */
export function isGoIdentifier(s: string): boolean {
  return /^[\p{L}_][\p{L}\p{Nd}_]*$/u.test(s);
}

/** The goTemplate expression for a parameter path: `.a.b`, or `index .a "b-c"` when a key is not an identifier. */
export function goExpression(path: string[]): string {
  const bad = path.findIndex((s) => !isGoIdentifier(s));
  if (bad < 0) return '.' + path.join('.');
  const base = bad === 0 ? '.' : '.' + path.slice(0, bad).join('.');
  return `index ${base} ${path
    .slice(bad)
    .map((s) => JSON.stringify(s))
    .join(' ')}`;
}
