/**
 * Help while writing `{{ }}` actions: completion of parameters (valid syntax for every key, a sample
 * value and the generator it comes from) and, in goTemplate mode, of template functions with their
 * signatures; "did you mean" quick fixes for misspelt parameters and for the other template mode's
 * syntax (`{{name}}` under goTemplate, `{{.name}}` without it).
 */
import type { AppSetContext } from '../context';
import type { CodeAction, CompletionItem, EngineDiagnostic, Hover, Span } from '../../types';
import { isObj } from '../../objects';
import { goString } from '../../generators/params';
import { suggest } from '../../didYouMean';
import type { GeneratedApp } from '../../expand/types';
import { quickFix } from '../quickFix';
import { undefinedFunctionOf } from '../../expand/templateCodes';
import { FUNCTION_DOCS, functionDocMarkdown, targetHasFunction } from './functionDocs';
import { goExpression, goTemplateOf, isGoIdentifier } from './paramUses';
import { paramDefinitions } from './paramDefs';

const MAX_APPS_SCANNED = 200;

export interface KnownParam {
  /** goTemplate: path segments; fasttemplate: [flat key]. */
  path: string[];
  sample: string;
  /** Where the first parameter set with it came from, in words. */
  source: string;
  /** How many of the scanned parameter sets have it. */
  count: number;
}

/** The parameters the generators produce (scanning the first parameter sets), in a stable order. */
export function knownParams(ctx: AppSetContext): { params: KnownParam[]; scanned: number } {
  return ctx.memo('knownParams', () => {
    const goTemplate = goTemplateOf(ctx);
    const exp = ctx.expansion();
    // A render that failed (missingkey=error and a misspelt reference fails them all) still had its parameters.
    const apps = [...exp.apps.slice(0, MAX_APPS_SCANNED), ...(exp.unrendered ?? [])].slice(0, MAX_APPS_SCANNED);
    const byKey = new Map<string, KnownParam>();
    for (const a of apps) {
      for (const path of paramPaths(a.params, goTemplate)) {
        const k = path.join('\u0000');
        const hit = byKey.get(k);
        if (hit) hit.count++;
        else byKey.set(k, { path, sample: sampleOf(a.params, path, goTemplate), source: sourceOf(a, path, goTemplate), count: 1 });
      }
    }
    const params = [...byKey.values()].sort((x, y) => (x.path.join('.') < y.path.join('.') ? -1 : 1));
    return { params, scanned: apps.length };
  });
}

function paramPaths(params: Record<string, unknown>, goTemplate: boolean): string[][] {
  if (!goTemplate) return Object.keys(params).map((k) => [k]);
  const out: string[][] = [];
  const walk = (v: unknown, path: string[], depth: number) => {
    if (path.length) out.push(path);
    if (depth > 6 || !isObj(v)) return;
    for (const k of Object.keys(v)) walk(v[k], [...path, k], depth + 1);
  };
  walk(params, [], 0);
  return out;
}

function sampleOf(params: Record<string, unknown>, path: string[], goTemplate: boolean): string {
  if (!goTemplate) return String(params[path[0]] ?? '');
  let cur: unknown = params;
  for (const s of path) cur = isObj(cur) ? cur[s] : undefined;
  if (isObj(cur)) return `map (${Object.keys(cur).length} keys)`;
  return goString(cur);
}

const CLUSTER_KEYS = new Set(['name', 'nameNormalized', 'server', 'project', 'metadata']);

/**
 * Which of a parameter set's sources gave it this parameter, in words: a matrix combines a cluster
 * and a list element, and `.service` comes from the element while `.name` comes from the cluster.
 */
export function sourceOf(a: Pick<GeneratedApp, 'origins' | 'generatorIndex'>, path: string[], goTemplate: boolean): string {
  const origins = a.origins ?? [];
  const first = goTemplate ? path[0] : path[0].split('.')[0];
  const pick = (prefix: string) => origins.find((o) => o.startsWith(prefix));
  if (first === 'values') return 'generator values';
  const cluster = pick('cluster:');
  if (cluster && CLUSTER_KEYS.has(first)) return `cluster ${cluster.slice(8)}`;
  const git = pick('git:');
  if (git && (first === 'path' || first.startsWith('path['))) return `git ${git.slice(4)}`;
  const element = origins.find((o) => /\/elements(?:Yaml)?\/\d+$/.test(o));
  if (element) return `list element ${Number(/(\d+)$/.exec(element)![1]) + 1}`;
  if (git) return `git file ${git.slice(4)}`;
  const sample = pick('sample:');
  if (sample) return `inventory sample ${sample.slice(7)}`;
  if (cluster) return `cluster ${cluster.slice(8)}`;
  return 'generator ' + (a.generatorIndex + 1);
}

const clip = (s: string) => (s.length > 60 ? s.slice(0, 57) + '…' : s);

/** Completion inside `{{ }}` on the cursor's line. */
export function templateCompletions(ctx: AppSetContext, offset: number): CompletionItem[] {
  const text = ctx.file.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.indexOf('}}', open) >= 0) return [];
  const goTemplate = goTemplateOf(ctx);
  const { params, scanned } = knownParams(ctx);
  const inAction = before.slice(open + 2);
  if (!goTemplate) {
    const word = /[^\s{}]*$/.exec(inAction)?.[0] ?? '';
    const span: Span = { start: offset - word.length, end: offset };
    return params.map((p) => ({
      label: p.path[0],
      kind: 'variable',
      detail: `${clip(p.sample)} · ${p.source}`,
      documentation: coverage(p, scanned),
      span,
    }));
  }
  // goTemplate: the word being typed is a field chain (`.metadata.labels.te`), `$`-rooted, or an identifier.
  const word = /[\w.$\-/]*$/.exec(inAction)?.[0] ?? '';
  const span: Span = { start: offset - word.length, end: offset };
  const before2 = inAction.slice(0, inAction.length - word.length).trimEnd();
  // `index` inserted in an argument position needs parentheses.
  const commandStart =
    before2 === '' ||
    before2.endsWith('(') ||
    before2.endsWith('-') ||
    /\b(if|with|range|else if|else with)$/.test(before2) ||
    /:?=$/.test(before2);
  const items: CompletionItem[] = [];
  if (!word.startsWith('$')) {
    for (const p of params) {
      const dotted = '.' + p.path.join('.');
      const expr = goExpression(p.path);
      const needsIndex = !p.path.every(isGoIdentifier);
      items.push({
        label: needsIndex ? expr : dotted,
        filterText: dotted,
        kind: 'variable',
        insertText: needsIndex && !commandStart ? `(${expr})` : expr,
        detail: `${clip(p.sample)} · ${p.source}`,
        documentation:
          coverage(p, scanned) +
          (needsIndex ? `\n\n\`${p.path[p.path.length - 1]}\` is not a Go identifier, so it is reached with \`index\`.` : ''),
        span,
      });
    }
  }
  if (!word.startsWith('.') && !word.startsWith('$')) {
    // Only the functions the target release defines (a call to another one fails to parse there).
    const target = ctx.target();
    for (const [name, d] of FUNCTION_DOCS) {
      if (!targetHasFunction(name, target)) continue;
      items.push({ label: name, kind: 'function', detail: d.signature, documentation: functionDocMarkdown(name, target) ?? d.doc, span });
    }
    for (const kw of ['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue'])
      items.push({ label: kw, kind: 'keyword', span });
  }
  return items;
}

function coverage(p: KnownParam, scanned: number): string {
  return p.count === scanned
    ? `In every parameter set (e.g. \`${clip(p.sample)}\`, from ${p.source}).`
    : `In ${p.count} of ${scanned} parameter sets (e.g. \`${clip(p.sample)}\`, from ${p.source}).`;
}

/** "Did you mean" fixes for a parameter or function name under a diagnostic. */
export function templateQuickFixes(ctx: AppSetContext, diagnostics: EngineDiagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  const text = ctx.file.text;
  const goTemplate = goTemplateOf(ctx);
  const { params } = knownParams(ctx);
  const names = params.map((p) => (goTemplate ? '.' + p.path.join('.') : p.path[0]));
  for (const d of diagnostics) {
    const found = text.slice(d.span.start, d.span.end);
    const fix = (title: string, span: Span, newText: string, preferred = true) =>
      out.push(quickFix(title, [d], [{ file: ctx.file.uri, span, newText }], preferred));
    if (
      d.code === 'generator/missing-param' ||
      // missingkey=error: the controller stops at the first missing key (template/missing-key), and a
      // field of a map value that is not there stops it in every mode (template/exec-error); both
      // underline the reference as written, as generator/missing-param does in the other modes.
      d.code === 'template/missing-key' ||
      d.code === 'template/exec-error' ||
      d.code.startsWith('template/mode') ||
      d.code === 'template/fasttemplate-syntax' ||
      d.code === 'template/gotemplate-syntax'
    ) {
      if (goTemplate && /^\.[\w.]+$/.test(found)) {
        const best = suggest(found, names);
        if (best) fix(`Did you mean ${best}?`, d.span, goExpression(best.slice(1).split('.')));
      } else if (!goTemplate && /^\.?[\w.\-/]+$/.test(found)) {
        // `{{.name}}` without goTemplate: the fasttemplate key is `name`.
        const bare = found.replace(/^\./, '');
        if (found.startsWith('.') && names.includes(bare)) fix(`Use ${bare} (fasttemplate keys have no leading dot)`, d.span, bare);
        else {
          const best = suggest(bare, names);
          if (best) fix(`Did you mean ${best}?`, d.span, best);
        }
      }
    }
    if (d.code === 'template/unknown-function' || d.code.startsWith('template/mode') || d.code === 'template/fasttemplate-syntax') {
      const name = undefinedFunctionOf(d);
      if (!name) continue;
      // Find the identifier inside the diagnostic's span (or the whole string around it).
      const at = text.indexOf(name, d.span.start);
      if (at < 0 || at > d.span.end + name.length) continue;
      const span = { start: at, end: at + name.length };
      // A parse error stops the whole expansion, so the generators' own definitions are asked too.
      const asParam =
        params.some((p) => p.path[0] === name || p.path.join('.') === name) || paramDefinitions(ctx, name.split('.')).length > 0;
      if (asParam) fix(`Use .${name} (goTemplate parameters start with a dot)`, span, goExpression(name.split('.')));
      else {
        const best = suggest(name, FUNCTION_DOCS.keys());
        if (best) fix(`Did you mean the function ${best}?`, span, best, !asParam);
        const bestParam = suggest(
          name,
          params.map((p) => p.path.join('.')),
        );
        if (bestParam) fix(`Did you mean .${bestParam}?`, span, goExpression(bestParam.split('.')), false);
      }
    }
  }
  return out;
}

/** Hover over a template function's name inside `{{ }}` (goTemplate mode): its help, since when, and whether the target has it. */
export function templateFunctionHover(ctx: AppSetContext, offset: number): Hover | undefined {
  if (!goTemplateOf(ctx)) return undefined;
  const text = ctx.file.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  const open = text.lastIndexOf('{{', offset);
  if (open < lineStart || text.lastIndexOf('}}', offset - 1) > open) return undefined;
  let start = offset;
  let end = offset;
  while (start > lineStart && /\w/.test(text[start - 1])) start--;
  while (end < lineEnd && /\w/.test(text[end])) end++;
  // A field or variable (`.tpl`, `$tpl`) is not the function.
  if (start === end || /[.$]/.test(text[start - 1] ?? '')) return undefined;
  const name = text.slice(start, end);
  const markdown = functionDocMarkdown(name, ctx.target());
  return markdown ? { span: { start, end }, markdown: `**${name}** — template function\n\n${markdown}` } : undefined;
}
