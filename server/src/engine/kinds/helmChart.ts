/**
 * Recognises Helm chart templates. A file under `templates/` of a chart (a folder with a
 * `Chart.yaml`), or a text whose `{{ }}` actions use Helm's objects (`.Values`, `.Release`, `.Chart`,
 * `.Capabilities`, `.Files`, `.Template`), or Helm-only functions (`include`, `define`, `required`,
 * `lookup`) where YAML cannot hold them as text, is not
 * YAML until Helm renders it: `{{- if }}` lines and `{{ .Values.x }}` keys make no sense to a YAML
 * parser, and Argo CD's own `{{ }}` inside it are Helm's to render (or to escape) first. Such a file
 * gets one information finding instead of hundreds of syntax errors.
 *
 * The ApplicationSet generator's own parameters never start with a capital (`.values` of the cluster
 * generator is lower case), so the content test does not mistake Go-template ApplicationSets for Helm.
 */
import type { EngineHost } from '../host';
import type { EngineDiagnostic } from '../types';
import { finding } from '../diagnostics/codes';
import { actionWords, inStructure, scanActions } from './templateActions';
import { helmPlaceholderFindings } from './helmPlaceholders';
import { helmPrintedCollectionFindings } from './helmPrinted';
import { appSetKindAt, declaresAppSet } from './appset';
import { scaffoldOf } from './scaffolding';
import { keyLineWord, templatedFile } from '../yaml';

export interface ChartTemplate {
  /** The chart folder (the one holding `Chart.yaml`), when the file lies under its `templates/`. */
  chart?: string;
  /** Another tool renders the file (helmfile, gomplate, a `.gotmpl`/`.tmpl` name): not Helm. */
  tool?: string;
  /** Why the text was recognised, for the message. */
  reason: string;
}

/** Helm's built-in objects (helm.sh/helm/v3 pkg/engine: the root a chart template runs against). */
const HELM_OBJECTS = new Set(['Values', 'Release', 'Chart', 'Capabilities', 'Files', 'Template', 'Subcharts']);
/**
 * Names only Helm defines and Argo CD does not (pkg/engine/funcs.go: include, required, lookup; define
 * is Go's but names a template of the chart). `tpl` is Argo CD's too from 3.6 (PR 26614) and `toYaml`
 * since 2.9, so they prove nothing. These count only where YAML cannot hold the action as text
 * (`inStructure`): in a quoted string of a plain ApplicationSet they are that file's own mistake.
 */
const HELM_FUNCTIONS = new Set(['include', 'define', 'required', 'lookup']);
/**
 * Other tools that render Go templates into YAML before anything reads it: helmfile (`.gotmpl`
 * values and state files; `.Environment`, `.StateValues`, `requiredEnv`, `exec`, `readFile`) and
 * gomplate (`.Env.X`, `getenv`, `datasource`). Argo CD's own parameters are lower case
 * (`.name`, `.values.x`), so `.Env`/`.Environment` are never an ApplicationSet's.
 */
/** The extensions of template files (compared in lower case): another tool renders a file so named. */
const TEMPLATE_EXTENSIONS = new Set(['gotmpl', 'tmpl', 'tpl', 'j2', 'jinja', 'jinja2']);
const TOOL_OBJECTS = new Map([
  ['Environment', 'helmfile'],
  ['StateValues', 'helmfile'],
  ['Env', 'gomplate'],
]);
const TOOL_FUNCTIONS = new Map([
  ['requiredEnv', 'helmfile'],
  ['exec', 'helmfile'],
  ['readFile', 'helmfile'],
  ['getenv', 'gomplate'],
  ['datasource', 'gomplate'],
]);

/** What the text's `{{ }}` actions say about the tool that renders it (one linear scan, `templateActions.ts`). */
export function templateSignals(text: string): { helm?: string; tool?: { name: string; snippet: string }; work: number } {
  const scan = scanActions(text);
  let helm: string | undefined;
  let tool: { name: string; snippet: string } | undefined;
  // What an action's words say depends on its text only, and a file's actions repeat (`{{ .service }}` in
  // each of its ApplicationSets): each distinct text is read and classified once per scan (no closures per action).
  const kinds = new Map<string, ActionKind>();
  for (const a of scan.actions) {
    if (helm) break;
    let k = kinds.get(a.body);
    if (!k) kinds.set(a.body, (k = actionKind(a.body)));
    if (k.helmObject || (k.helmFunction && inStructure(text, a))) helm = text.slice(a.start, Math.min(a.end, a.start + 60));
    else if (!tool) {
      const name = k.toolObject
        ? TOOL_OBJECTS.get(k.toolObject)
        : k.toolFunction && inStructure(text, a)
          ? TOOL_FUNCTIONS.get(k.toolFunction)
          : undefined;
      if (name) tool = { name, snippet: text.slice(a.start, Math.min(a.end, a.start + 60)) };
    }
  }
  if (!tool && scan.terraformDirective !== undefined) {
    const eol = text.indexOf('\n', scan.terraformDirective);
    tool = {
      name: "Terraform's templatefile",
      snippet: text.slice(scan.terraformDirective, eol < 0 ? text.length : Math.min(eol, scan.terraformDirective + 60)),
    };
  }
  return { ...(helm ? { helm } : {}), ...(tool ? { tool } : {}), work: scan.work };
}

/** What an action's words name: a Helm object or function, another tool's object or function (the first of each). */
interface ActionKind {
  helmObject: boolean;
  helmFunction: boolean;
  toolObject: string | undefined;
  toolFunction: string | undefined;
}

function actionKind(body: string): ActionKind {
  const { fields, idents } = actionWords(body);
  return {
    helmObject: fields.some((f) => HELM_OBJECTS.has(f)),
    helmFunction: idents.some((f) => HELM_FUNCTIONS.has(f)),
    toolObject: fields.find((f) => TOOL_OBJECTS.has(f)),
    toolFunction: idents.find((f) => TOOL_FUNCTIONS.has(f)),
  };
}

/** How many folders up a `templates/` folder is looked for (templates may have sub-folders). */
const MAX_DEPTH = 8;

/** The chart this file is a template of, or a Helm reason found in its text; undefined for plain YAML. */
export function chartTemplateOf(text: string, path: string | undefined, host: EngineHost): ChartTemplate | undefined {
  const chart = path ? chartOf(path, host) : undefined;
  if (chart) return { chart, reason: `it lies in the templates folder of the Helm chart ${chart.slice(chart.lastIndexOf('/') + 1)}` };
  const named = path ? templateExtension(path) : undefined;
  if (named !== undefined && text.includes('{{'))
    return {
      tool: named.toLowerCase() === 'gotmpl' ? 'helmfile' : 'a template tool',
      reason: `its name ends in .${named}`,
    };
  // Outside a chart, only texts that declare an ApplicationSet are judged by their content (other
  // files keep their own findings, e.g. a placeholder {{ .Values.x }} in a cluster Secret).
  if (!declaresAppSet(text)) return undefined;
  const signals = templateSignals(text);
  if (signals.helm) return { reason: `it uses Helm template syntax (${snippet(signals.helm)})` };
  if (signals.tool) return { tool: signals.tool.name, reason: `it uses ${snippet(signals.tool.snippet)}` };
  const scaffold = scaffoldOf(text);
  if (scaffold) return { tool: scaffold.name, reason: `it uses ${snippet(scaffold.snippet)}` };
  const escape = goTemplateOn(text) ? undefined : goEscapeIn(text);
  if (escape)
    return {
      reason: `its actions are Go template escapes (${snippet(escape)}) that Argo CD's fasttemplate would read as parameter names: only a Go template renderer run first, such as Helm, prints them`,
    };
  return undefined;
}

// The two tests below compare characters instead of running a pattern: every analysis of a file asks them, and
// a pattern is compiled in each fresh process at its first use, twice (issue 39, tenth pass).

/** The path's extension when it is a template file's (`/\.(gotmpl|tmpl|tpl|j2|jinja2?)$/i`), as written. */
function templateExtension(path: string): string | undefined {
  const ext = path.slice(path.lastIndexOf('.') + 1);
  // No dot at all: lastIndexOf gives -1 and `ext` is the whole path, which must not count.
  return path.length > ext.length && TEMPLATE_EXTENSIONS.has(ext.toLowerCase()) ? ext : undefined;
}

/** `/^[ \t]*goTemplate:[ \t]*["']?true\b/m`, by character codes (yaml/charClasses.ts keyLineWord). */
const goTemplateOn = (text: string) => keyLineWord(text, 'goTemplate:', 'true') >= 0;

/**
 * The first action that is a Go string literal (`{{ "{{" }}`, `` {{`{{name}}`}} ``): Helm's escape of
 * an Argo CD placeholder. Under `goTemplate: true` Argo CD prints it as text/template does (valid,
 * the file stays plain); under fasttemplate the tag would be a parameter named with quotes, which no
 * generator writes (valyala/fasttemplate takes the text between the delimiters as the tag), so only a
 * Go template renderer before Argo CD can mean it.
 */
function goEscapeIn(text: string): string | undefined {
  let escape: string | undefined;
  for (const a of scanActions(text).actions) {
    if (!a.closed) continue;
    const body = a.body.replace(/^-\s/, '').replace(/\s-$/, '').trim();
    // Control flow of a tool that is not shown to be Helm has its own note (features/templates).
    if (/^(?:if|range|with|define|block|end)\b/.test(body)) return undefined;
    if (!escape && (/^"(?:[^"\\\n]|\\.)*"$/.test(body) || /^`[^`]*`$/.test(body))) escape = text.slice(a.start, a.end);
  }
  return escape;
}

function chartOf(path: string, host: EngineHost): string | undefined {
  const parts = path.split('/');
  for (let i = parts.length - 2, depth = 0; i > 0 && depth < MAX_DEPTH; i--, depth++) {
    if (parts[i] !== 'templates') continue;
    const dir = parts.slice(0, i).join('/');
    if (host.stat(`${dir}/Chart.yaml`)?.isFile) return dir;
  }
  return undefined;
}

function snippet(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 40 ? t.slice(0, 39) + '…' : t;
}

/**
 * The parsed form of a chart template (a `ParsedFile`, as kinds/file.ts reads one): no documents, no ApplicationSets,
 * and one information finding where it declares an ApplicationSet (nothing at all for the chart's other templates).
 */
/** `chartValues`: the chart's own values.yaml, decoded (service/helmRender.ts `chartValues`), when known. */
export function chartTemplateFile(
  text: string,
  t: ChartTemplate,
  chartValues?: unknown,
): { text: string; docs: []; appsets: []; diagnostics: EngineDiagnostic[] } {
  const diagnostics: EngineDiagnostic[] = [];
  const m = appSetKindAt(text);
  // A templated values file of the argocd-apps chart (helmfile `values.yaml.gotmpl`): the note goes on `applicationsets`.
  const values = !m && t.tool ? /^[ \t]*(applicationsets):/m.exec(text) : null;
  if (values && t.tool) {
    const start = values.index + values[0].indexOf('applicationsets');
    diagnostics.push(templatedFile({ tool: t.tool, reason: t.reason }, 'values', { start, end: start + 'applicationsets'.length }));
  } else if (m && t.tool) {
    diagnostics.push(
      templatedFile({ tool: t.tool, reason: t.reason }, 'manifests', { start: m.start, end: m.start + 'ApplicationSet'.length }),
    );
  } else if (m) {
    const start = m.start;
    const placeholders = helmPlaceholderFindings(text);
    diagnostics.push(
      finding(
        'helm/chart-template',
        `${t.chart ? 'this is a Helm chart template' : 'this looks like a Helm template'}: ${t.reason}, so its ApplicationSets exist only once Helm renders it. ` +
          `Its Argo CD placeholders are checked against what Helm does with them (${placeholders.length ? `${placeholders.length} need escaping` : 'all are escaped or Helm leaves them alone'}); the ApplicationSets Helm renders are not linted here (appset render and the preview show them when the chart's values.yaml renders them). ` +
          'Check the rendered output too (helm template … > rendered.yaml, then appset lint rendered.yaml).',
        { start, end: start + 'ApplicationSet'.length },
      ),
    );
    diagnostics.push(...placeholders, ...(t.chart ? helmPrintedCollectionFindings(text, chartValues) : []));
  }
  return { text, docs: [], appsets: [], diagnostics };
}
