/**
 * What an editor paints over the text: semantic tokens for the `{{ }}` actions inside YAML strings
 * (delimiters, parameters, functions, keywords — the YAML grammar sees only a string), and inlay hints
 * with a template string's value for the first Application and how many others differ.
 */
import type { AppSetContext } from '../context';
import type { Span } from '../../types';
import { templateTokens, type TokenKind } from '@appset-tools/gotemplate';
import { scalarOffsets } from '../../yaml';
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

/** Applications compared with the first for "differ" (a hint is drawn on every keystroke). */
const MAX_COMPARED = 5000;

/**
 * A rendered value as a hint shows it: Go prints a whole map as `map[k:v …]` (a template that names a
 * map, e.g. `.metadata` while `.metadata.labels.tier` is being typed); the hint shows its keys instead.
 */
export function readableValue(v: unknown): string {
  if (typeof v !== 'string') return goString(v);
  if (!v.includes('map[')) return v;
  let out = '';
  let i = 0;
  while (i < v.length) {
    const at = v.indexOf('map[', i);
    if (at < 0) {
      out += v.slice(i);
      break;
    }
    out += v.slice(i, at);
    // The top-level keys of Go's map print: `key:` after `[` or a space at depth one.
    let depth = 0;
    let j = at + 3;
    const keys: string[] = [];
    let keyStart = at + 4;
    for (; j < v.length; j++) {
      const c = v[j];
      if (c === '[') depth++;
      else if (c === ']') {
        depth--;
        if (depth === 0) break;
      } else if (depth === 1 && c === ':' && keyStart >= 0) {
        keys.push(v.slice(keyStart, j));
        keyStart = -1;
      } else if (depth === 1 && c === ' ') keyStart = j + 1;
    }
    if (j >= v.length) {
      out += v.slice(at);
      break;
    }
    out += keys.length ? `{${keys.join(', ')}}` : '{}';
    i = j + 1;
  }
  return out;
}

/**
 * `= guestbook-dev` after each template string of spec.template, for the first Application, with how
 * many of the others render it differently (`= prod-01-svc-01 · 539 of 540 differ`).
 */
export function inlayHints(ctx: AppSetContext, range?: Span): InlayHint[] {
  const apps = ctx.expansion().apps;
  const app = apps[0];
  if (!app) return [];
  const out: InlayHint[] = [];
  for (const s of templateStrings(ctx)) {
    if (out.length >= MAX_HINTS) break;
    if (s.at[1] !== 'template') continue;
    if (range && (s.span.end < range.start || s.span.start > range.end)) continue;
    const rel = s.at.slice(2);
    const v = valueAt(app.app, rel);
    if (v === undefined || (typeof v === 'string' && v === s.value)) continue;
    const first = goString(v);
    const compared = apps.slice(0, MAX_COMPARED);
    const others: string[] = [];
    let differ = 0;
    for (const a of compared) {
      const x = valueAt(a.app, rel);
      const t = x === undefined ? undefined : goString(x);
      if (t === first) continue;
      differ++;
      if (others.length < 3 && t !== undefined && !others.includes(t)) others.push(t);
    }
    const shown = readableValue(v);
    const total = apps.length;
    const diff = differ ? ` · ${differ}${compared.length < total ? '+' : ''} of ${total} differ` : '';
    const map = shown !== first ? ' It prints a whole map (Go writes map[…]): name one of its keys.' : '';
    out.push({
      offset: s.span.end,
      label: `= ${clip(shown)}${diff}`,
      tooltip:
        total === 1
          ? `In ${app.name || 'the only Application'}.${map}`
          : differ
            ? `In ${app.name || 'the first Application'} (the first of ${total}); ${differ} render it differently, e.g. ${others.map((o) => clip(readableValue(o))).join(', ')}.${map}`
            : `The same in all ${total} Applications.${map}`,
    });
  }
  return out;
}
