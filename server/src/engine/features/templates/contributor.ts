/**
 * Static template checks: what can be known from the text alone, with no parameter set — so they
 * hold when offline data is missing (no cluster Secret in the repository, an unmapped git repo),
 * where the expansion renders nothing and would otherwise stay silent.
 * - every template string parsed in its mode (goTemplate or fasttemplate);
 * - mode confusions: `{{service}}` under goTemplate: true, `{{ .service }}` without it;
 * - keys that need `index` (`.metadata.labels.cluster-role`: `-`, `/` or `.` in a map key);
 * - `{{ }}` unquoted at the start of a YAML value (a flow mapping, not a string): quote it;
 * - Go template control flow (`{{- if .x }}` lines) in the YAML structure: use templatePatch;
 * - a literal destination with neither name nor server.
 * Each is one finding with a quick fix where one is clear (modeSwitch.ts adds the whole-document
 * ones: turn on goTemplate, convert every `{{name}}`); superseding codes
 * (diagnostics/findings.ts) drop the generic errors the same mistake also causes.
 */
import { astOf, walk } from '../../yaml';
import type { AppSetContext, FeatureContributor, FileContext } from '../context';
import type { CodeAction, EngineDiagnostic, Span } from '../../types';
import { isTemplateFunction, isTemplateKeyword, parseError, templateTokens } from '@appset-tools/gotemplate';
import { templateErrorCode, templateErrorData } from '../../expand/templateCodes';
import { valueSpan } from '../../expand/scalarOffsets';
import { isObj } from '../../objects';
import { finding } from '../../diagnostics/codes';
import { moveToTemplatePatch } from './templatePatchFix';
import { patchUnknownFields } from './patchFields';
import { matchLinesWithBraces } from './linesWith';
import { convertAllToGo, goExpressionIn, turnOnGoTemplate } from './modeSwitch';
import { fixesOf, quickFix } from '../quickFix';
import { appSetKindAt, declaresAppSet } from '../../kinds/appset';
import { fieldsOf } from '../../fields/appset';
import { sub, subPath, type Field } from '../../fields/place';

interface Fix {
  title: string;
  newText: string;
}

const CONTROL_LINE = /^[ \t]*\{\{-?\s*(if|else|end|range|with|define|template|block)\b[^\n]*\}\}[ \t]*$/my;
/** `name: {{cluster}}` (see `unquoted`). */
const UNQUOTED_LINE = /^([ \t]*(?:- )?(?:[^\s#'"{][^:#\n]*:[ \t]+|- ))(\{\{[^\n]*?)[ \t]*(?:[ \t]#[^\n]*)?$/my;

export const templatesContributor: FeatureContributor = {
  name: 'templates',

  fileDiagnostics(file) {
    if (!declaresAppSet(file.text)) return [];
    // A file another tool renders, Helm's included (kinds/helmChart.ts), already has its one note.
    if (file.parsed.diagnostics.some((d) => d.code === 'yaml/templated-file' || d.code === 'helm/chart-template')) return [];
    return [...controlFlow(file), ...unquoted(file)];
  },

  diagnostics(ctx) {
    const spec = isObj(ctx.doc.value.spec) ? ctx.doc.value.spec : {};
    const goTemplate = spec.goTemplate === true;
    const rendered = (ctx.expansion().paramSets ?? ctx.expansion().apps.length) > 0;
    const out: EngineDiagnostic[] = [];
    const view = fieldsOf(ctx.doc);
    // Each string is checked with its place, reached one step at a time from the located fields.
    const visit = (place: Field, depth: number) => {
      if (depth > 100) return;
      const v = place.value;
      if (typeof v === 'string') out.push(...checkString(ctx, v, place, goTemplate, rendered));
      else if (Array.isArray(v)) v.forEach((_, i) => visit(sub(place, i), depth + 1));
      else if (isObj(v)) for (const k of Object.keys(v)) visit(sub(place, k), depth + 1);
    };
    if (isObj(ctx.doc.value.spec)) visit(view.template, 0);
    if (Array.isArray(spec.generators))
      spec.generators.forEach((g, i) => {
        if (!isObj(g)) return;
        for (const kind of Object.keys(g))
          if (isObj(g[kind]) && (g[kind] as Record<string, unknown>).template !== undefined)
            visit(subPath(view.generatorList[i], [kind, 'template']), 0);
      });
    if (typeof spec.templatePatch === 'string' && !rendered)
      out.push(...checkString(ctx, spec.templatePatch, view.templatePatch, goTemplate, rendered, true));
    if (!rendered) out.push(...literalDestination(ctx, spec));
    if (ctx.expansion().apps.length < 2) out.push(...constantName(ctx, spec));
    out.push(...patchUnknownFields(ctx, spec));
    return out;
  },

  fileCodeActions: (file, _span, diagnostics) => [
    ...fixesOf(diagnostics, 'appset/template-in-structure', (d) => {
      const doc = (d.data as { doc?: Span } | undefined)?.doc;
      const fix = doc && moveToTemplatePatch(file.text, doc);
      return fix ? quickFix(fix.title, [d], [{ file: file.uri, span: fix.span, newText: fix.newText }], true) : undefined;
    }),
    // An Argo CD placeholder in a Helm chart template: Helm's escape (kinds/helmPlaceholders.ts).
    ...fixesOf(diagnostics, 'helm/argo-placeholder', (d) => {
      const fix = (d.data as { fix?: Fix } | undefined)?.fix;
      return fix ? quickFix(fix.title, [d], [{ file: file.uri, span: d.span, newText: fix.newText }], true) : undefined;
    }),
  ],

  codeActions(ctx, _span, diagnostics) {
    const out: CodeAction[] = [];
    for (const d of diagnostics) {
      const fix = (d.data as { fix?: Fix } | undefined)?.fix;
      if (!fix || typeof fix.newText !== 'string') continue;
      out.push(quickFix(fix.title, [d], [{ file: ctx.file.uri, span: d.span, newText: fix.newText }], true));
    }
    out.push(...turnOnGoTemplate(ctx, diagnostics), ...convertAllToGo(ctx, diagnostics));
    return out;
  },
};

function at(ctx: AppSetContext, place: Field, raw: string, offset: number, length: number): Span {
  const value = place.valueRange;
  const n = place.node;
  return (value && n?.kind === 'scalar' && n.value === raw && valueSpan(ctx.file.text, value, raw, offset, length)) || place.span;
}

function checkString(
  ctx: AppSetContext,
  raw: string,
  place: Field,
  goTemplate: boolean,
  rendered: boolean,
  patch = false,
): EngineDiagnostic[] {
  if (!raw.includes('{{')) return [];
  const out: EngineDiagnostic[] = [];
  if (goTemplate) {
    // `{{service}}`: fasttemplate's syntax; Go reads a function call, "function not defined".
    // Inside a string literal or comment of an action (the escapes {{`{{ x }}`}} and
    // {{ "{{ x }}" }}) it is text Go prints as written (text/template/parse/lex.go: lexQuote, lexRawQuote).
    const literal = literalRanges(raw);
    for (const m of raw.matchAll(/\{\{-?\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*-?\}\}/g)) {
      const name = m[1];
      if (literal(m.index!)) continue;
      if (isTemplateKeyword(name) || isTemplateFunction(name.split('.')[0])) continue;
      const expr = goExpressionIn(ctx, name) ?? `.${name}`;
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
  return out;
}

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

/** A literal destination with neither name nor server fails every Application (checked only when nothing rendered). */
function literalDestination(ctx: AppSetContext, spec: Record<string, unknown>): EngineDiagnostic[] {
  const t = isObj(spec.template) && isObj(spec.template.spec) ? spec.template.spec : undefined;
  if (!t || !isObj(t.destination) || spec.templatePatch !== undefined) return [];
  const d = t.destination;
  const name = typeof d.name === 'string' ? d.name : '';
  const server = typeof d.server === 'string' ? d.server : '';
  if (name || server) return [];
  return [
    finding(
      'generator/invalid-application',
      'application destination spec is invalid: Destination server missing from app spec — the destination has neither name nor server, so the controller skips every Application this ApplicationSet generates',
      fieldsOf(ctx.doc).templateDestination.keySpan,
    ),
  ];
}

/** Scalar ranges of block and quoted scalars, where `{{` lines are text, not structure. */
/**
 * Whether an offset is inside a quoted or block scalar (text, not structure). The ranges are found on
 * the first question: most files have no line the checks look at, and walking every document's tree
 * (built for it) was a good part of a large file's first answer.
 */
function inTextOf(file: FileContext): (offset: number) => boolean {
  let ranges: Span[] | undefined;
  return (offset) => (ranges ??= textRanges(file)).some((r) => offset >= r.start && offset < r.end);
}

function textRanges(file: FileContext): Span[] {
  const out: Span[] = [];
  for (const d of file.parsed.docs) {
    walk(astOf(d.doc), (node) => {
      if (node.kind === 'scalar' && node.style !== 'plain') out.push(node.span);
    });
  }
  return out;
}

/** `{{- if .x }}` lines in the YAML of an ApplicationSet: the controller never renders the structure. */
function controlFlow(file: FileContext): EngineDiagnostic[] {
  const inText = inTextOf(file);
  const lines: Span[] = [];
  for (const m of matchLinesWithBraces(file.text, CONTROL_LINE)) {
    const start = m.index! + m[0].length - m[0].trimStart().length;
    if (inText(start)) continue;
    lines.push({ start, end: m.index! + m[0].trimEnd().length });
  }
  if (!lines.length) return [];
  const parsedDoc = file.parsed.docs.find((d) => lines[0].start >= d.span.start && lines[0].start <= d.span.end)?.span;
  // To the next document marker: the parser's span of a document it could not read may stop early.
  const start = parsedDoc?.start ?? 0;
  const marker = /^(?:---|\.\.\.)[ \t]*$/m.exec(file.text.slice(lines[0].end));
  const doc = { start, end: marker ? lines[0].end + marker.index : file.text.length };
  // Control flow outside spec.template (around the documents, in metadata or generators) is not a
  // misplaced conditional field: another tool renders this file before Argo CD reads it.
  const docText = file.text.slice(doc.start, doc.end);
  const tKey = /^spec:[ \t]*\n(?:(?:[ \t]*#.*|[ \t]*|[ \t]+\S.*)\n)*?([ \t]+)template:[ \t]*$/m.exec(docText);
  const templateAt = tKey ? doc.start + tKey.index + tKey[0].length : -1;
  if (
    templateAt < 0 ||
    lines.some((l) => l.start < templateAt) ||
    lines.some((l) => /^\{\{-?\s*range\b/.test(file.text.slice(l.start, l.end)))
  ) {
    // The file as a whole is the template: its first ApplicationSet carries the note, every finding in it is dropped.
    const kind = appSetKindAt(file.text);
    const at = kind ? kind.start : lines[0].start;
    return [
      finding(
        'yaml/templated-file',
        `Go template control flow around the YAML structure (${lines.length} line${lines.length === 1 ? '' : 's'} like "${file.text.slice(lines[0].start, lines[0].end)}", outside spec.template): this file is a template another tool renders into YAML, so its ApplicationSets exist only once it is rendered and are not checked here. Check the rendered output instead.`,
        { start: at, end: at + (kind ? 'ApplicationSet'.length : lines[0].end - lines[0].start) },
        { data: { doc: { start: 0, end: file.text.length } } },
      ),
    ];
  }
  return [
    finding(
      'appset/template-in-structure',
      `Go template control flow in the YAML structure (${lines.length} line${lines.length === 1 ? '' : 's'} like "${file.text.slice(lines[0].start, lines[0].end)}"): the controller renders template strings only, and this YAML does not even parse; put the conditional fields in spec.templatePatch (a string rendered per Application)`,
      lines[0],
      { related: lines.slice(1, 6).map((l) => ({ location: { file: file.uri, span: l }, message: 'also here' })), data: { doc } },
    ),
  ];
}

/** `name: {{cluster}}`: YAML reads an unquoted `{{` as a flow mapping, which no Application field accepts. */
function unquoted(file: FileContext): EngineDiagnostic[] {
  const inText = inTextOf(file);
  const out: EngineDiagnostic[] = [];
  for (const m of matchLinesWithBraces(file.text, UNQUOTED_LINE)) {
    const start = m.index! + m[1].length;
    if (inText(start)) continue;
    const value = m[2];
    if (/^\{\{-?\s*(if|else|end|range|with|define|template|block)\b/.test(value)) continue;
    const quoted = value.includes("'") ? JSON.stringify(value) : `'${value}'`;
    out.push(
      finding(
        'yaml/unquoted-template',
        `${value} is not quoted, so YAML reads it as a mapping, not a string: the API server cannot decode this ApplicationSet; quote it: ${quoted}`,
        { start, end: start + value.length },
        { data: { fix: { title: `Quote it: ${quoted}`, newText: quoted } } },
      ),
    );
  }
  return out;
}

/**
 * A literal Application name under a generator that yields several parameter sets by design (a git
 * pattern with a wildcard, a list of several elements, anywhere in a matrix or merge): every
 * Application gets the same name, and the controller reports "ApplicationSet contains applications
 * with duplicate name" and skips them all (applicationset/controllers: the duplicate check before
 * create/update). Only said when the offline expansion cannot show it (fewer than two Applications),
 * where generator/duplicate-name does.
 */
function constantName(ctx: AppSetContext, spec: Record<string, unknown>): EngineDiagnostic[] {
  const meta = isObj(spec.template) && isObj(spec.template.metadata) ? spec.template.metadata : undefined;
  const name = meta?.name;
  if (typeof name !== 'string' || !name || typeof spec.templatePatch === 'string') return [];
  if (name.includes('{{')) return constantFromParameters(ctx, spec, name);
  const several = severalByDesign(spec.generators, 0);
  if (!several) return [];
  return [
    finding(
      'appset/constant-name',
      `every Application is named "${name}" (the name uses no parameter), but ${several} yields several parameter sets by design: as soon as it yields two, the controller finds duplicate names and skips every one of them; put a parameter in the name (e.g. {{path.basename}} or {{ .path.basename }})`,
      fieldsOf(ctx.doc).templateName,
    ),
  ];
}

/**
 * A name made only of parameters that one list generator of a matrix sets to the same value in every
 * element, while the matrix's other child yields several parameter sets by design: the matrix pairs
 * each list element with each of the other's (applicationset/generators/matrix.go), so every pair
 * renders the same name, and the controller skips them all as duplicates. Only plain references
 * (`{{app}}`, `{{ .app }}`) are read; anything else in the name and nothing is claimed.
 */
function constantFromParameters(ctx: AppSetContext, spec: Record<string, unknown>, name: string): EngineDiagnostic[] {
  const goTemplate = spec.goTemplate === true;
  const plain = goTemplate ? /\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}/g : /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;
  const refs = [...name.matchAll(plain)].map((m) => m[1]);
  if (!refs.length || name.replace(plain, '').includes('{{')) return [];
  for (const g of Array.isArray(spec.generators) ? spec.generators.slice(0, 100) : []) {
    const children = isObj(g) && isObj(g.matrix) && Array.isArray(g.matrix.generators) ? g.matrix.generators : undefined;
    if (!children || children.length !== 2 || isObj(g.matrix.template)) continue;
    for (const [i, child] of children.entries()) {
      const list = isObj(child) && isObj(child.list) ? child.list : undefined;
      const elements = list && Array.isArray(list.elements) ? list.elements : [];
      if (!elements.length || !elements.every(isObj) || isObj(list?.template)) continue;
      const first = elements[0] as Record<string, unknown>;
      const same = refs.every((r) => typeof first[r] === 'string' && elements.every((e) => (e as Record<string, unknown>)[r] === first[r]));
      const several = same ? severalByDesign([children[1 - i]], 1) : undefined;
      if (!several) continue;
      const rendered = name.replace(plain, (_, r: string) => String(first[r]));
      return [
        finding(
          'appset/constant-name',
          `every Application is named "${rendered}" (${[...new Set(refs)].join(', ')} ${refs.length === 1 ? 'is' : 'are'} the same in every element of the matrix's list generator), but ${several} yields several parameter sets by design: the matrix pairs each with the list, so as soon as it yields two the controller finds duplicate names and skips every one of them; put a parameter of the other generator in the name`,
          fieldsOf(ctx.doc).templateName,
        ),
      ];
    }
  }
  return [];
}

/** The first generator (in words) that yields several parameter sets by its own definition, not by data. */
function severalByDesign(gens: unknown, depth: number): string | undefined {
  if (!Array.isArray(gens) || depth > 2) return undefined;
  for (const g of gens.slice(0, 100)) {
    if (!isObj(g)) continue;
    // A generator's own template may name its Applications itself.
    const kind = Object.keys(g).find((k) => isObj(g[k]));
    if (!kind) continue;
    const body = g[kind] as Record<string, unknown>;
    if (isObj(body.template) && isObj(body.template.metadata) && body.template.metadata.name !== undefined) continue;
    if (kind === 'list' && Array.isArray(body.elements) && body.elements.length > 1)
      return `the list generator (${body.elements.length} elements)`;
    if (kind === 'git')
      for (const what of ['directories', 'files'] as const) {
        const list = Array.isArray(body[what]) ? (body[what] as unknown[]) : [];
        const wild = list.find((p) => isObj(p) && p.exclude !== true && typeof p.path === 'string' && /[*?[]/.test(p.path));
        if (wild) return `the git generator's pattern "${String((wild as Record<string, unknown>).path)}"`;
      }
    if (kind === 'matrix' || kind === 'merge') {
      const inner = severalByDesign(body.generators, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
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
