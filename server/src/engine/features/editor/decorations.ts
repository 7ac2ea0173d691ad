/**
 * What an editor paints over the text: semantic tokens for the `{{ }}` actions inside YAML strings
 * (delimiters, parameters, functions, keywords — the YAML grammar sees only a string), and inlay hints
 * with a template string's value for the first Application.
 */
import type { AppSetContext } from '../context';
import type { Span } from '../../types';
import { templateTokens, type TokenKind } from '../../../gotemplate';
import { scalarOffsets } from '../../expand/scalarOffsets';
import { goString, valueAt } from '../../generators/params';
import { goTemplateOf, templateStrings } from './paramUses';

export interface SemanticToken {
  start: number;
  length: number;
  kind: TokenKind;
}

const MAX_TOKENS = 50000;

/** Tokens of every template string, in document order, each on one line. */
export function semanticTokens(ctx: AppSetContext): SemanticToken[] {
  const goTemplate = goTemplateOf(ctx);
  const text = ctx.file.text;
  const out: SemanticToken[] = [];
  for (const s of templateStrings(ctx)) {
    const tokens = templateTokens(s.value, goTemplate);
    if (!tokens.length) continue;
    const { starts, ends } = scalarOffsets(text, s.span, s.value);
    for (const t of tokens) {
      if (out.length >= MAX_TOKENS) return out;
      if (t.length <= 0 || t.offset + t.length > s.value.length) continue;
      const start = starts[t.offset];
      const end = ends[t.offset + t.length - 1];
      if (start === undefined || end === undefined || end <= start) continue;
      // A token that a folded or escaped scalar spreads over several lines is left out.
      if (text.slice(start, end).includes('\n')) continue;
      out.push({ start, length: end - start, kind: t.kind });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export interface InlayHint {
  /** Where the hint is shown (after the string). */
  offset: number;
  label: string;
  tooltip: string;
}

const MAX_HINTS = 500;
const clip = (s: string) => (s.length > 50 ? s.slice(0, 47) + '…' : s);

/** `= guestbook-dev` after each template string of spec.template, for the first Application. */
export function inlayHints(ctx: AppSetContext, range?: Span): InlayHint[] {
  const app = ctx.expansion().apps[0];
  if (!app) return [];
  const out: InlayHint[] = [];
  for (const s of templateStrings(ctx)) {
    if (out.length >= MAX_HINTS) break;
    if (s.at[1] !== 'template') continue;
    if (range && (s.span.end < range.start || s.span.start > range.end)) continue;
    const v = valueAt(app.app, s.at.slice(2));
    if (v === undefined || (typeof v === 'string' && v === s.value)) continue;
    const shown = typeof v === 'string' ? v : goString(v);
    out.push({
      offset: s.span.end,
      label: `= ${clip(shown)}`,
      tooltip: `In ${app.name || 'the first Application'} (the first of ${ctx.expansion().apps.length})`,
    });
  }
  return out;
}
