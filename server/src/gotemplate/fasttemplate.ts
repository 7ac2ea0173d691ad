/**
 * Argo CD's fasttemplate mode (`Render.Replace` with useGoTemplate=false in
 * applicationset/utils/utils.go, on valyala/fasttemplate): flat, whitespace-trimmed tag lookup of
 * string params; everything else is written back as it was.
 */
import { goQuote } from './format';

/** Go's regexp `{{[^\n]*}}` gate: only strings with `{{` … `}}` on one line are processed at all. */
const LOOKS_TEMPLATED = /\{\{[^\n]*\}\}/;

/** unicode.IsSpace, as strings.TrimSpace uses it (JS's trim differs on U+FEFF and U+0085). */
function isGoSpace(c: number): boolean {
  switch (c) {
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x20:
    case 0x85:
    case 0xa0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return true;
  }
  return c >= 0x2000 && c <= 0x200a;
}

export function goTrimSpace(s: string): [string, number] {
  let a = 0;
  let b = s.length;
  while (a < b && isGoSpace(s.charCodeAt(a))) a++;
  while (b > a && isGoSpace(s.charCodeAt(b - 1))) b--;
  return [s.slice(a, b), a];
}

export interface FastTag {
  /** Offset of the tag text (just after `{{`). */
  offset: number;
  /** The raw tag text between the braces. */
  raw: string;
}

export type FastParse = { texts: string[]; tags: FastTag[] } | { error: string; offset: number };

/** fasttemplate.NewTemplate: splits at `{{`/`}}`; an unclosed tag is an error. */
export function parseFast(s: string): FastParse | null {
  if (!LOOKS_TEMPLATED.test(s)) return null;
  const texts: string[] = [];
  const tags: FastTag[] = [];
  let i = 0;
  for (;;) {
    const n = s.indexOf('{{', i);
    if (n < 0) {
      texts.push(s.slice(i));
      break;
    }
    texts.push(s.slice(i, n));
    const tagStart = n + 2;
    const e = s.indexOf('}}', tagStart);
    if (e < 0) {
      return {
        error: `invalid template: Cannot find end tag="}}" in the template=${goQuote(s)} starting from ${goQuote(s.slice(tagStart))}`,
        offset: n,
      };
    }
    tags.push({ offset: tagStart, raw: s.slice(tagStart, e) });
    i = e + 2;
  }
  return { texts, tags };
}

/** Renders in fasttemplate mode; `lookup` returns the param value for a trimmed tag name. */
export function renderFast(s: string, lookup: (name: string) => unknown): { out: string } | { error: string; offset: number } {
  const p = parseFast(s);
  if (p === null) return { out: s };
  if ('error' in p) return p;
  let out = p.texts[0];
  p.tags.forEach((tag, k) => {
    const [name] = goTrimSpace(tag.raw);
    const v = name === '' ? undefined : lookup(name);
    out += typeof v === 'string' ? v : '{{' + tag.raw + '}}';
    out += p.texts[k + 1];
  });
  return { out };
}
