/**
 * ApplicationSets written into the argo-cd Helm chart's `extraObjects` values. The chart writes each
 * entry out through Helm's `tpl` (argo-helm charts/argo-cd/templates/extra-manifests.yaml:
 * `tpl (toYaml .) $`), so Helm evaluates every `{{ }}` of the entry against the chart's root before
 * Argo CD sees the ApplicationSet: Argo CD's placeholders must be escaped for Helm there, exactly as
 * in a chart template. The entry is not read as an ApplicationSet (what Argo CD gets is Helm's
 * output): one information note says so, and its placeholders are checked the way Helm sees them
 * (kinds/helmPlaceholders.ts).
 */
import * as YAML from 'yaml';
import type { EngineDiagnostic, Json } from '../types';
import type { YamlDoc } from '../yaml';
import { finding } from '../diagnostics/codes';
import { helmPlaceholderFindings } from './helmPlaceholders';

/** Top-level keys only the argo-cd chart's values have (as versions/detect.ts reads them). */
const ARGO_VALUES_KEYS = ['configs', 'applicationSet', 'repoServer', 'redis-ha', 'server', 'controller'];

type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export function extraObjectsFindings(yd: YamlDoc, text: string): EngineDiagnostic[] {
  const v = yd.value;
  if (!isObj(v) || !YAML.isMap(yd.doc.contents)) return [];
  const out: EngineDiagnostic[] = [];
  // The chart's own values (argo-cd's keys beside extraObjects), or an umbrella chart's under `argo-cd:`.
  const sites: YAML.YAMLMap[] = [];
  if (Array.isArray(v.extraObjects) && ARGO_VALUES_KEYS.some((k) => isObj(v[k]))) sites.push(yd.doc.contents);
  const sub = yd.doc.contents.get('argo-cd', true);
  if (YAML.isMap(sub) && isObj(v['argo-cd']) && Array.isArray(v['argo-cd'].extraObjects)) sites.push(sub);
  for (const site of sites) {
    const list = site.get('extraObjects', true);
    if (!YAML.isSeq(list)) continue;
    for (const item of list.items) {
      if (!YAML.isMap(item) || !item.range) continue;
      const kind = item.get('kind', true);
      if (!YAML.isScalar(kind) || kind.value !== 'ApplicationSet' || !kind.range) continue;
      const [start, end] = [item.range[0], item.range[1]];
      const placeholders = helmPlaceholderFindings(text.slice(start, end)).map((d) => ({
        ...d,
        span: { start: d.span.start + start, end: d.span.end + start },
      }));
      out.push(
        finding(
          'helm/chart-template',
          `this ApplicationSet is an entry of the argo-cd chart's extraObjects: the chart writes it out through Helm's tpl (templates/extra-manifests.yaml), so Helm evaluates its {{ }} before Argo CD sees it, and Argo CD's placeholders must be escaped for Helm ({{ "{{ .name }}" }}; ${placeholders.length ? `${placeholders.length} need escaping` : 'all are escaped or Helm leaves them alone'}). It is not checked here as an ApplicationSet: lint what Helm renders (helm template … > rendered.yaml, then appset lint rendered.yaml).`,
          { start: kind.range[0], end: kind.range[1] },
        ),
        ...placeholders,
      );
    }
  }
  return out;
}
