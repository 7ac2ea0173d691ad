/**
 * A Helm chart template that emits ApplicationSets, checked the way Helm reads it: Helm evaluates every
 * `{{ … }}` of the file before Argo CD ever sees the ApplicationSet (helm.sh/helm/v3 pkg/engine), so
 * an Argo CD placeholder left unescaped is Helm's to evaluate:
 * - `{{path.basename}}` (fasttemplate) or `{{ normalize .name }}` (an Argo CD-only function): Helm's
 *   parser rejects the whole chart — `function "path" not defined`;
 * - `{{ .cluster }}`, `{{ .name }}` at the top level of the file: Helm reads the field from its own root
 *   object (`.Values`, `.Release`, … and nothing else), finds nothing and prints `<no value>`, which its
 *   engine turns into an empty string — the placeholder vanishes from the ApplicationSet.
 * Inside `range`, `with`, `define` and `block` the dot is something else, so fields there are left
 * alone. The fix is Helm's escape: `{{ "{{path.basename}}" }}` or `` {{`{{path.basename}}`}} ``, which
 * Helm prints as the literal placeholder for Argo CD.
 */
import type { EngineDiagnostic } from '../types';
import { finding } from '../diagnostics/codes';
import { isTemplateFunction, parseErrorWith } from '@appset-tools/gotemplate';
import { actionWords, scanActions } from './templateActions';

/** Helm's built-in objects: the only fields of the root a chart template runs against. */
const HELM_ROOT = new Set(['Values', 'Release', 'Chart', 'Capabilities', 'Files', 'Template', 'Subcharts']);
/** Functions Helm adds to sprig (pkg/engine/funcs.go); sprig's getHostByName Helm keeps, Argo CD drops. */
const HELM_EXTRA = new Set([
  'include',
  'tpl',
  'required',
  'lookup',
  'toToml',
  'fromToml',
  'toYaml',
  'mustToYaml',
  'toYamlPretty',
  'fromYaml',
  'fromYamlArray',
  'toJson',
  'mustToJson',
  'fromJson',
  'fromJsonArray',
  'getHostByName',
]);
/** Argo CD's own functions (applicationset/utils/template_functions.go) that Helm does not have. */
const ARGO_ONLY = new Set(['normalize', 'slugify']);
/** Helm deletes these from sprig (pkg/engine/funcs.go), as Argo CD does. */
const HELM_REMOVED = new Set(['env', 'expandenv']);

export function helmHasFunction(name: string): boolean {
  if (HELM_EXTRA.has(name)) return true;
  if (ARGO_ONLY.has(name) || HELM_REMOVED.has(name)) return false;
  return isTemplateFunction(name);
}

/** Bound on findings per file: the first ones say what to do with the rest. */
const MAX_FINDINGS = 200;

export function helmPlaceholderFindings(text: string): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  // The block keywords open around the current action; a rebinding one changes what `.` is.
  const blocks: boolean[] = [];
  for (const a of scanActions(text).actions) {
    if (out.length >= MAX_FINDINGS) break;
    if (!a.closed) break;
    const body = a.body.replace(/^-\s/, '').replace(/\s-$/, '').trim();
    if (body.startsWith('/*')) continue;
    const keyword = /^(if|else|end|range|with|define|block|template)\b/.exec(body)?.[1];
    if (keyword === 'end') {
      blocks.pop();
      continue;
    }
    if (keyword === 'if' || keyword === 'range' || keyword === 'with' || keyword === 'define' || keyword === 'block') {
      blocks.push(keyword !== 'if');
      continue;
    }
    if (keyword === 'else') continue;
    const action = text.slice(a.start, a.end);
    const err = parseErrorWith(`{{${a.body}}}`, helmHasFunction);
    const undefinedFn = err?.reason?.kind === 'undefined-function' ? err.reason.name : undefined;
    if (undefinedFn) {
      out.push(
        finding(
          'helm/argo-placeholder',
          `Helm fails on ${action} (function "${undefinedFn}" not defined): this is an Argo CD placeholder that Helm evaluates first, so the chart does not render at all; escape it so Helm prints it for Argo CD: ${escaped(action)}`,
          { start: a.start, end: a.end },
          { data: { fix: { title: `Escape for Helm: ${escaped(action)}`, newText: escaped(action) } } },
        ),
      );
      continue;
    }
    if (err || blocks.some((rebinds) => rebinds)) continue;
    const own = actionWords(a.body).fields.filter((f) => !HELM_ROOT.has(f));
    if (!own.length) continue;
    out.push(
      finding(
        'helm/argo-placeholder',
        `Helm renders ${action} itself, against its own root object, where .${own[0]} does not exist: it prints an empty string (or fails), so the Argo CD placeholder vanishes from the ApplicationSet; escape it so Helm prints it for Argo CD: ${escaped(action)}`,
        { start: a.start, end: a.end },
        { variant: true, data: { fix: { title: `Escape for Helm: ${escaped(action)}`, newText: escaped(action) } } },
      ),
    );
  }
  return out;
}

/** Helm's escape of an action: a string literal Helm prints as it is (quoted, or raw when it holds quotes). */
export function escaped(action: string): string {
  if (!/["\\\n]/.test(action)) return `{{ "${action}" }}`;
  if (!action.includes('`')) return `{{\`${action}\`}}`;
  return `{{ ${JSON.stringify(action)} }}`;
}
