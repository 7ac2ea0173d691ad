/**
 * Safe RollingSync strategies to propose: which label to roll out by, in which order, and how many
 * Applications each step may sync at once. Batches grow as confidence grows: one Application first,
 * then small percentages, and never a wave larger than `appsetTools.maxWaveSize` in the careful
 * variant. Sizes are computed with the controller's own maxUpdate arithmetic (plan.ts).
 */
import type { Pace, StrategyProposal, StrategyStep } from './strategyTypes';
import type { GeneratedApp } from '../expand/types';
import { clusterLabels } from './labels';
import { compareNames, resolveMaxUpdate } from './plan';
import { clusterAtATime } from './clusterStrategy';

/** Label keys that usually describe a rollout order. */
const PREFERRED_KEYS = [
  'tier',
  'ring',
  'wave',
  'stage',
  'env',
  'environment',
  'rollout',
  'phase',
  'channel',
  'traffic',
  'region',
  'zone',
  'cluster',
];

/** Rank of a label value in a rollout: earlier-is-safer words first. */
const VALUE_RANKS: [RegExp, number][] = [
  [/canary|pilot|first/, 0],
  [/^dev|develop|sandbox/, 10],
  [/test/, 20],
  [/qa|^int|integration/, 30],
  [/stag|preprod|pre-prod|uat/, 40],
  [/low/, 50],
  [/med|mid/, 60],
  [/high|critical/, 70],
  [/prod|live/, 80],
];
const UNKNOWN_RANK = 55;

export function valueRank(v: string): number {
  const l = v.toLowerCase();
  for (const [re, r] of VALUE_RANKS) if (re.test(l)) return r;
  return UNKNOWN_RANK;
}

export type { Pace, StrategyProposal, StrategyStep };

/** Orders label values for a rollout: known words by risk, others alphabetically. */
export function orderValues(values: string[]): string[] {
  return [...values].sort((a, b) => valueRank(a) - valueRank(b) || compareNames(a, b));
}

/** Above this many waves the careful pace is slow enough that a steady one is proposed beside it. */
export const MANY_WAVES = 20;

/** `about 4 h 45 min` for `waves` syncs of `minutes` each, one after another. */
export function durationText(waves: number, minutes: number): string {
  const total = waves * minutes;
  const h = Math.floor(total / 60);
  const m = total % 60;
  return `about ${h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`}`;
}

/** `95 waves, about 4 h 45 min at 3 min a sync`: a proposal's length, with the time per sync said as the assumption it is. */
export function lengthText(p: Pick<StrategyProposal, 'waves'>, minutesPerSync: number): string {
  return `${p.waves} wave${p.waves === 1 ? '' : 's'}, ${durationText(p.waves, minutesPerSync)} at ${minutesPerSync} min a sync`;
}

/** More values than this are grouped into steps of growing size. */
export const MAX_STEPS = 12;
const MAX_VALUES = 500;

interface Candidate {
  key: string;
  from: 'app' | 'cluster';
  counts: Map<string, number>;
  score: number;
}

function candidates(apps: readonly GeneratedApp[]): Candidate[] {
  const out: Candidate[] = [];
  const consider = (key: string, from: 'app' | 'cluster', get: (a: GeneratedApp) => string | undefined) => {
    if (out.some((c) => c.key === key)) return;
    const counts = new Map<string, number>();
    for (const a of apps) {
      const v = get(a);
      if (v === undefined) return;
      counts.set(v, (counts.get(v) ?? 0) + 1);
      if (counts.size > MAX_VALUES) return;
    }
    // A label with one value, or one value per Application, does not stage anything.
    if (counts.size < 2 || counts.size === apps.length) return;
    const vs = [...counts.keys()];
    const known = vs.filter((v) => valueRank(v) !== UNKNOWN_RANK).length;
    const pref = PREFERRED_KEYS.findIndex((k) => key.toLowerCase() === k || key.toLowerCase().endsWith('/' + k));
    const fits = counts.size <= MAX_STEPS ? 5 : 0;
    out.push({ key, from, counts, score: (pref >= 0 ? 20 - pref : 0) + Math.min(known, 6) * 3 + fits + (from === 'app' ? 1 : 0) });
  };
  const appKeys = new Set<string>();
  for (const a of apps) for (const k of Object.keys(a.labels)) appKeys.add(k);
  for (const k of [...appKeys].sort())
    consider(k, 'app', (a) => (Object.prototype.hasOwnProperty.call(a.labels, k) ? a.labels[k] : undefined));
  const clusterKeys = new Set<string>();
  for (const a of apps) for (const k of clusterLabels(a.params).keys()) clusterKeys.add(k);
  for (const k of [...clusterKeys].sort()) consider(k, 'cluster', (a) => clusterLabels(a.params).get(k));
  return out.sort((a, b) => b.score - a.score || compareNames(a.key, b.key));
}

/** Values → steps: one per value up to MAX_STEPS, else the first alone and then groups that double. */
function groupValues(values: string[]): string[][] {
  if (values.length <= MAX_STEPS) return values.map((v) => [v]);
  const out: string[][] = [[values[0]]];
  let i = 1;
  let size = 1;
  while (i < values.length) {
    const left = values.length - i;
    // The last group takes the rest once doubling would leave a small tail.
    const take = left <= size * 3 ? left : size;
    out.push(values.slice(i, i + take));
    i += take;
    size *= 2;
  }
  return out;
}

/** The percentage (or count) each step may sync at once; batches grow step by step. */
function paceFor(stepApps: number[], pace: Pace, maxWave: number): (number | string)[] {
  const n = stepApps.length;
  return stepApps.map((apps, k) => {
    // A fixed number a wave: the first step too (a canary step of 45 one at a time is 45 waves).
    if (pace === 'steady') return Math.max(1, Math.min(maxWave, apps));
    if (k === 0) return 1;
    const last = k === n - 1;
    const pct = pace === 'faster' ? (last ? 50 : 25) : last ? 25 : Math.min(20, 10 * k);
    const size = resolveMaxUpdate(`${pct}%`, apps).value ?? apps;
    // A percentage that means one at a time is written as 1; the careful pace never exceeds maxWaveSize.
    if (size <= 1) return 1;
    if (pace === 'careful' && size > maxWave) return maxWave;
    return `${pct}%`;
  });
}

function label(values: string[]): string {
  return values.length === 1 ? values[0] : `${values[0]} +${values.length - 1}`;
}

function proposal(c: Candidate, pace: Pace, maxWave: number): StrategyProposal {
  const groups = groupValues(orderValues([...c.counts.keys()]));
  const stepApps = groups.map((g) => g.reduce((n, v) => n + (c.counts.get(v) ?? 0), 0));
  const mus = paceFor(stepApps, pace, maxWave);
  const steps = groups.map((values, k) => ({ values, maxUpdate: mus[k], apps: stepApps[k] }));
  const size = (s: StrategyStep) => Math.min(s.apps, Math.max(1, resolveMaxUpdate(s.maxUpdate, s.apps).value ?? s.apps));
  const largestWave = Math.max(...steps.map(size));
  const waves = steps.reduce((n, s) => n + Math.ceil(s.apps / size(s)), 0);
  return {
    key: c.key,
    from: c.from,
    pace,
    steps,
    summary: steps.map((s) => `${label(s.values)} ${s.maxUpdate}`).join(' → '),
    atOnce: steps.map((s) => `${label(s.values)} ${size(s)}`).join(' → '),
    largestWave,
    waves,
  };
}

/**
 * Two to five strategies, safest first: the best label at a careful pace, the same label faster, for a
 * fleet where the careful pace takes more than MANY_WAVES waves the same label at a steady maxWaveSize a
 * wave and one cluster at a time (a step per destination cluster, canary clusters first by the best
 * label), and the next label that partitions the fleet (when there is one) at a careful pace.
 */
export function proposeStrategies(apps: readonly GeneratedApp[], maxWave = 10): StrategyProposal[] {
  const valid = apps.filter((a) => !a.invalid?.length);
  if (!valid.length) return [];
  const cs = candidates(valid);
  if (!cs.length) return [];
  const out = [proposal(cs[0], 'careful', maxWave)];
  const faster = proposal(cs[0], 'faster', maxWave);
  if (faster.summary !== out[0].summary) out.push(faster);
  if (out[0].waves > MANY_WAVES) {
    const steady = proposal(cs[0], 'steady', maxWave);
    if (!out.some((p) => p.summary === steady.summary)) out.push(steady);
    const best = cs[0];
    const valueOf = (a: GeneratedApp) =>
      best.from === 'app'
        ? Object.prototype.hasOwnProperty.call(a.labels, best.key)
          ? a.labels[best.key]
          : undefined
        : clusterLabels(a.params).get(best.key);
    const perCluster = clusterAtATime(valid, maxWave, (a) => {
      const v = valueOf(a);
      return v === undefined ? UNKNOWN_RANK : valueRank(v);
    });
    if (perCluster && perCluster.key !== best.key) out.push(perCluster);
  }
  if (cs[1]) out.push(proposal(cs[1], 'careful', maxWave));
  return out.slice(0, 5);
}
