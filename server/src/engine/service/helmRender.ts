/**
 * The ApplicationSets a chart template becomes, where the chart's own values are known: the template
 * rendered the way `helm template` renders it (helm.sh/helm/v3 pkg/engine engine.go), so that `appset
 * render` and the preview can show the Applications of a chart that templates ApplicationSets.
 * - The root is Helm's: `.Values` (the chart's `values.yaml`), `.Release` (`helm template`'s defaults:
 *   name `release-name`, namespace `default`, `IsInstall`), `.Chart` (Chart.yaml's fields, capitalised as
 *   Helm's `chart.Metadata` is), `.Template` and `.Capabilities.KubeVersion`.
 * - Without `--strict`, Helm runs with `missingkey=zero` and removes every `<no value>` from the output.
 * - Only the functions Helm shares with our Go template library render. A template that calls
 *   `include`, `required`, `lookup`, `tpl` or another Helm-only function, or reads `.Files`, fails to
 *   render here, and that is said (never guessed): `cannot` holds why.
 * Values from `--set`, other values files or a parent chart are not known: the render says it uses
 * `values.yaml` alone.
 */
import type { EngineHost } from '../host';
import { isObj } from '../objects';

import { renderString, TemplateError } from '@appset-tools/gotemplate';
import { parseGoYamlFile } from '../yaml';
import { put } from '../objects';

export type HelmRender =
  | { text: string; values: string }
  | {
      cannot: string;
      /** Set when Helm itself fails the same way with these values (a nil pointer), not only this port: where and why. */
      helmFails?: { line: number; detail: string };
    };

/**
 * What the CLI (`appset render`, `lint`, …) and the editor's preview say of a chart template whose
 * ApplicationSets are not rendered here (`cannot` is why): one sentence, said the same way everywhere.
 */
export function notRenderedHere(cannot: string): string {
  return `a Helm chart template whose ApplicationSets are not rendered here: ${cannot}`;
}

const RELEASE_NAME = 'release-name';
/**
 * Functions of our library that Helm's engine does not define as we do (pkg/engine/funcs.go): Argo CD's
 * `normalize`/`slugify`, and `tpl`, which Helm binds to the chart's templates.
 */
const NOT_HELM = ['normalize', 'slugify', 'tpl'];

export function renderChartTemplate(text: string, path: string, chart: string, host: EngineHost): HelmRender {
  const valuesPath = `${chart}/values.yaml`;
  const valuesText = host.readFile(valuesPath);
  if (valuesText === undefined) return { cannot: `the chart's values.yaml (${valuesPath}) is not in the workspace` };
  let values: unknown;
  let meta: unknown;
  try {
    values = parseGoYamlFile(valuesText) ?? {};
    meta = parseGoYamlFile(host.readFile(`${chart}/Chart.yaml`) ?? '') ?? {};
  } catch (e) {
    return { cannot: `the chart's values.yaml or Chart.yaml does not parse: ${(e as Error).message}` };
  }
  if (!isObj(values)) return { cannot: "the chart's values.yaml is not a mapping" };
  const chartMeta = isObj(meta) ? meta : {};
  const chartName = typeof chartMeta.name === 'string' ? chartMeta.name : (chart.split('/').pop() ?? 'chart');
  // Helm's chart.Metadata as templates see it: the Chart.yaml keys with a capital first letter.
  const chartObj: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(chartMeta)) put(chartObj, k.charAt(0).toUpperCase() + k.slice(1), v);
  const inChart = path.startsWith(chart + '/') ? path.slice(chart.length + 1) : path;
  const root: Record<string, unknown> = {
    Values: values,
    Release: { Name: RELEASE_NAME, Namespace: 'default', Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
    Chart: chartObj,
    Template: { Name: `${chartName}/${inChart}`, BasePath: `${chartName}/templates` },
    Capabilities: { KubeVersion: { Version: 'v1.20.0', Major: '1', Minor: '20', GitVersion: 'v1.20.0' } },
  };
  try {
    // Argo CD's own functions are not Helm's: calling one fails in Helm as it fails here.
    const out = renderString(text, root, { goTemplate: true, options: ['missingkey=zero'], missingFunctions: NOT_HELM });
    return { text: out.replaceAll('<no value>', ''), values: valuesPath };
  } catch (e) {
    // Go's errors quote the whole template before `template: base:LINE: …`; the line and the cause
    // (the error's place, carried as data where it is raised) say it.
    const place = e instanceof TemplateError ? e.place : undefined;
    const msg = e instanceof Error ? e.message : String(e);
    const cannot = `Helm's render cannot be reproduced here: ${place ? `line ${place.line}: ${place.detail}` : msg.slice(0, 300)}`;
    // A nil pointer is text/template's own failure on the data, which Helm's engine (the same package,
    // pkg/engine engine.go render → template.Execute) meets with the same values: Helm fails too.
    // Only a chain read from `.Values` is decided by values.yaml: `.Files`, `.Capabilities`, `.Subcharts`
    // or a variable hold what Helm gives and this render does not, and their nil is this port's.
    const chain = e instanceof TemplateError && e.offset !== undefined ? text.slice(e.offset, e.offset + (e.length ?? 0)) : '';
    if (place && e instanceof TemplateError && e.reason?.kind === 'nil-pointer' && /^\$?\.Values\./.test(chain))
      return { cannot, helmFails: place };
    return { cannot };
  }
}

/** The chart's own values.yaml, decoded as Helm decodes it; undefined when absent or unreadable (nothing is guessed). */
export function chartValues(chart: string, host: EngineHost): unknown {
  const text = host.readFile(`${chart}/values.yaml`);
  if (text === undefined) return undefined;
  try {
    return parseGoYamlFile(text);
  } catch {
    return undefined;
  }
}
