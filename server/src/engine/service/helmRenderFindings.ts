/**
 * Renders a chart template with the chart's values.yaml through the host and hands what Helm fails on
 * to the rule `helm/render-fails` (kinds/helmRenderFails.ts, the prefix's home): rendering needs the
 * host and the template library, which sit above `kinds/`. Only a failure of text/template on the data
 * is handed on, never one of this port's own limits (helmRender.ts `helmFails`).
 */
import type { EngineHost } from '../host';
import type { EngineDiagnostic } from '../types';
import { chartTemplateOf } from '../kinds/helmChart';
import { helmRenderFails } from '../kinds/helmRenderFails';
import { renderChartTemplate } from './helmRender';

export function helmRenderFindings(text: string, path: string, host: EngineHost): EngineDiagnostic[] {
  const chart = chartTemplateOf(text, path, host);
  if (!chart?.chart || chart.tool) return [];
  const r = renderChartTemplate(text, path, chart.chart, host);
  if (!('cannot' in r) || !r.helmFails) return [];
  const otherValues = (host.readDir(chart.chart) ?? []).some((n) => /^values.+\.ya?ml$/i.test(n) && !/^values\.ya?ml$/i.test(n));
  return helmRenderFails(text, { ...r.helmFails, otherValues });
}
