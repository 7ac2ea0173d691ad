/**
 * Whole-document fixes for the template mode: "turn on goTemplate" when the templates use Go template
 * syntax without `goTemplate: true` (adds `goTemplate: true` and `goTemplateOptions: ["missingkey=error"]`
 * and rewrites the fasttemplate tags that would otherwise break), and "convert every {{name}}" when
 * fasttemplate tags are written under goTemplate. Offered only when every tag converts.
 *
 * The parameter shapes of the two modes (Argo CD `applicationset/utils/utils.go`, the generators'
 * `GenerateParams`): fasttemplate keys are flat strings (`path.basename`, `path[0]`,
 * `metadata.labels.env`), goTemplate parameters are nested maps (`.path.basename`,
 * `index .path.segments 0`, `.metadata.labels.env`); git's `{{path}}` is `.path.path`.
 */
import type { AppSetContext } from '../context';
import type { CodeAction, EngineDiagnostic, Span, TextEdit } from '../../types';
import { fieldsOf } from '../../fields/appset';
import { isTemplateFunction, isTemplateKeyword } from '@appset-tools/gotemplate';
import { valueSpan } from '../../yaml';
import { generatorSpecs, goExpression, isGoIdentifier, templateStrings } from '../editor/paramUses';
import { quickFix } from '../quickFix';

/** A fasttemplate tag's key (`{{ name }}` → `name`), or undefined when the tag is a Go action. */
export function fasttemplateKey(inner: string): string | undefined {
  const k = inner.trim();
  if (!/^[A-Za-z_][\w.\-/]*(?:\[\d+\])?(?:\.[\w.\-/]+)*$/.test(k)) return undefined;
  if (isTemplateKeyword(k) || isTemplateFunction(k)) return undefined;
  return k;
}

/** The Go template expression for a fasttemplate key, or undefined when there is none. */
export function goExpressionFor(key: string, gitPrefixes: string[]): string | undefined {
  for (const prefix of gitPrefixes) {
    const base = prefix ? `${prefix}.path` : 'path';
    const baseSegs = base.split('.');
    const seg = new RegExp(`^${base.replace(/\./g, '\\.')}\\[(\\d+)\\]$`).exec(key);
    if (seg) return `index .${base}.segments ${seg[1]}`;
    if (key === base) return goExpression([...baseSegs, 'path']);
  }
  if (/[[\]]/.test(key)) return undefined;
  const m = /^metadata\.(labels|annotations)\.(.+)$/.exec(key);
  if (m) return goExpression(['metadata', m[1], m[2]]);
  const v = /^values\.(.+)$/.exec(key);
  if (v) return goExpression(['values', v[1]]);
  const segs = key.split('.');
  if (segs.some((s) => s === '')) return undefined;
  return segs.every(isGoIdentifier) ? '.' + segs.join('.') : goExpression(segs);
}

interface Tag {
  span: Span;
  key: string;
}

/** Every fasttemplate tag in the strings the controller renders, placed in the document. */
function fasttemplateTags(ctx: AppSetContext): Tag[] {
  const out: Tag[] = [];
  for (const s of templateStrings(ctx)) {
    for (const m of s.value.matchAll(/\{\{([^{}]*)\}\}/g)) {
      const key = fasttemplateKey(m[1]);
      if (!key) continue;
      const span = valueSpan(ctx.file.text, s.span, s.value, m.index!, m[0].length);
      if (span) out.push({ span, key });
    }
  }
  return out;
}

/** The Go template expression for a fasttemplate key of this ApplicationSet (git path params included). */
export function goExpressionIn(ctx: AppSetContext, key: string): string | undefined {
  return goExpressionFor(key, gitPrefixes(ctx));
}

function gitPrefixes(ctx: AppSetContext): string[] {
  return generatorSpecs(ctx)
    .filter((g) => g.kind === 'git')
    .map((g) => (typeof g.spec.pathParamPrefix === 'string' ? g.spec.pathParamPrefix : ''));
}

/** Edits rewriting every fasttemplate tag as a Go action, or undefined when one does not convert. */
function convertTags(ctx: AppSetContext): TextEdit[] | undefined {
  const prefixes = gitPrefixes(ctx);
  const edits: TextEdit[] = [];
  for (const t of fasttemplateTags(ctx)) {
    const expr = goExpressionFor(t.key, prefixes);
    if (!expr) return undefined;
    edits.push({ file: ctx.file.uri, span: t.span, newText: `{{ ${expr} }}` });
  }
  return edits;
}

/** The edits that set `goTemplate: true` (and add `goTemplateOptions` when absent) in spec. */
function enableGoTemplate(ctx: AppSetContext): TextEdit[] | undefined {
  const text = ctx.file.text;
  const spec = fieldsOf(ctx.doc).spec.node;
  if (spec?.kind !== 'object' || !spec.properties.length) return undefined;
  const first = spec.properties[0].keySpan;
  const lineStart = text.lastIndexOf('\n', first.start - 1) + 1;
  if (text.slice(lineStart, first.start).trim() !== '') return undefined; // a flow mapping or `spec: {a: …}`
  const indent = text.slice(lineStart, first.start);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const edits: TextEdit[] = [];
  const lines: string[] = [];
  const existing = spec.properties.find((p) => p.key === 'goTemplate');
  if (existing?.value) edits.push({ file: ctx.file.uri, span: existing.value.span, newText: 'true' });
  else if (!existing) lines.push('goTemplate: true');
  else return undefined;
  if (!spec.properties.some((p) => p.key === 'goTemplateOptions')) lines.push('goTemplateOptions: ["missingkey=error"]');
  if (lines.length)
    edits.push({
      file: ctx.file.uri,
      span: { start: first.start, end: first.start },
      newText: lines.map((l) => l + eol + indent).join(''),
    });
  return edits;
}

/** "Turn on goTemplate" for Go template syntax written without it. */
export function turnOnGoTemplate(ctx: AppSetContext, diagnostics: EngineDiagnostic[]): CodeAction[] {
  const ds = diagnostics.filter((d) => d.code === 'template/gotemplate-syntax');
  if (!ds.length) return [];
  const enable = enableGoTemplate(ctx);
  const convert = convertTags(ctx);
  if (!enable || !convert) return [];
  const n = convert.length;
  return [
    quickFix(
      `Turn on goTemplate (goTemplate: true, goTemplateOptions: ["missingkey=error"])${n ? ` and write the ${n} {{name}} tag${n === 1 ? '' : 's'} as Go actions` : ''}`,
      ds,
      [...enable, ...convert],
    ),
  ];
}

/** "Convert every {{name}}" for fasttemplate tags written under goTemplate: true. */
export function convertAllToGo(ctx: AppSetContext, diagnostics: EngineDiagnostic[]): CodeAction[] {
  const ds = diagnostics.filter((d) => d.code === 'template/fasttemplate-syntax');
  if (!ds.length) return [];
  const convert = convertTags(ctx);
  if (!convert || convert.length < 2) return [];
  return [quickFix(`Write all ${convert.length} {{name}} tags as Go template actions ({{ .name }})`, ds, convert)];
}
