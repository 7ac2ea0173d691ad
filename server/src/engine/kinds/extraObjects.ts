/**
 * ApplicationSets written into the argo-cd Helm chart's `extraObjects` values. The chart writes each
 * entry out through Helm's `tpl` (argo-helm charts/argo-cd/templates/extra-manifests.yaml:
 * `tpl (toYaml .) $`), so Helm evaluates every `{{ }}` of the entry against the chart's root before
 * Argo CD sees the ApplicationSet: Argo CD's placeholders must be escaped for Helm there, exactly as
 * in a chart template. The entry is not read as an ApplicationSet (what Argo CD gets is Helm's
 * output): one information note says so, and its placeholders are checked the way Helm sees them
 * (kinds/helmPlaceholders.ts).
 */
import type { EngineDiagnostic, Json, Span } from '../types';
import { finding } from '../diagnostics/codes';
import { isObj } from '../objects';
import { helmPlaceholderFindings } from './helmPlaceholders';
import { hasArgoCdValuesKeys } from './argoCdValues';

/**
 * Paths of the `extraObjects` entries that are ApplicationSets: in the argo-cd chart's own values
 * (argo-cd's keys beside `extraObjects`) or an umbrella chart's under `argo-cd:`.
 */
export function extraObjectsAppSets(v: Json | undefined): (string | number)[][] {
  if (!isObj(v)) return [];
  const lists: [(string | number)[], Json][] = [];
  if (Array.isArray(v.extraObjects) && hasArgoCdValuesKeys(v)) lists.push([['extraObjects'], v.extraObjects]);
  const sub = v['argo-cd'];
  if (isObj(sub) && Array.isArray(sub.extraObjects)) lists.push([['argo-cd', 'extraObjects'], sub.extraObjects]);
  const out: (string | number)[][] = [];
  for (const [path, list] of lists)
    (list as Json[]).forEach((e, i) => {
      if (isObj(e) && e.kind === 'ApplicationSet') out.push([...path, i]);
    });
  return out;
}

/** One note per entry (at its `kind` value) and the placeholders Helm's tpl would evaluate in it. */
export function extraObjectsFindings(text: string, entries: readonly { span: Span; kind: Span }[]): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  for (const { span, kind } of entries) {
    const placeholders = helmPlaceholderFindings(text.slice(span.start, span.end)).map((d) => ({
      ...d,
      span: { start: d.span.start + span.start, end: d.span.end + span.start },
    }));
    out.push(
      finding(
        'helm/chart-template',
        `this ApplicationSet is an entry of the argo-cd chart's extraObjects: the chart writes it out through Helm's tpl (templates/extra-manifests.yaml), so Helm evaluates its {{ }} before Argo CD sees it, and Argo CD's placeholders must be escaped for Helm ({{ "{{ .name }}" }}; ${placeholders.length ? `${placeholders.length} need escaping` : 'all are escaped or Helm leaves them alone'}). It is not checked here as an ApplicationSet: lint what Helm renders (helm template … > rendered.yaml, then appset lint rendered.yaml).`,
        kind,
      ),
      ...placeholders,
    );
  }
  return out;
}
