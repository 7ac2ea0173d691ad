/**
 * kustomize `helmCharts:` entries that inflate the argo-cd chart (`kustomize build --enable-helm`; Argo CD
 * runs it so with `kustomize.buildOptions: --enable-helm` in argocd-cm). What the install model needs of
 * one entry (kustomize `api/types/helmchartargs.go` HelmChart):
 * - `version`: the chart version (versions/detect.ts maps it to the Argo CD release, as for a Chart.yaml
 *   dependency);
 * - `namespace`: the release's namespace (a kustomization's own `namespace:` still wins: kustomize sets it
 *   on every resource the build emits);
 * - the values, in Helm's order: `AsHelmArgs` passes `-f valuesFile`, then `-f` each
 *   `additionalValuesFiles` entry, and the HelmChartInflationGenerator first merges `valuesInline` into
 *   the valuesFile's values (`api/internal/builtins/HelmChartInflationGenerator.go`: with `valuesMerge`
 *   `override`, the default, or `merge`, inline values win over the file's; with `replace` the file's
 *   values are dropped). The chart's own values.yaml comes first in any case (Helm reads it).
 * install/scan.ts calls `selectHelmChartValues` before it reads the workspace, scanKustomize.ts `checkHelmCharts` on each
 * kustomization; what they find goes through its sink (install/sink.ts).
 */
import type { Json } from '../types';
import { isObj, own } from '../objects';
import { dirname } from '../paths';
import { joinPath } from './installers';
import { isArgoHelmChart } from '../versions/detect';
import { installOf } from './instances';
import type { IndexedFile } from '../workspace/index';
import type { JsonPath } from '../yaml';
import type { FormSink, FormSite, Placement } from './sink';
import { isKustomizationName, startsWithScheme } from '../workspace/names';

/** One values source of an argo-cd `helmCharts:` entry, with its place in Helm's order. */
export interface HelmChartValuesFile {
  /** As written in the kustomization. */
  written: string;
  /** Absolute path, when it resolves inside the workspace (also when `unread` says Helm never gets it). */
  path?: string;
  /** Why it is not read (a URL, outside the repository) or not passed to Helm (`valuesMerge: replace`: `replaced`). */
  unread?: string;
  /** Where it sits in the kustomization (`['helmCharts', 0, 'valuesFile']`). */
  at: (string | number)[];
  /** Helm's merge position: later ranks override earlier ones. */
  rank: number;
  /** `valuesMerge: replace`: kustomize passes valuesInline in its place; the file is not Helm's input. */
  replaced?: true;
}

export interface ArgoHelmChart {
  /** Index of the entry in `helmCharts:`. */
  index: number;
  version?: string;
  namespace?: string;
  files: HelmChartValuesFile[];
  /** Rank of `valuesInline` (between the valuesFile and the additional files), when it is a map. */
  inlineRank?: number;
  /** `valuesMerge` as written (`override` when absent). */
  merge: string;
}

const MAX_CHARTS = 50;
const MAX_FILES = 50;
const text = (v: Json | undefined): string | undefined => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * The argo-cd entries of a kustomization's `helmCharts:` (`file`: the kustomization's absolute path).
 * `exists` tells whether a workspace file exists: a chart kustomize pulled and the repository keeps
 * (`helmGlobals.chartHome`, default `charts/`, as `<home>/<name>` or kustomize's `<home>/<name>-<version>/<name>`)
 * has its own values.yaml, which Helm reads first.
 */
export function argoHelmCharts(
  kustomization: Json | undefined,
  file: string,
  exists: (path: string) => boolean = () => false,
): ArgoHelmChart[] {
  const list = own(kustomization, 'helmCharts');
  if (!Array.isArray(list)) return [];
  const dir = dirname(file);
  const home = text(own(own(kustomization, 'helmGlobals'), 'chartHome')) ?? 'charts';
  const out: ArgoHelmChart[] = [];
  list.slice(0, MAX_CHARTS).forEach((entry, index) => {
    if (!isObj(entry) || !isArgoHelmChart(entry)) return;
    const merge = text(own(entry, 'valuesMerge')) ?? 'override';
    const files: HelmChartValuesFile[] = [];
    const resolve = (written: string, at: (string | number)[], rank: number, replaced = false) => {
      const path = startsWithScheme(written) ? undefined : joinPath(dir, written);
      files.push({
        written,
        at,
        rank,
        ...(path ? { path } : {}),
        ...(replaced
          ? { replaced: true as const }
          : !path
            ? { unread: 'a URL or a path outside the repository: kustomize fetches it when it builds' }
            : {}),
      });
    };
    const name = text(own(entry, 'name')) ?? 'argo-cd';
    const version = text(own(entry, 'version'));
    for (const folder of [`${home}/${name}`, ...(version ? [`${home}/${name}-${version}/${name}`] : [])]) {
      const values = joinPath(dir, `${folder}/values.yaml`);
      if (values && exists(values)) {
        files.push({ written: `${folder}/values.yaml`, at: ['helmCharts', index], rank: 0, path: values });
        break;
      }
    }
    const valuesFile = text(own(entry, 'valuesFile'));
    if (valuesFile) resolve(valuesFile, ['helmCharts', index, 'valuesFile'], 1, merge === 'replace' && isObj(own(entry, 'valuesInline')));
    const extra = own(entry, 'additionalValuesFiles');
    if (Array.isArray(extra))
      extra.slice(0, MAX_FILES).forEach((w, i) => {
        if (typeof w === 'string' && w) resolve(w, ['helmCharts', index, 'additionalValuesFiles', i], 3 + i);
      });
    out.push({
      index,
      version,
      namespace: text(own(entry, 'namespace')),
      files,
      ...(isObj(own(entry, 'valuesInline')) ? { inlineRank: 2 } : {}),
      merge,
    });
  });
  return out;
}

const isKustomizationDoc = (v: Json, path: string) =>
  own(v, 'kind') === 'Kustomization' || (own(v, 'kind') === undefined && isKustomizationName(path));

/** The namespace of an entry's release: the kustomization's own `namespace:` wins (kustomize sets it on every resource). */
const namespaceOf = (kustomization: Json, chart: ArgoHelmChart) => {
  const ns = own(kustomization, 'namespace');
  return typeof ns === 'string' && ns ? ns : chart.namespace;
};

/** Before the scan: the values files of the argo-cd entries, as the kustomization's install's, in Helm's order. */
export function selectHelmChartValues(sink: FormSink, files: readonly IndexedFile[]): void {
  const exists = (p: string) => !!sink.workspace.file(p);
  for (const file of files)
    for (const d of file.docs) {
      if (!isKustomizationDoc(d.value, file.path)) continue;
      const key = installOf(file.path).key;
      for (const chart of argoHelmCharts(d.value, file.path, exists))
        for (const f of chart.files)
          if (f.path && f.replaced) sink.skip(f.path);
          else if (f.path && !f.unread)
            sink.select(
              f.path,
              { key, namespace: namespaceOf(d.value, chart), chain: `${key}#helmCharts${chart.index}`, rank: f.rank },
              `kustomize helmCharts argo-cd ${f.at[2] ?? 'chart'} ${f.written}`,
            );
    }
}

/**
 * A kustomization inflating the argo-cd chart is an install (`key`), with or without values of its own:
 * its `valuesInline` read at its place in Helm's order, the values files it cannot read said as not read.
 */
export function checkHelmCharts(sink: FormSink, site: FormSite, v: Json, key: string): void {
  const at = (...p: JsonPath) => ({ ...site, path: [...site.path, ...p] });
  for (const chart of argoHelmCharts(v, site.file.path, (p) => !!sink.workspace.file(p))) {
    const place: Placement = { key, namespace: namespaceOf(v, chart) };
    sink.install(site, place);
    for (const f of chart.files) {
      const what = `kustomize helmCharts argo-cd ${f.at[2] ?? 'chart'} ${f.written}: not read`;
      if (f.replaced) sink.ignored(at(...f.at), place, `${what} (valuesMerge: replace puts valuesInline in its place)`);
      else if (f.unread) sink.unread(at(...f.at), place, `${what} (${f.unread})`);
      else if (f.path && !sink.workspace.file(f.path)) sink.unread(at(...f.at), place, `${what} (not in the repository)`);
    }
    const inline = own((own(v, 'helmCharts') as Json[])[chart.index], 'valuesInline');
    if (chart.inlineRank === undefined || inline === undefined) {
      // No inline values: the fix writes them there when no values file is read.
      if (!chart.files.some((f) => f.path && !f.unread && !f.replaced))
        sink.target(site, place, ['helmCharts', chart.index, 'valuesInline']);
      continue;
    }
    sink.values(
      at('helmCharts', chart.index, 'valuesInline'),
      { ...place, chain: `${key}#helmCharts${chart.index}`, rank: chart.inlineRank },
      inline,
      'kustomize helmCharts argo-cd valuesInline',
      true,
    );
  }
}
