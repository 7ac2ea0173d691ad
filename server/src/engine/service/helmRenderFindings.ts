/**
 * A chart template Helm itself fails on with the chart's values.yaml: `helm template`, and Argo CD's
 * sync of the chart (the repo-server runs `helm template`), stop at the same place. Only a failure of
 * text/template on the data (a nil pointer) is said, never one of this port's own limits
 * (helmRender.ts `helmFails`). Values files beside values.yaml may set what it lacks: then information.
 */
import type { EngineHost } from '../host';
import type { EngineDiagnostic } from '../types';
import { finding } from '../diagnostics/codes';
import { chartTemplateOf } from '../kinds/helmChart';
import { renderChartTemplate } from './helmRender';

export function helmRenderFindings(text: string, path: string, host: EngineHost): EngineDiagnostic[] {
  const chart = chartTemplateOf(text, path, host);
  if (!chart?.chart || chart.tool) return [];
  const r = renderChartTemplate(text, path, chart.chart, host);
  if (!('cannot' in r) || !r.helmFails) return [];
  const otherValues = (host.readDir(chart.chart) ?? []).some((n) => /^values.+\.ya?ml$/i.test(n) && !/^values\.ya?ml$/i.test(n));
  // The failing line, its text without the indentation.
  let start = 0;
  for (let l = 1; l < r.helmFails.line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    start = nl + 1;
  }
  const eol = text.indexOf('\n', start);
  const line = text.slice(start, eol < 0 ? text.length : eol);
  const lead = line.length - line.trimStart().length;
  return [
    finding(
      'helm/render-fails',
      `helm template fails on this chart template with the chart's values.yaml: ${r.helmFails.detail}; Argo CD's sync of the chart fails the same way${otherValues ? ' unless another values file sets it' : ''} (set the value in values.yaml, or guard it with "default" or "if")`,
      { start: start + lead, end: start + line.trimEnd().length },
      { variant: otherValues },
    ),
  ];
}
