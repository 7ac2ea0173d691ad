/**
 * Whether a values document is the argo-cd Helm chart's, when no Chart.yaml beside it says so: it sets a
 * top-level key that only that chart's values have. One list for every reader (the extraObjects note in
 * `extraObjects.ts`, the version and install evidence in `versions/detect.ts`).
 *
 * The keys come from argo-helm `charts/argo-cd/values.yaml`. `server` and `controller` are left out on
 * purpose: argo-workflows, argo-rollouts and argo-events also have them at the top, beside an
 * `extraObjects` of their own, so they do not mark the argo-cd chart. `configs` is argo-events' too, but an
 * argo-cd values file that sets only `configs:` (its `params` and `cm`) is common, so it stays.
 */
import type { Json } from '../types';
import { isObj } from '../objects';

export const ARGO_CD_VALUES_KEYS: readonly string[] = ['configs', 'applicationSet', 'repoServer', 'redis-ha'];

/** A values mapping that sets one of the argo-cd chart's own top-level keys to a mapping. */
export function hasArgoCdValuesKeys(v: { [key: string]: Json }): boolean {
  return ARGO_CD_VALUES_KEYS.some((k) => isObj(v[k]));
}
