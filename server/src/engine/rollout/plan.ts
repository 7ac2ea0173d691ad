/**
 * The RollingSync plan, computed the way the ApplicationSet controller computes it
 * (Argo CD `applicationset/progressivesync/progressive_sync.go`):
 * - `assignSteps` mirrors `buildAppDependencyList` (step membership, duplicates, invalid operators,
 *   empty steps);
 * - `resolveMaxUpdate` mirrors the `maxUpdate` arithmetic of `UpdateApplicationSetApplicationStatusProgress`
 *   (k8s `intstr.GetScaledValueFromIntOrPercent` with roundUp=false, then "at least 1 unless exactly 0%");
 * - `progressStatuses` is one pass of that function (Waiting → Pending promotion), used by the tests
 *   to check the wave model against the controller's own step;
 * - `computePlan` turns it into steps and waves: with equal sync durations, step k syncs its
 *   Applications in Application-name order, `maxUpdate` at a time.
 */
import type { GeneratedApp } from '../expand/types';
import type { Enablement, PlanStep, RolloutPlan, Verdict } from '@appset-tools/protocol';
import { verdictOf } from './describe';
import { describeSelector, rollingSyncWithSteps, type RolloutStepSpec, type StrategySpec } from './spec';
import { compareGoStrings } from '../rules/order';
import { hasKey } from '../objects';

export interface LabelledApp {
  name: string;
  labels: Record<string, string>;
}

export interface StepAssignment {
  /** Per step (0-based), the names it selects, in input order (duplicates included). */
  lists: string[][];
  /** First selecting step (0-based) of each selected Application. */
  stepOf: Map<string, number>;
  /** Applications selected by several steps → 0-based step indexes (first one included). */
  duplicates: Map<string, number[]>;
  /** One entry per (step, operator) for operators other than In/NotIn, as the controller records them. */
  invalidOperators: { step: number; operator: string }[];
  /** 0-based indexes of steps that select nothing. */
  emptySteps: number[];
}

/** `buildAppDependencyList`: every matchExpression must pass (AND); steps in order. */
export function assignSteps(steps: readonly RolloutStepSpec[], apps: readonly LabelledApp[]): StepAssignment {
  const lists: string[][] = steps.map(() => []);
  const stepOf = new Map<string, number>();
  const duplicates = new Map<string, number[]>();
  const invalidOperators: { step: number; operator: string }[] = [];
  const seenInvalid = new Set<string>();
  for (const app of apps) {
    steps.forEach((step, i) => {
      let selected = true;
      for (const e of step.matchExpressions) {
        if (hasKey(app.labels, e.key)) {
          if (e.operator !== 'In' && e.operator !== 'NotIn') {
            // Recorded once per (step, operator); the expression fails either way.
            const k = `${i}\u0000${e.operator}`;
            if (!seenInvalid.has(k)) {
              seenInvalid.add(k);
              invalidOperators.push({ step: i, operator: e.operator });
            }
            selected = false;
            break;
          }
          const found = e.values.includes(app.labels[e.key]);
          if (found !== (e.operator === 'In')) {
            selected = false;
            break;
          }
        } else if (e.operator === 'In') {
          // A missing key fails `In`, passes `NotIn` and — a controller quirk — passes an invalid operator.
          selected = false;
          break;
        }
      }
      if (!selected) return;
      lists[i].push(app.name);
      const first = stepOf.get(app.name);
      if (first === undefined) stepOf.set(app.name, i);
      else {
        const d = duplicates.get(app.name) ?? [first];
        d.push(i);
        duplicates.set(app.name, d);
      }
    });
  }
  const emptySteps = lists.flatMap((l, i) => (l.length ? [] : [i]));
  return { lists, stepOf, duplicates, invalidOperators, emptySteps };
}

export interface ResolvedMaxUpdate {
  /** Applications of the step that may be Pending/Progressing at once; null = unlimited. ≤ 0 = manual. */
  value: number | null;
  /** The controller's complaint when the value is not an integer or `<int>%` (then it uses 1). */
  error?: string;
}

const INT64_MAX = 9223372036854775807n;

/** Go `strconv.Atoi` on 64-bit: optional sign, ASCII digits, no spaces, in int64 range. */
function goAtoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const b = BigInt(s);
  if (b > INT64_MAX || b < -INT64_MAX - 1n) return undefined;
  return Number(b);
}

/**
 * `maxUpdate` against `total` (the number of the step's Applications with a status entry, including
 * the unselected ones for step 1). Integers are taken as they are; `<int>%` is floored; any string
 * result below 1 becomes 1 unless the string is exactly `0%` — so an invalid string means 1.
 */
export function resolveMaxUpdate(maxUpdate: number | string | undefined, total: number): ResolvedMaxUpdate {
  if (maxUpdate === undefined) return { value: null };
  if (typeof maxUpdate === 'number') {
    if (!Number.isInteger(maxUpdate) || Math.abs(maxUpdate) > 2147483647) {
      return { value: 1, error: `${maxUpdate} is not a 32-bit integer: the API server rejects it` };
    }
    return { value: maxUpdate };
  }
  let value = 0;
  let error: string | undefined;
  if (!maxUpdate.endsWith('%')) error = 'invalid type: string is not a percentage';
  else {
    const p = goAtoi(maxUpdate.slice(0, -1));
    if (p === undefined) error = `invalid value "${maxUpdate}": not an integer percentage`;
    else value = Math.floor((p * total) / 100);
  }
  if (maxUpdate !== '0%' && value < 1) value = 1;
  return error ? { value, error } : { value };
}

export type ProgressiveStatus = 'Waiting' | 'Pending' | 'Progressing' | 'Healthy';

export interface StatusEntry {
  app: string;
  status: ProgressiveStatus;
}

/**
 * One run of `UpdateApplicationSetApplicationStatusProgress`: counts each step's entries (apps in no
 * step count toward step 1 — Go's zero value for a missing map key) and in-flight entries, then
 * promotes Waiting entries whose step may sync while the step's maxUpdate allows. Entries are
 * visited in the given order (the controller keeps them sorted by name).
 */
export function progressStatuses(
  steps: readonly RolloutStepSpec[],
  statuses: readonly StatusEntry[],
  appsToSync: ReadonlySet<string>,
  stepOf: ReadonlyMap<string, number>,
): StatusEntry[] {
  if (!steps.length) return statuses.map((s) => ({ ...s }));
  const total = steps.map(() => 0);
  const inflight = steps.map(() => 0);
  const idx = (app: string) => stepOf.get(app) ?? 0;
  for (const s of statuses) {
    total[idx(s.app)]++;
    if (s.status === 'Pending' || s.status === 'Progressing') inflight[idx(s.app)]++;
  }
  return statuses.map((s) => {
    const k = idx(s.app);
    const r = resolveMaxUpdate(steps[k].maxUpdate, total[k]);
    const allowed = r.value === null || inflight[k] < r.value;
    if (s.status === 'Waiting' && appsToSync.has(s.app) && allowed) {
      inflight[k]++;
      return { app: s.app, status: 'Pending' };
    }
    return { ...s };
  });
}

/** Application names in Go's string order, as the controller sorts them. */
export const compareNames = compareGoStrings;

export interface PlanInput {
  appset: string;
  strategy: StrategySpec;
  apps: readonly GeneratedApp[];
  /** Or a function giving it, called only when the plan's enablement is read (it scans the workspace). */
  enablement: Enablement | (() => Enablement);
  clusters?: number;
}

/** The plan for an ApplicationSet's strategy and generated Applications. Pure. */
export function computePlan(input: PlanInput): RolloutPlan {
  const { strategy, apps } = input;
  let enablement = typeof input.enablement === 'function' ? undefined : input.enablement;
  const getEnablement = () => (enablement ??= (input.enablement as () => Enablement)());
  const names = apps.map((a) => a.name).sort(compareNames);
  // Applications that fail the controller's validation are never created: not counted, but said.
  const skipped = apps
    .filter((x) => x.invalid?.length)
    .map((x) => ({ name: x.name, reason: x.invalid![0].message }))
    .sort((x, y) => compareNames(x.name, y.name));
  const created = apps.length - skipped.length;
  const base: RolloutPlan = {
    appset: input.appset,
    strategy: 'AllAtOnce',
    totalApps: created,
    ...(skipped.length ? { skipped } : {}),
    steps: [],
    unselected: [],
    duplicates: {},
    totalWaves: created ? 1 : 0,
    enablement: undefined as unknown as Enablement,
    verdict: undefined as unknown as Verdict,
    effective: false,
    clusters: input.clusters ?? 0,
    invalidOperators: [],
  };
  // Read on demand: an AllAtOnce plan only needs it when someone looks (the plan view, `appset plan`).
  Object.defineProperty(base, 'enablement', { get: getEnablement, enumerable: true, configurable: true });
  let verdict: Verdict | undefined;
  Object.defineProperty(base, 'verdict', {
    get: () => (verdict ??= verdictOf(getEnablement(), created)),
    enumerable: true,
    configurable: true,
  });
  if (!rollingSyncWithSteps(strategy)) return base;

  const a = assignSteps(strategy.steps, apps);
  // Applications that fail the controller's validation are never created: they have no status entry,
  // so they neither count toward percentages nor ever become Healthy (their step never completes).
  const invalid = new Set(apps.filter((x) => x.invalid?.length).map((x) => x.name));
  const total = strategy.steps.map(() => 0);
  for (const n of names) if (!invalid.has(n)) total[a.stepOf.get(n) ?? 0]++;

  const steps: PlanStep[] = strategy.steps.map((spec, k) => {
    const selected = [...a.lists[k]].sort(compareNames);
    const own = selected.filter((n) => a.stepOf.get(n) === k);
    const toSync = own.filter((n) => !invalid.has(n));
    const r = resolveMaxUpdate(spec.maxUpdate, total[k]);
    const manual = r.value !== null && r.value <= 0;
    const width = r.value === null ? Math.max(1, toSync.length) : Math.max(1, r.value);
    const waves = manual ? [] : chunk(toSync, width).map((w, i) => ({ wave: i + 1, apps: w }));
    const step: PlanStep = {
      step: k + 1,
      selector: describeSelector(spec),
      apps: selected,
      maxUpdate: spec.maxUpdate,
      concurrency: r.value === null ? null : Math.max(0, r.value),
      manual,
      waves,
      percentageBase: total[k],
      syncedEarlier: selected.filter((n) => a.stepOf.get(n) !== k),
      blockedBy: own.filter((n) => invalid.has(n)),
    };
    if (r.error) step.maxUpdateError = r.error;
    return step;
  });

  const duplicates: Record<string, number[]> = {};
  for (const [name, idx] of [...a.duplicates].sort((x, y) => compareNames(x[0], y[0]))) {
    Object.defineProperty(duplicates, name, { value: idx.map((i) => i + 1), enumerable: true, writable: true, configurable: true });
  }
  return {
    ...base,
    strategy: 'RollingSync',
    steps,
    unselected: names.filter((n) => !a.stepOf.has(n)),
    duplicates,
    totalWaves: steps.reduce((s, st) => s + st.waves.length, 0),
    effective: getEnablement().state === 'enabled',
    invalidOperators: a.invalidOperators.map((o) => ({ step: o.step + 1, operator: o.operator })),
  };
}

function chunk<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}
