/**
 * Which chart a Flux `HelmRelease` installs (fluxcd helm-controller `api/v2` HelmReleaseSpec): either
 * `spec.chart.spec.chart` (a chart of a HelmRepository/GitRepository/Bucket, `spec.chart.spec.version`),
 * or `spec.chartRef`, a reference to an `OCIRepository` (`spec.url` `oci://…/argo-cd`, version
 * `spec.ref.tag` or `spec.ref.semver`) or a `HelmChart` (`spec.chart`, `spec.version`) in the
 * HelmRelease's namespace unless it names one. A `chartRef` whose source the repository does not hold
 * cannot be resolved: when the release is named like Argo CD (`argocd`, `argo-cd`, its `releaseName` too)
 * it is said as an argo-cd install whose chart and values are not read, so the verdict is unknown.
 */
import type { Json } from '../types';
import { ownPath } from '../objects';

export interface FluxChart {
  /** The chart version or constraint, when stated. */
  version?: string;
  /** The chart reference could not be resolved in the repository: what was not read. */
  unresolved?: string;
}

const get = (v: unknown, ...path: string[]): Json | undefined => ownPath(v, path);
const str = (v: Json | undefined): string | undefined => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);

/** Finds a source resource (`OCIRepository`, `HelmChart`) by kind, name and namespace in the repository. */
export type FluxSourceLookup = (kind: string, name: string, namespace: string | undefined) => Json | undefined;

/** The argo-cd chart a HelmRelease installs, or undefined when it installs another chart (or is no HelmRelease). */
export function fluxArgoChart(v: Json, lookup: FluxSourceLookup): FluxChart | undefined {
  if (get(v, 'kind') !== 'HelmRelease' || !String(get(v, 'apiVersion') ?? 'helm.toolkit.fluxcd.io/').startsWith('helm.toolkit.fluxcd.io/'))
    return undefined;
  const spec = get(v, 'spec', 'chart', 'spec');
  if (get(spec, 'chart') === 'argo-cd') return { version: str(get(spec, 'version')) };
  const ref = get(v, 'spec', 'chartRef');
  const kind = str(get(ref, 'kind'));
  const name = str(get(ref, 'name'));
  if (!kind || !name) return undefined;
  const namespace = str(get(ref, 'namespace')) ?? str(get(v, 'metadata', 'namespace'));
  const source = lookup(kind, name, namespace);
  if (source !== undefined) {
    if (kind === 'OCIRepository' && /\/argo-cd\/?$/.test(str(get(source, 'spec', 'url')) ?? ''))
      return { version: str(get(source, 'spec', 'ref', 'tag')) ?? str(get(source, 'spec', 'ref', 'semver')) };
    if (kind === 'HelmChart' && get(source, 'spec', 'chart') === 'argo-cd') return { version: str(get(source, 'spec', 'version')) };
    return undefined;
  }
  const names = [get(v, 'metadata', 'name'), get(v, 'spec', 'releaseName')].map((n) => str(n) ?? '');
  if (!names.some((n) => /^argo-?cd$/i.test(n))) return undefined;
  return { unresolved: `spec.chartRef ${kind} ${name}: not in this repository, so which chart and version it installs is not read` };
}

/** A lookup over documents (`docs`): the first of that kind and name, in the namespace when both state one. */
export function lookupIn(docs: Iterable<Json>): FluxSourceLookup {
  return (kind, name, namespace) => {
    for (const d of docs) {
      if (get(d, 'kind') !== kind || get(d, 'metadata', 'name') !== name) continue;
      const ns = str(get(d, 'metadata', 'namespace'));
      if (namespace && ns && ns !== namespace) continue;
      return d;
    }
    return undefined;
  };
}
