/**
 * "One cluster at a time": a RollingSync with one step per destination cluster, each step syncing its
 * cluster's Applications at most maxWaveSize at a time. A RollingSync step selects *Application*
 * labels (argo-cd applicationset/controllers/applicationset_controller.go, buildAppDependencyList:
 * a step's matchExpressions are held against the Application's own labels), so the strategy needs a
 * label whose values name the destination cluster one to one. It is, in this order: an Application
 * label that already does, a cluster Secret label that does (copied into template.metadata.labels), or
 * a generator parameter that does (e.g. the cluster generator's `name`), written into
 * template.metadata.labels as a new label. The steps go safest cluster first, by the label that orders
 * the fleet best (canary before production), then by name.
 */
import type { GeneratedApp } from '../expand/types';
import { labelValueProblems } from '../rules/kubernetes';
import { clusterLabels } from './labels';
import { compareNames } from './plan';
import type { StrategyProposal, StrategyStep } from './strategyTypes';

/** Beyond this many clusters a step per cluster is more YAML than anyone reviews: not proposed. */
export const MAX_CLUSTER_STEPS = 100;

/** Keys tried, in order, for a new Application label naming the cluster. */
const NEW_KEYS = ['cluster', 'cluster-name', 'destination-cluster'];

/** Parameters tried first for the cluster's name (the cluster generator's). */
const PREFERRED_PARAMS = ['name', 'nameNormalized', 'cluster'];

function destinationOf(a: GeneratedApp): string | undefined {
  const spec = a.app.spec;
  const dest = spec && typeof spec === 'object' && !Array.isArray(spec) ? spec.destination : undefined;
  if (!dest || typeof dest !== 'object' || Array.isArray(dest)) return undefined;
  // The controller resolves a destination by name or by server (exactly one is set on a valid Application).
  if (typeof dest.name === 'string' && dest.name) return `name:${dest.name}`;
  if (typeof dest.server === 'string' && dest.server) return `server:${dest.server}`;
  return undefined;
}

/** The value of `get` per Application when it names the destination cluster one to one, else undefined. */
function oneToOne(apps: readonly GeneratedApp[], dests: string[], get: (a: GeneratedApp) => string | undefined): string[] | undefined {
  const byValue = new Map<string, string>();
  const byDest = new Map<string, string>();
  const values: string[] = [];
  for (let i = 0; i < apps.length; i++) {
    const v = get(apps[i]);
    if (v === undefined || v === '' || labelValueProblems(v).length) return undefined;
    const d = dests[i];
    if ((byValue.get(v) ?? d) !== d || (byDest.get(d) ?? v) !== v) return undefined;
    byValue.set(v, d);
    byDest.set(d, v);
    values.push(v);
  }
  return values;
}

/** The template expression of a top-level parameter in the ApplicationSet's template mode. */
export function paramExpression(param: string, goTemplate: boolean): string {
  if (!goTemplate) return `{{${param}}}`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(param) ? `{{ .${param} }}` : `{{ index . ${JSON.stringify(param)} }}`;
}

interface ClusterKey {
  key: string;
  from: StrategyProposal['from'];
  values: string[];
  /** For `from: 'param'`: the parameter whose value the new label carries. */
  param?: string;
}

function clusterKey(apps: readonly GeneratedApp[], dests: string[]): ClusterKey | undefined {
  const appKeys = [...new Set(apps.flatMap((a) => Object.keys(a.labels)))].sort(compareNames);
  for (const key of appKeys) {
    const values = oneToOne(apps, dests, (a) => (Object.prototype.hasOwnProperty.call(a.labels, key) ? a.labels[key] : undefined));
    if (values) return { key, from: 'app', values };
  }
  const secretKeys = [...new Set(apps.flatMap((a) => [...clusterLabels(a.params).keys()]))].sort(compareNames);
  for (const key of secretKeys) {
    if (appKeys.includes(key)) continue; // a different Application label of that name would clash
    const values = oneToOne(apps, dests, (a) => clusterLabels(a.params).get(key));
    if (values) return { key, from: 'cluster', values };
  }
  const newKey = NEW_KEYS.find((k) => !appKeys.includes(k));
  if (!newKey) return undefined;
  const params = new Set<string>();
  for (const [k, v] of Object.entries(apps[0].params)) if (typeof v === 'string') params.add(k);
  const order = [
    ...PREFERRED_PARAMS.filter((p) => params.has(p)),
    ...[...params].filter((p) => !PREFERRED_PARAMS.includes(p)).sort(compareNames),
  ];
  for (const param of order) {
    const values = oneToOne(apps, dests, (a) => {
      const v = Object.prototype.hasOwnProperty.call(a.params, param) ? a.params[param] : undefined;
      return typeof v === 'string' ? v : undefined;
    });
    if (values) return { key: newKey, from: 'param', values, param };
  }
  return undefined;
}

/**
 * One step per cluster, safest first (by `rankOf`, lowest first: canary clusters first), each
 * at most `maxWave` at a time; undefined when the Applications do not go to 2 … MAX_CLUSTER_STEPS
 * clusters or no label can name them.
 */
export function clusterAtATime(
  apps: readonly GeneratedApp[],
  maxWave: number,
  rankOf?: (a: GeneratedApp) => number,
): StrategyProposal | undefined {
  const valid = apps.filter((a) => !a.invalid?.length);
  const dests: string[] = [];
  for (const a of valid) {
    const d = destinationOf(a);
    if (d === undefined) return undefined;
    dests.push(d);
  }
  const clusters = new Set(dests).size;
  if (clusters < 2 || clusters > MAX_CLUSTER_STEPS) return undefined;
  const ck = clusterKey(valid, dests);
  if (!ck) return undefined;
  const counts = new Map<string, number>();
  const rank = new Map<string, number>();
  valid.forEach((a, i) => {
    const v = ck.values[i];
    counts.set(v, (counts.get(v) ?? 0) + 1);
    const r = rankOf?.(a) ?? 0;
    rank.set(v, Math.min(rank.get(v) ?? r, r));
  });
  const values = [...counts.keys()].sort((a, b) => rank.get(a)! - rank.get(b)! || compareNames(a, b));
  const steps: StrategyStep[] = values.map((v) => {
    const n = counts.get(v)!;
    return { values: [v], maxUpdate: Math.max(1, Math.min(maxWave, n)), apps: n };
  });
  const waves = steps.reduce((n, s) => n + Math.ceil(s.apps / (s.maxUpdate as number)), 0);
  const largestWave = Math.max(...steps.map((s) => s.maxUpdate as number));
  const names = values.length <= 3 ? values.join(' → ') : `${values[0]} → ${values[1]} → … → ${values[values.length - 1]}`;
  return {
    key: ck.key,
    from: ck.from,
    ...(ck.param !== undefined ? { param: ck.param } : {}),
    pace: 'cluster',
    steps,
    summary: `${values.length} steps, ${names}, up to ${largestWave} at a time`,
    largestWave,
    waves,
  };
}
