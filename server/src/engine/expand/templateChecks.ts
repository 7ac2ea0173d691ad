/**
 * The rules of the `template/` prefix that read a template string alone, with no parameter set, so they
 * hold where the expansion renders nothing (no cluster Secret in the repository, an unmapped git repo):
 * every template string parsed in its mode (goTemplate or fasttemplate), the mode confusions
 * (`{{service}}` under goTemplate: true, `{{ .service }}` without it), and keys that need `index`
 * (`.metadata.labels.cluster-role`). The features' template checks (features/templates/contributor.ts)
 * walk the ApplicationSet's template strings and hand each here with its place; the codes, their words
 * and the decisions live here, in the prefix's home (codeLists/homes.ts). Superseding codes
 * (diagnostics/findings.ts) drop the generic errors the same mistake also causes.
 */
import type { EngineDiagnostic, Span } from '../types';
import { isTemplateFunction, isTemplateKeyword, ownCopy, parseError, templateTokens } from '@appset-tools/gotemplate';
import { templateErrorCode, templateErrorData } from './templateCodes';
import { valueSpan } from '../yaml';
import { finding } from '../diagnostics/codes';
import type { Field } from '../fields/place';

/**
 * What the string checks read beyond the string: the file's text (to place a finding inside a quoted
 * or folded scalar), and the Go expression for a fasttemplate key of this ApplicationSet (git path
 * parameters included; the mode switch's, features/templates/modeSwitch.ts `goExpressionIn`).
 */
export interface TemplateStringsOf {
  text: string;
  goExpression(key: string): string | undefined;
}

function at(ctx: TemplateStringsOf, place: Field, raw: string, offset: number, length: number): Span {
  const value = place.valueRange;
  const n = place.node;
  return (value && n?.kind === 'scalar' && n.value === raw && valueSpan(ctx.text, value, raw, offset, length)) || place.span;
}

export function checkTemplateString(
  ctx: TemplateStringsOf,
  raw: string,
  place: Field,
  goTemplate: boolean,
  rendered: boolean,
  patch = false,
): EngineDiagnostic[] {
  if (!raw.includes('{{')) return [];
  const known = cleanStrings[(goTemplate ? 2 : 0) + (rendered ? 1 : 0)];
  if (known.has(raw)) return [];
  const out: EngineDiagnostic[] = [];
  if (goTemplate) {
    // `{{service}}`: fasttemplate's syntax; Go reads a function call, "function not defined".
    // Inside a string literal or comment of an action (the escapes {{`{{ x }}`}} and
    // {{ "{{ x }}" }}) it is text Go prints as written (text/template/parse/lex.go: lexQuote, lexRawQuote).
    // The literals and comments are tokenised only for a string that holds such a tag (most hold none:
    // `{{ .service }}`), the lexer's first run in a fresh process included (issue 39).
    let literal: ((offset: number) => boolean) | undefined;
    for (const m of raw.matchAll(/\{\{-?\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*-?\}\}/g)) {
      const name = m[1];
      literal ??= literalRanges(raw);
      if (literal(m.index!)) continue;
      if (isTemplateKeyword(name) || isTemplateFunction(name.split('.')[0])) continue;
      const expr = ctx.goExpression(name) ?? `.${name}`;
      out.push(
        finding(
          'template/fasttemplate-syntax',
          `{{${name}}} is fasttemplate syntax, but spec.goTemplate is true: Go templates fail with function "${name.split('.')[0]}" not defined, and the controller fails the ApplicationSet; write {{ ${expr} }}`,
          at(ctx, place, raw, m.index!, m[0].length),
          { data: { fix: { title: `Write {{ ${expr} }}`, newText: `{{ ${expr} }}` }, undefinedFunction: name.split('.')[0] } },
        ),
      );
    }
    // `.metadata.labels.cluster-role`: a field name cannot hold `-` or `/`; the key needs index.
    for (const n of needsIndex(raw)) {
      out.push(
        finding(
          'template/needs-index',
          `"${n.key}" cannot be written as a field (${/[-/]/.test(n.key) ? `"${n.key.match(/[-/]/)![0]}" is not allowed in a Go template field name` : 'each "." starts a new field, and label values are strings'}): write index ${n.base} "${n.key}"`,
          at(ctx, place, raw, n.offset, n.length),
          { data: { fix: { title: `Write index ${n.base} "${n.key}"`, newText: `index ${n.base} "${n.key}"` } } },
        ),
      );
    }
  } else {
    // `{{ .service }}` without goTemplate: fasttemplate looks up ".service", finds nothing, and leaves the tag as written.
    // fasttemplate takes everything between the delimiters as a parameter name, so a bare word
    // ({{template}}, {{with}}, {{end}}) is a parameter like any other (Argo CD's
    // applicationset/utils/utils.go replaces tags by key); only a field, a pipe, a trim marker or
    // a keyword/function followed by arguments is Go's syntax.
    let coveredUntil = -1;
    for (const m of raw.matchAll(/\{\{([^{}]*)\}\}/g)) {
      const inner = m[1].trim();
      if (m.index! < coveredUntil) continue; // inside a Go block already reported
      if (!/^(-|\.|(if|range|with|end|else|index|printf|default|toYaml|toJson|lower|upper|quote|include|template)\s+\S)|\|/.test(inner))
        continue;
      // A Go block (`{{if …}}…{{else}}…{{end}}`) is one mistake: the finding spans it to its `{{end}}`,
      // so that the bare `{{else}}`/`{{end}}` tags inside (fasttemplate parameters named "else" and
      // "end", missing everywhere) are not reported again (diagnostics/findings.ts dropSuperseded).
      const length = blockLength(raw, m.index!, inner) ?? m[0].length;
      coveredUntil = m.index! + length;
      out.push(
        finding(
          'template/gotemplate-syntax',
          `{{${m[1]}}} is Go template syntax, but spec.goTemplate is not true: fasttemplate leaves it as written in every Application; set spec.goTemplate: true${/^\.[\w.]+$/.test(inner) ? ` or write {{${inner.slice(1)}}}` : ''}`,
          at(ctx, place, raw, m.index!, length),
          /^\.[\w.]+$/.test(inner) ? { data: { fix: { title: `Write {{${inner.slice(1)}}}`, newText: `{{${inner.slice(1)}}}` } } } : {},
        ),
      );
    }
  }
  // Parse errors without any parameter set (offline data missing): the controller fails as soon as one exists.
  if (!rendered && !out.length) {
    const err = parseError(raw, goTemplate);
    if (err) {
      const code = templateErrorCode(err.kind, err.reason);
      const data = templateErrorData(err.reason);
      out.push(
        finding(
          code,
          `${patch ? 'error replacing values in templatePatch: ' : ''}${err.message} — no parameter set offline, but the controller fails the ApplicationSet as soon as one exists`,
          err.offset !== undefined && err.offset < raw.length
            ? at(ctx, place, raw, err.offset, Math.max(1, err.length ?? 1))
            : at(ctx, place, raw, 0, raw.length),
          data ? { data } : {},
        ),
      );
    }
  }
  if (!out.length) {
    if (known.size >= CLEAN_MAX) known.clear();
    // A string of its own: a slice of the document's text would keep the whole text alive.
    known.add(raw.length < 13 ? raw : ownCopy(raw));
  }
  return out;
}

/**
 * Whether `checkTemplateString` found `raw` to have no finding in these modes before (then it has none
 * now): whether a string has findings depends on the string and the two modes only (the rest shapes
 * their words and places), and the ApplicationSets of a file repeat their templates' strings (issue 39).
 * A caller asks it before it reads the string's place, which such a string does not need.
 */
export function knownClean(raw: string, goTemplate: boolean, rendered: boolean): boolean {
  return cleanStrings[(goTemplate ? 2 : 0) + (rendered ? 1 : 0)].has(raw);
}

/** Template strings found to have no finding, per mode (`goTemplate` × `rendered`), at most CLEAN_MAX each. */
const cleanStrings: Set<string>[] = [new Set(), new Set(), new Set(), new Set()];
const CLEAN_MAX = 4096;

/** Whether an offset of a Go template lies inside a string literal or a comment of one of its actions. */
function literalRanges(raw: string): (offset: number) => boolean {
  const spans = templateTokens(raw, true).filter((t) => t.kind === 'string');
  // Comments are not lexer items (Argo CD parses without ParseComments): `{{/*` up to `*/`.
  for (let i = raw.indexOf('/*'); i >= 0;) {
    const end = raw.indexOf('*/', i + 2);
    if (/\{\{-? ?$/.test(raw.slice(Math.max(0, i - 4), i)))
      spans.push({ kind: 'comment', offset: i, length: (end < 0 ? raw.length : end) - i });
    if (end < 0) break;
    i = raw.indexOf('/*', end + 2);
  }
  return (offset) => spans.some((t) => offset >= t.offset && offset < t.offset + t.length);
}

/**
 * Field chains inside actions that must be `index` calls: a segment with `-` or `/`, or a dotted
 * key under `.metadata.labels`/`.metadata.annotations` (string maps: a second field never resolves).
 */
function needsIndex(raw: string): { base: string; key: string; offset: number; length: number }[] {
  const out: { base: string; key: string; offset: number; length: number }[] = [];
  for (const action of raw.matchAll(/\{\{[\s\S]*?\}\}/g)) {
    if (!mayNeedIndex(action[0])) continue;
    // String literals hold keys legitimately (index .metadata.labels "app.kubernetes.io/name").
    const body = action[0].replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, (q) => ' '.repeat(q.length));
    for (const m of body.matchAll(/(?<![\w)\]])((?:\$)?(?:\.[A-Za-z_][\w]*(?:[-/][\w-]*)*)+(?:\.[\w/-]+)*)/g)) {
      const chain = m[1].replace(/^\$/, '');
      const segs = chain.slice(1).split('.');
      const map = /^\.metadata\.(labels|annotations)\./.test(chain) ? 2 : -1;
      let cut = segs.findIndex((x) => /[-/]/.test(x));
      if (map >= 0 && (cut >= map || (cut < 0 && segs.length > 3))) cut = map;
      if (cut < 0) continue;
      const base = cut === 0 ? '.' : '.' + segs.slice(0, cut).join('.');
      out.push({
        base: (m[1].startsWith('$') ? '$' : '') + (base === '.' && m[1].startsWith('$') ? '' : base),
        key: segs.slice(cut).join('.'),
        offset: action.index! + m.index!,
        length: m[1].length,
      });
    }
  }
  return out;
}

/**
 * Whether an action (`{{ … }}`, delimiters included) may hold a chain `needsIndex` reports: one needs a
 * `-` or `/` in a segment, or `.metadata.labels.`/`.metadata.annotations.`. A trim marker's `-` right
 * after `{{`, or before `}}` after a space, is in no chain (a chain starts with `.` or `$` and holds no
 * space). Most actions (`{{ .service }}`) have neither, and skip the searches below (issue 39).
 */
function mayNeedIndex(action: string): boolean {
  if (action.includes('metadata')) return true;
  const end = action.length - 2;
  const last = action.charCodeAt(end - 1) === 45 && /\s/.test(action.charAt(end - 2)) ? end - 1 : end;
  for (let i = action.charCodeAt(2) === 45 ? 3 : 2; i < last; i++) {
    const c = action.charCodeAt(i);
    if (c === 45 || c === 47) return true;
  }
  return false;
}

/**
 * The length from a Go block's opening action (`if`, `range`, `with`, `define`, `block`, trim markers
 * allowed) to the end of its matching `{{end}}` (text/template/parse: every such action ends with
 * one), counting nested blocks; undefined for another action or a block left open.
 */
function blockLength(raw: string, start: number, inner: string): number | undefined {
  const opens = (a: string) => /^-?\s*(if|range|with|define|block)\s/.test(a);
  if (!opens(inner)) return undefined;
  let depth = 0;
  const tags = /\{\{([^{}]*)\}\}/g;
  tags.lastIndex = start;
  for (let m = tags.exec(raw); m; m = tags.exec(raw)) {
    const a = m[1].trim();
    if (opens(a)) depth++;
    else if (/^-?\s*end\s*-?$/.test(a) && --depth === 0) return m.index + m[0].length - start;
  }
  return undefined;
}
