/**
 * The shape of an ApplicationSet for the Outline, breadcrumbs and folding: the ApplicationSet, its
 * generators (kind and how many parameter sets each yields), the template, the templatePatch and the
 * RollingSync steps; folding ranges for every multi-line mapping, list and block scalar.
 */
import { astOf, walk, type YamlDocument, lineIndex, type JsonPath } from '../../yaml';
import { fieldsOf } from '../../fields/appset';
import { sub, type Field } from '../../fields/place';
import type { AppSetContext } from '../context';
import type { Span } from '../../types';
import { isObj } from '../../objects';
import { generatorSpecs } from './paramUses';

export type SymbolKind = 'class' | 'module' | 'function' | 'object' | 'array' | 'event' | 'field' | 'struct';

export interface DocumentSymbol {
  name: string;
  detail?: string;
  kind: SymbolKind;
  /** The whole construct. */
  span: Span;
  /** What to select and reveal (its key). */
  selection: Span;
  children?: DocumentSymbol[];
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

export function documentSymbols(ctx: AppSetContext): DocumentSymbol | undefined {
  const spec = isObj(ctx.doc.value.spec) ? ctx.doc.value.spec : {};
  const exp = ctx.expansion();
  const children: DocumentSymbol[] = [];
  const view = fieldsOf(ctx.doc);
  const sym = (name: string, at: Field, kind: SymbolKind, detail?: string, kids?: DocumentSymbol[]): DocumentSymbol | undefined => {
    if (!at.exact) return undefined;
    const sel = at.keyRange ?? at.valueRange;
    if (!sel) return undefined;
    const end = at.valueRange?.end ?? sel.end;
    return {
      name,
      detail,
      kind,
      span: { start: sel.start, end: Math.max(end, sel.end) },
      selection: sel,
      children: kids?.length ? kids : undefined,
    };
  };

  // Generators: counts per entry path come from the expansion.
  const counts = new Map<string, number>();
  for (const a of exp.apps) counts.set(String(a.generatorIndex), (counts.get(String(a.generatorIndex)) ?? 0) + 1);
  const gens = generatorSpecs(ctx);
  const genSymbols = (entriesPath: JsonPath): DocumentSymbol[] => {
    const out: DocumentSymbol[] = [];
    for (const g of gens) {
      if (g.path.length !== entriesPath.length + 2 || !entriesPath.every((s, i) => g.path[i] === s)) continue;
      const sets = exp.paramSetCounts?.[g.path.slice(0, -1).join('/')];
      const detail = [describeKind(g.kind, g.spec), sets !== undefined ? plural(sets, 'parameter set') : undefined]
        .filter(Boolean)
        .join(' · ');
      const kids = g.kind === 'matrix' || g.kind === 'merge' ? genSymbols([...g.path, 'generators']) : [];
      const s = sym(g.kind, g.at, g.kind === 'matrix' || g.kind === 'merge' ? 'module' : 'function', detail, kids);
      if (s) out.push(s);
    }
    return out;
  };
  const g = sym('generators', view.generators, 'array', plural(exp.apps.length, 'Application'), genSymbols(['spec', 'generators']));
  if (g) children.push(g);
  const tmplName =
    isObj(spec.template) && isObj(spec.template.metadata) && typeof spec.template.metadata.name === 'string'
      ? spec.template.metadata.name
      : undefined;
  const t = sym('template', view.template, 'object', tmplName);
  if (t) children.push(t);
  const tp = sym('templatePatch', view.templatePatch, 'object');
  if (tp) children.push(tp);
  const strat = isObj(spec.strategy) ? spec.strategy : undefined;
  if (strat) {
    const steps = isObj(strat.rollingSync) && Array.isArray(strat.rollingSync.steps) ? strat.rollingSync.steps : [];
    const stepSyms = steps
      .map((st, i) => sym(`step ${i + 1}`, sub(view.strategy.at.steps, i), 'event', stepDetail(st)))
      .filter((s): s is DocumentSymbol => !!s);
    const s = sym(
      'strategy',
      view.strategy.at.strategy,
      'object',
      [typeof strat.type === 'string' ? strat.type : undefined, steps.length ? plural(steps.length, 'step') : undefined]
        .filter(Boolean)
        .join(' · '),
      stepSyms,
    );
    if (s) children.push(s);
  }
  const sp = sym('syncPolicy', view.syncPolicy, 'object');
  if (sp) children.push(sp);
  const name = ctx.doc.name || '(unnamed)';
  const root = ctx.doc.span;
  const kindKey = sub(view.metadata, 'name');
  return {
    name,
    detail: `ApplicationSet · ${plural(exp.apps.length, 'Application')}`,
    kind: 'class',
    span: root,
    selection: kindKey.valueRange ?? kindKey.keyRange ?? { start: root.start, end: root.start },
    children,
  };
}

function describeKind(kind: string, spec: Record<string, unknown>): string | undefined {
  if (kind === 'list') return Array.isArray(spec.elements) ? plural(spec.elements.length, 'element') : undefined;
  if (kind === 'git' || kind === 'oci')
    return Array.isArray(spec.files) ? 'files' : Array.isArray(spec.directories) ? 'directories' : undefined;
  if (kind === 'clusters') return spec.selector ? 'with selector' : 'all clusters';
  if (kind === 'matrix' || kind === 'merge')
    return Array.isArray(spec.generators) ? plural(spec.generators.length, 'child').replace('childs', 'children') : undefined;
  return undefined;
}

function stepDetail(st: unknown): string | undefined {
  if (!isObj(st) || !Array.isArray(st.matchExpressions)) return undefined;
  const parts = st.matchExpressions
    .filter(isObj)
    .map((e) => `${String(e.key ?? '')} ${String(e.operator ?? '')} ${Array.isArray(e.values) ? e.values.join(', ') : ''}`.trim());
  const mu = st.maxUpdate !== undefined ? ` · maxUpdate ${String(st.maxUpdate)}` : '';
  return parts.join('; ') + mu;
}

export interface FoldingRange {
  /** Offsets of the first and last line's content. */
  start: number;
  end: number;
}

/** Every mapping, list or block scalar spanning more than one line (whole file, every document). */
export function foldingRanges(text: string, docs: { doc: YamlDocument }[]): FoldingRange[] {
  const out: FoldingRange[] = [];
  let steps = 0;
  const lineOf = lineIndex(text);
  for (const d of docs) {
    walk(astOf(d.doc), (node) => {
      if (++steps > 100000) return false;
      if (node.kind === 'object' || node.kind === 'array' || (node.kind === 'scalar' && node.style === 'block')) {
        const start = node.keySpan?.start ?? node.span.start;
        // The range ends after the trailing newline; fold up to the last content character.
        let end = node.span.end;
        while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
        if (lineOf(end) > lineOf(start)) out.push({ start, end });
      }
    });
  }
  return out;
}
