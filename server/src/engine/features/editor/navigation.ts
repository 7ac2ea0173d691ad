/**
 * Parameters as symbols: go to definition, find references and rename, from a use in a template
 * (`.name`, `.metadata.labels.tier`, `{{path.basename}}`, `.values.x`) or from where a generator
 * defines it (a list element's key, a generator's `values:` entry). Rename changes one segment of a
 * parameter wherever it is written — list elements, a literal elementsYaml, `values`, git files' keys —
 * and refuses, with the reason, a parameter that data outside the ApplicationSet decides (a cluster
 * Secret's name, server or labels, git path parameters, pull request and SCM provider parameters).
 */
import type { AppSetContext } from '../context';
import type { Location, Span, TextEdit } from '../../types';
import { pathAt } from '../../yaml';
import { MAX_RENAME_DEFS, paramDefinitions, paramDefinitionsUpTo, type ParamDef } from './paramDefs';
import { generatorSpecs, goTemplateOf, isGoIdentifier, paramUses, samePrefix, templateStringsCut, useAt, type ParamUse } from './paramUses';

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

/**
 * What rename renames: one segment of a parameter (`env` in `.values.env`, `replicas` in
 * `.config.replicas`), as the segments up to and including it. Fasttemplate keys are flat
 * (`values.env`): their segments are the dotted parts.
 */
interface RenameTarget {
  segs: string[];
  /** The renamed segment's span under the cursor. */
  span: Span;
}

function segsOf(path: string[], goTemplate: boolean): string[] {
  return goTemplate ? path : path[0].split('.');
}

function targetAt(ctx: AppSetContext, offset: number): RenameTarget | undefined {
  const p = paramAt(ctx, offset);
  if (!p) return undefined;
  const goTemplate = goTemplateOf(ctx);
  const segs = segsOf(p.path, goTemplate);
  const use = useAt(ctx, offset);
  if (use) {
    const spans = segmentSpans(ctx.file.text, use, segs, goTemplate);
    let i = spans.findIndex((sp) => sp && offset >= sp.start && offset <= sp.end);
    if (i < 0) i = spans.length - 1;
    return spans[i] ? { segs: segs.slice(0, i + 1), span: spans[i]! } : undefined;
  }
  return { segs, span: keySpan(ctx.file.text, p.span) };
}

/** The definitions rename changes, or why it cannot. */
function renameDefs(ctx: AppSetContext, segs: string[]): ParamDef[] | { error: string } {
  const goTemplate = goTemplateOf(ctx);
  const name = segs[segs.length - 1];
  const shown = goTemplate ? '.' + segs.join('.') : segs.join('.');
  const { defs, cut } = paramDefinitionsUpTo(ctx, goTemplate ? segs : [segs.join('.')], MAX_RENAME_DEFS);
  // Renaming some definitions and not the others breaks the ApplicationSet: all of them, or none and why.
  if (cut)
    return {
      error: `${shown} is defined in more than ${MAX_RENAME_DEFS.toLocaleString('en-US')} places, more than rename changes at once (ApplicationSet Tools' limit): nothing was renamed`,
    };
  if (templateStringsCut(ctx))
    return {
      error: `this ApplicationSet has more than 20,000 template strings, more than rename reads (ApplicationSet Tools' limit): nothing was renamed`,
    };
  const other = defs.find((d) => !d.renamable);
  if (other)
    return {
      error: `${shown} comes from ${other.source}, which rename cannot change (${other.source.startsWith('cluster') ? "a cluster Secret's name, server and labels are the cluster's own" : 'the generator computes it from data outside this ApplicationSet'})`,
    };
  // Only definitions of this very key (a list element may hold `config` as a string, not a map).
  const own = defs.filter((d) => keyText(ctx, d) === name);
  if (!own.length)
    return {
      error: `no key of this ApplicationSet or of its files defines ${shown}: it comes from the generators' data (a cluster Secret, a git path, a pull request or SCM provider, a template), which rename cannot change`,
    };
  return own;
}

function keyText(ctx: AppSetContext, d: ParamDef): string | undefined {
  const text = d.file === ctx.file.uri ? ctx.file.text : ctx.file.host.readFile(d.file);
  if (text === undefined) return undefined;
  const sp = keySpan(text, d.span);
  return text.slice(sp.start, sp.end);
}

/** What rename would rename at the cursor, or why it cannot. */
export function prepareRenameAt(ctx: AppSetContext, offset: number): { span: Span; placeholder: string } | { error: string } | undefined {
  const t = targetAt(ctx, offset);
  if (!t) return undefined;
  const defs = renameDefs(ctx, t.segs);
  if ('error' in defs) return defs;
  return { span: t.span, placeholder: t.segs[t.segs.length - 1] };
}

/**
 * Renames a parameter's key where it is defined — list elements, a literal elementsYaml, a
 * generator's `values`, the keys of the git files a git generator reads — and in every template that
 * uses it.
 */
export function renameAt(ctx: AppSetContext, offset: number, newName: string): RenameResult | undefined {
  const t = targetAt(ctx, offset);
  if (!t) return undefined;
  const goTemplate = goTemplateOf(ctx);
  const defs = renameDefs(ctx, t.segs);
  if ('error' in defs) return defs;
  if (goTemplate && !isGoIdentifier(newName))
    return { error: `"${newName}" is not a Go identifier, so .${newName} would not parse; use letters, digits and _` };
  if (!goTemplate && (!newName || /[{}\s.]/.test(newName))) return { error: `"${newName}" cannot be a fasttemplate key` };
  const text = ctx.file.text;
  const edits: TextEdit[] = [];
  for (const d of defs) {
    const src = d.file === ctx.file.uri ? text : (ctx.file.host.readFile(d.file) ?? '');
    edits.push({ file: d.file, span: keySpan(src, d.span), newText: newName });
  }
  const i = t.segs.length - 1;
  for (const u of paramUses(ctx)) {
    const segs = segsOf(u.path, goTemplate);
    if (!samePrefix(t.segs, segs)) continue;
    const s = segmentSpans(text, u, segs, goTemplate)[i];
    if (s) edits.push({ file: ctx.file.uri, span: s, newText: newName });
  }
  return { edits: dedupe(edits) };
}

/** A key's text without its quotes. */
function keySpan(text: string, span: Span): Span {
  const q = text[span.start];
  if ((q === '"' || q === "'") && text[span.end - 1] === q && span.end - span.start >= 2)
    return { start: span.start + 1, end: span.end - 1 };
  return span;
}

/**
 * Where each segment of a use sits in the document: `.a.b`, `$.a.b`, `index .a "b-c"`, or a flat
 * fasttemplate key `values.env` (its dotted parts). Undefined for a segment not written as itself
 * (an escape in a double-quoted YAML string).
 */
function segmentSpans(text: string, u: ParamUse, segs: string[], goTemplate: boolean): (Span | undefined)[] {
  const src = text.slice(u.span.start, u.span.end);
  const out: (Span | undefined)[] = [];
  let from = 0;
  for (const seg of segs) {
    let at = -1;
    if (!goTemplate) {
      at = src.startsWith(seg, from) ? from : -1;
      if (at >= 0) from = at + seg.length + 1;
    } else {
      const esc = seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // The first segment anywhere in the action; each next one right after the previous (`.b`, ` "b-c"`).
      const re =
        out.length === 0
          ? new RegExp(`(?:^|[^\\p{L}\\p{Nd}_$])\\.(${esc})(?![\\p{L}\\p{Nd}_])|"(${esc})"`, 'gu')
          : new RegExp(`\\.(${esc})(?![\\p{L}\\p{Nd}_])|\\s+"(${esc})"`, 'uy');
      re.lastIndex = from;
      const m = re.exec(src);
      if (m) {
        at = m[1] !== undefined ? m.index + m[0].length - seg.length : m.index + m[0].length - seg.length - 1;
        from = at + seg.length + (m[1] !== undefined ? 0 : 1);
      }
    }
    out.push(
      at >= 0 && src.slice(at, at + seg.length) === seg ? { start: u.span.start + at, end: u.span.start + at + seg.length } : undefined,
    );
  }
  return out;
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
