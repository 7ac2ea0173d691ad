/**
 * Flux HelmReleases of the argo-cd chart (versions/fluxChart.ts): an install whatever they state. Flux
 * merges the `valuesFrom` sources in order, then `spec.values` (helm-controller
 * `internal/chartutil/values.go` ChartValuesFromReferences). The sources found in the repository — a
 * ConfigMap or Secret whose key holds the values, a kustomize `configMapGenerator`/`secretGenerator`
 * whose `files:` entry is the values file (install/fluxValuesFrom.ts says where they are looked for) —
 * are selected before the scan; the ones that are not make the install's answers unknown.
 */
import type { Json } from '../types';
import type { IndexedFile } from '../workspace/index';
import { isObj, own } from '../objects';
import { dirname } from '../paths';
import { fluxArgoChart } from '../versions/fluxChart';
import { installOf } from './instances';
import { joinPath } from './installers';
import { valuesFromCandidates } from './fluxValuesFrom';
import { at, MAX_INLINE_YAML, parseInline, resourceName, scalarText, type Collector, type Place, type Site } from './collector';
import { checkHelmValues } from './scanHelmValues';
import { isKustomizationName } from '../workspace/names';

/** A Flux HelmRelease of the argo-cd chart: its valuesFrom sources not in the repository, and spec.values. */
export function checkHelmRelease(c: Collector, place: Place, site: Site, v: Json, name: string) {
  // A HelmRelease of argo-cd is an install whatever it states (no chart version, values only from
  // valuesFrom); its spec.values, which Flux merges last, is where the enabling fix writes.
  const key = c.installKey(place, site);
  c.target(place, 'helm-values', site, ['spec', 'values']);
  const unresolved = fluxArgoChart(v, c.fluxSources())?.unresolved;
  if (unresolved) c.unread(place, at(site, 'spec', 'chartRef'), `HelmRelease ${name} ${unresolved}`);
  const from = own(own(v, 'spec'), 'valuesFrom');
  if (Array.isArray(from))
    from.slice(0, 50).forEach((ref, i) => {
      if (c.selectedFrom.has(`${site.file.path}#${name}#${i}`)) return;
      const rk = String(own(ref, 'kind') ?? 'ConfigMap');
      // Values the model cannot see may set anything: the verdict is unknown, never "off".
      c.unread(
        place,
        at(site, 'spec', 'valuesFrom', i),
        `HelmRelease ${name} valuesFrom ${rk} ${String(own(ref, 'name') ?? '')}: not read (not in this repository; Flux reads it from the cluster)`,
      );
    });
  const values = own(own(v, 'spec'), 'values');
  const last: Place = { ...place, rank: { chain: `${key}#${name}`, rank: 1000 } };
  if (isObj(values)) checkHelmValues(c, last, at(site, 'spec', 'values'), values, `HelmRelease ${name} values`);
}

/** The HelmReleases' `valuesFrom` sources found in the repository: read as their install's, in Flux's order. */
export function selectFluxValues(c: Collector, files: readonly IndexedFile[]) {
  for (const file of files)
    for (const d of file.docs) {
      const v = d.value;
      if (own(v, 'kind') !== 'HelmRelease' || !fluxArgoChart(v, c.fluxSources())) continue;
      const from = own(own(v, 'spec'), 'valuesFrom');
      if (Array.isArray(from)) from.slice(0, 50).forEach((ref, i) => selectValuesFrom(c, files, file, v, ref, i));
    }
}

/** The `i`th valuesFrom entry `ref` of the HelmRelease `v` in `file`. */
function selectValuesFrom(c: Collector, files: readonly IndexedFile[], file: IndexedFile, v: Json, ref: Json, i: number) {
  const name = resourceName(v);
  const ns = scalarText(own(own(v, 'metadata'), 'namespace'));
  const key = installOf(file.path).key;
  const kind = String(own(ref, 'kind') ?? 'ConfigMap');
  const refName = scalarText(own(ref, 'name'));
  const valuesKey = scalarText(own(ref, 'valuesKey')) ?? 'values.yaml';
  if (!refName || own(ref, 'targetPath') !== undefined) return;
  const found =
    valuesSource(c, files, kind, refName, valuesKey, ns) ??
    valuesSource(c, valuesFromCandidates(c.workspace, file.path), kind, refName, valuesKey, ns);
  if (!found) return;
  c.selectedFrom.add(`${file.path}#${name}#${i}`);
  const who = `HelmRelease ${name} valuesFrom ${kind} ${refName} (${valuesKey})`;
  const chain = `${key}#${name}`;
  if ('file' in found) {
    c.selected.set(found.file.path, { key, namespace: ns, keys: [[]], chain, rank: i + 1, who });
    return;
  }
  // A key of a ConfigMap/Secret in a manifest: its text is the values document.
  const place: Place = { install: { key, namespace: ns }, rank: { chain, rank: i + 1 } };
  for (const doc of parseInline(found.text, 1)) if (isObj(doc)) checkHelmValues(c, place, { ...found.site, inner: true }, doc, who);
}

function valuesSource(
  c: Collector,
  files: readonly IndexedFile[],
  kind: string,
  name: string,
  key: string,
  namespace: string | undefined,
): { file: IndexedFile } | { text: string; site: Site } | undefined {
  for (const file of files)
    for (const d of file.docs) {
      const v = d.value;
      const site: Site = { file, docIndex: d.index, path: [], inner: false };
      if (own(v, 'kind') === kind && resourceName(v) === name) {
        const ns = scalarText(own(own(v, 'metadata'), 'namespace'));
        if (namespace && ns && ns !== namespace) continue;
        const data = scalarText(own(own(v, 'data'), key));
        const stringData = scalarText(own(own(v, 'stringData'), key));
        if (kind === 'ConfigMap' && data !== undefined) return { text: data, site: at(site, 'data', key) };
        if (kind === 'Secret' && stringData !== undefined) return { text: stringData, site: at(site, 'stringData', key) };
        if (kind === 'Secret' && data !== undefined) {
          const text = decodeBase64(data);
          if (text !== undefined) return { text, site: at(site, 'data', key) };
        }
      }
      // kustomize generators: `files: [values.yaml=argocd-values.yaml]` or `files: [values.yaml]`.
      const gens = own(v, kind === 'Secret' ? 'secretGenerator' : 'configMapGenerator');
      if (!Array.isArray(gens) || !isKustomizationName(file.path)) continue;
      for (const g of gens) {
        if (own(g, 'name') !== name) continue;
        const entries = own(g, 'files');
        for (const e of Array.isArray(entries) ? entries : []) {
          const { key: k, path: p } = fileEntry(typeof e === 'string' ? e : '');
          const abs = p ? joinPath(dirname(file.path), p) : undefined;
          const target = k === key && abs ? c.workspace.file(abs) : undefined;
          if (target) return { file: target };
        }
      }
    }
  return undefined;
}

/** A kustomize generator `files:` entry: `key=path`, or `path` whose key is its base name (kustomize api/kv). */
function fileEntry(e: string): { key: string; path: string } {
  const eq = e.indexOf('=');
  const path = eq >= 0 ? e.slice(eq + 1) : e;
  return { key: eq >= 0 ? e.slice(0, eq) : path.slice(path.lastIndexOf('/') + 1), path };
}

function decodeBase64(s: string): string | undefined {
  const t = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.length > MAX_INLINE_YAML) return undefined;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(t), (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
