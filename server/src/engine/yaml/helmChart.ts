/**
 * Recognises Helm chart templates. A file under `templates/` of a chart (a folder with a
 * `Chart.yaml`), or a text whose `{{ }}` actions use Helm's objects (`.Values`, `.Release`, `.Chart`,
 * `.Capabilities`, `.Files`, `.Template`) or Helm-only functions (`include`, `define`), is not
 * YAML until Helm renders it: `{{- if }}` lines and `{{ .Values.x }}` keys make no sense to a YAML
 * parser, and Argo CD's own `{{ }}` inside it are Helm's to render (or to escape) first. Such a file
 * gets one information finding instead of hundreds of syntax errors.
 *
 * The ApplicationSet generator's own parameters never start with a capital (`.values` of the cluster
 * generator is lower case), so the content test does not mistake Go-template ApplicationSets for Helm.
 */
import type { EngineHost } from '../host';
import type { EngineDiagnostic } from '../types';
import type { ParsedFile } from './document';
import { severityOf } from '../diagnostics/codes';

export interface ChartTemplate {
  /** The chart folder (the one holding `Chart.yaml`), when the file lies under its `templates/`. */
  chart?: string;
  /** Another tool renders the file (helmfile, gomplate, a `.gotmpl`/`.tmpl` name): not Helm. */
  tool?: string;
  /** Why the text was recognised, for the message. */
  reason: string;
}

const HELM_OBJECT = /\{\{-?(?:[^}]*?[\s(|$])?\.(?:Values|Release|Chart|Capabilities|Files|Template)\b/;
// Not `tpl`: Argo CD 3.6 has a `tpl` of its own (PR #26614), so an ApplicationSet may call it.
const HELM_FUNCTION = /\{\{-?\s*(?:define|include)\b|\{\{-?[^}]*?\|\s*include\b|\(\s*include\s+"/;
/**
 * Other tools that render Go templates into YAML before anything reads it: helmfile (`.gotmpl`
 * values and state files; `.Environment`, `.StateValues`, `requiredEnv`, `exec`, `readFile`) and
 * gomplate (`.Env.X`, `getenv`, `datasource`). Argo CD's own parameters are lower case
 * (`.name`, `.values.x`), so `.Env`/`.Environment` are never an ApplicationSet's.
 */
const TEMPLATE_NAME = /\.(gotmpl|tmpl|tpl|j2|jinja2?)$/i;
const OTHER_TOOL =
  /\{\{-?(?:[^}]*?[\s(|$])?\.(?:Environment|StateValues|Env)\b|\{\{-?[^}]*?\b(?:requiredEnv|getenv|datasource|readFile|exec)\s+["(]|\{\{-?\s*env\s+"/;

/** How many folders up a `templates/` folder is looked for (templates may have sub-folders). */
const MAX_DEPTH = 8;

/** The chart this file is a template of, or a Helm reason found in its text; undefined for plain YAML. */
export function chartTemplateOf(text: string, path: string | undefined, host: EngineHost): ChartTemplate | undefined {
  const chart = path ? chartOf(path, host) : undefined;
  if (chart) return { chart, reason: `it lies in the templates folder of the Helm chart ${chart.slice(chart.lastIndexOf('/') + 1)}` };
  const named = path ? TEMPLATE_NAME.exec(path) : null;
  if (named && text.includes('{{'))
    return {
      tool: named[1].toLowerCase() === 'gotmpl' ? 'helmfile' : 'a template tool',
      reason: `its name ends in .${named[1]}`,
    };
  // Outside a chart, only texts that declare an ApplicationSet are judged by their content (other
  // files keep their own findings, e.g. a placeholder {{ .Values.x }} in a cluster Secret).
  if (!/^[ \t]*kind:[ \t]*["']?ApplicationSet\b/m.test(text)) return undefined;
  const m = HELM_OBJECT.exec(text) ?? HELM_FUNCTION.exec(text);
  if (m) return { reason: `it uses Helm template syntax (${snippet(m[0])})` };
  const o = OTHER_TOOL.exec(text);
  if (o)
    return {
      tool: /Env\b|getenv|datasource/.test(o[0]) && !/Environment|requiredEnv/.test(o[0]) ? 'gomplate' : 'helmfile',
      reason: `it uses ${snippet(o[0])}`,
    };
  return undefined;
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
 * The parsed form of a chart template: no documents, no ApplicationSets, and one information
 * finding where it declares an ApplicationSet (nothing at all for the chart's other templates).
 */
export function chartTemplateFile(text: string, t: ChartTemplate): ParsedFile {
  const diagnostics: EngineDiagnostic[] = [];
  const m = /^[ \t]*kind:[ \t]*["']?ApplicationSet\b/m.exec(text);
  // A templated values file of the argocd-apps chart (helmfile `values.yaml.gotmpl`): the note goes on `applicationsets`.
  const values = !m && t.tool ? /^[ \t]*(applicationsets):/m.exec(text) : null;
  if (values) {
    const start = values.index + values[0].indexOf('applicationsets');
    diagnostics.push({
      code: 'yaml/templated-file',
      severity: severityOf('yaml/templated-file'),
      message: `this values file is a template that ${t.tool} renders (${t.reason}), so the ApplicationSets it declares exist only once it is rendered and are not checked here. Check the rendered values instead.`,
      span: { start, end: start + 'applicationsets'.length },
    });
  } else if (m && t.tool) {
    const start = m.index + m[0].length - 'ApplicationSet'.length;
    diagnostics.push({
      code: 'yaml/templated-file',
      severity: severityOf('yaml/templated-file'),
      message:
        `this file is a template that ${t.tool} renders into YAML (${t.reason}), so its ApplicationSets exist only once it is rendered and are not checked here. ` +
        'Check the rendered output instead (render it, then appset lint the result).',
      span: { start, end: start + 'ApplicationSet'.length },
    });
  } else if (m) {
    const start = m.index + m[0].length - 'ApplicationSet'.length;
    diagnostics.push({
      code: 'helm/chart-template',
      severity: severityOf('helm/chart-template'),
      message:
        `${t.chart ? 'this is a Helm chart template' : 'this looks like a Helm template'}: ${t.reason}, so its ApplicationSets exist only once Helm renders it and are not checked here. ` +
        'Check the rendered output instead (helm template … > rendered.yaml, then appset lint rendered.yaml).',
      span: { start, end: start + 'ApplicationSet'.length },
    });
  }
  return { text, docs: [], appsets: [], diagnostics };
}
