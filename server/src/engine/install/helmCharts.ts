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
 * The reader only reads; install/scan.ts reads the values it names as the install's configuration.
 */
import type { Json } from '../types';
import { isObj, own } from '../objects';
import { dirname } from '../paths';
import { joinPath } from './installers';
import { isArgoHelmChart } from '../versions/detect';

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
      const path = /^[a-z]+:\/\//i.test(written) ? undefined : joinPath(dir, written);
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
