/**
 * Quick fixes for the validation diagnostics: apply a "did you mean" (misspelt field, strategy type,
 * deletionOrder, selector operator, enum value) and remove the deprecated applyNestedSelectors.
 * (appset/step-operator and appset/max-update get their fixes from the rollout area.)
 */
import type { AppSetContext } from '../context';
import type { CodeAction, EngineDiagnostic, Span } from '../../types';
import { quickFix } from '../quickFix';

const REPLACEABLE = new Set([
  'appset/unknown-field',
  'appset/strategy-type',
  'appset/deletion-order',
  'appset/selector-operator',
  'appset/invalid-value',
  'appset/yaml11-boolean',
]);

export function validationCodeActions(ctx: AppSetContext, span: Span, diagnostics: EngineDiagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  const text = ctx.file.text;
  for (const d of diagnostics) {
    if (d.span.end < span.start || d.span.start > span.end) continue;
    const replacement = (d.data as { replacement?: unknown } | undefined)?.replacement;
    if (REPLACEABLE.has(d.code) && typeof replacement === 'string') {
      const old = text.slice(d.span.start, d.span.end);
      const quote = d.code !== 'appset/yaml11-boolean' && /^["']/.test(old) && old.endsWith(old[0]) && old.length >= 2 ? old[0] : '';
      out.push(
        quickFix(`Change to "${replacement}"`, [d], [{ file: ctx.file.uri, span: d.span, newText: quote + replacement + quote }], true),
      );
    }
    const fix = (d.data as { fix?: { title: string; edits: { span: Span; newText: string }[] } } | undefined)?.fix;
    if (d.code === 'appset/git-negation' && fix)
      out.push(
        quickFix(
          fix.title,
          [d],
          fix.edits.map((e) => ({ file: ctx.file.uri, span: e.span, newText: e.newText })),
          true,
        ),
      );
    if (d.code === 'appset/deprecated-field') {
      const lineStart = text.lastIndexOf('\n', d.span.start - 1) + 1;
      const nl = text.indexOf('\n', d.span.end);
      const lineEnd = nl < 0 ? text.length : nl + 1;
      // Only a one-line `key: value` pair can be removed by deleting its line.
      if (/^\s*applyNestedSelectors\s*:\s*[^\s#{[]*\s*(#.*)?$/.test(text.slice(lineStart, lineEnd).replace(/\r?\n$/, ''))) {
        out.push(
          quickFix(
            'Remove applyNestedSelectors (ignored since Argo CD 3.0)',
            [d],
            [{ file: ctx.file.uri, span: { start: lineStart, end: lineEnd }, newText: '' }],
          ),
        );
      }
    }
  }
  return out;
}
