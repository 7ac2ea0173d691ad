/**
 * Cluster labels as generators hand them to templates: fasttemplate params are flat
 * (`metadata.labels.tier`), goTemplate params nested (`.metadata.labels.tier`, a map). Steps select
 * *Application* labels, so a label that only lives here must be copied into template.metadata.labels.
 */
import type { GeneratedApp } from '../expand/types';

/** Labels every cluster Secret carries; never a useful rollout key. */
const BORING = new Set(['argocd.argoproj.io/secret-type']);

function entries(v: unknown): [string, unknown][] {
  if (v instanceof Map) return [...v.entries()].map(([k, x]) => [String(k), x]);
  if (v && typeof v === 'object' && !Array.isArray(v)) return Object.entries(v as Record<string, unknown>);
  return [];
}

function get(v: unknown, key: string): unknown {
  if (v instanceof Map) return v.get(key);
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, key))
    return (v as Record<string, unknown>)[key];
  return undefined;
}

/** The cluster labels visible in one parameter set. */
export function clusterLabels(params: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const PREFIX = 'metadata.labels.';
  for (const [k, v] of entries(params)) {
    if (k.startsWith(PREFIX) && typeof v === 'string' && !BORING.has(k.slice(PREFIX.length))) out.set(k.slice(PREFIX.length), v);
  }
  for (const [k, v] of entries(get(get(params, 'metadata'), 'labels'))) {
    if (typeof v === 'string' && !BORING.has(k)) out.set(k, v);
  }
  return out;
}

/** Keys carried as cluster labels by at least one generated Application's parameters. */
export function clusterLabelKeys(apps: readonly GeneratedApp[]): Set<string> {
  const keys = new Set<string>();
  for (const a of apps) for (const k of clusterLabels(a.params).keys()) keys.add(k);
  return keys;
}

/** Distinct values of an Application label (or cluster label) across the Applications. */
export function labelValues(apps: readonly GeneratedApp[], key: string, from: 'app' | 'cluster'): { values: string[]; missing: number } {
  const values = new Set<string>();
  let missing = 0;
  for (const a of apps) {
    const v =
      from === 'app' ? (Object.prototype.hasOwnProperty.call(a.labels, key) ? a.labels[key] : undefined) : clusterLabels(a.params).get(key);
    if (v === undefined) missing++;
    else values.add(v);
  }
  return { values: [...values], missing };
}
