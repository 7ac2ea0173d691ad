/**
 * A change's impact on one ApplicationSet in numbers, from the comparison (`diff.ts`) and the head
 * side: how many Applications sync, how (all at once, or in waves of a RollingSync the controller
 * honours), on how many clusters at once, about how long, which steps empty or grow, what is deleted.
 * The editor's lens and hover say it (`words.ts`); the policy gate judges it (`gate.ts`).
 */
import { isObj } from '../../objects';
import type { Json } from '../../types';
import type { AppSetDiff, SideAppSet } from './diff';
import type { ChangeSummary } from '@appset-tools/protocol';

export interface ChangeImpact {
  name: string;
  namespace: string;
  /** Applications added, removed, changed (any field). */
  added: number;
  removed: number;
  changed: number;
  /** Applications this change makes sync (new ones, and those whose spec changed). */
  syncing: number;
  /** Applications the head generates. */
  total: number;
  /** How they sync under the head plan: in waves of a RollingSync, all at once, or all at once because the strategy is ignored. */
  mode: 'rolling' | 'all-at-once' | 'ignored';
  /** Most of them syncing at the same time, and most clusters one group of them lands on. */
  atOnce: number;
  clustersAtOnce: number;
  /** Clusters the syncing Applications land on. */
  clusters: number;
  /** Groups that sync one after another (all at once: 1). */
  waves: number;
  /** About how long the syncs take: waves × the assumed minutes per sync (the timeline's `minutesPerSync`). */
  minutes: number;
  minutesPerSync: number;
  /** Steps that selected Applications before and select none now, with their selectors. */
  emptied: { step: number; selector: string }[];
  /** Steps whose largest wave grows. */
  grown: { step: number; from: number; to: number }[];
  /** Applications that move from one step to another. */
  moved: number;
  /** Applications this change makes sync that the rollout never syncs (no step selects them, or a manual gate). */
  notSynced: number;
  /** Removed Applications the controller deletes, and those whose resources go with them. */
  deleted: number;
  deletesResources: number;
  /** The generators now produce nothing while they produced Applications before: every one of them is deleted. */
  generatesNothing: boolean;
  /** Nothing changes: no lens, no hover, no gate. */
  none: boolean;
}

/** The cluster an Application is deployed to: `destination.name`, else `destination.server`. */
export function destinationOf(app: Json): string {
  const spec = isObj(app) && isObj(app.spec) ? app.spec : {};
  const d = isObj(spec.destination) ? spec.destination : {};
  if (typeof d.name === 'string' && d.name) return d.name;
  return typeof d.server === 'string' ? d.server : '';
}

export function changeImpact(diff: AppSetDiff, head: SideAppSet | undefined): ChangeImpact {
  const clusterOf = (name: string) => {
    const a = head?.apps.get(name);
    return a ? destinationOf(a.app) : '';
  };
  const syncing = diff.changes.filter((c) => c.syncs);
  const minutesPerSync = diff.timeline.head?.minutesPerSync ?? diff.timeline.base?.minutesPerSync ?? 0;
  const mode = diff.strategy.effective ? 'rolling' : diff.strategy.head === 'RollingSync' ? 'ignored' : 'all-at-once';
  const selectorOf = (step: number) =>
    diff.rollout.base?.find((s) => s.step === step)?.selector ?? head?.plan.steps.find((s) => s.step === step)?.selector ?? '';
  const removed = diff.changes.filter((c) => c.change === 'removed');
  return {
    name: diff.name,
    namespace: diff.namespace,
    added: diff.changes.filter((c) => c.change === 'added').length,
    removed: removed.length,
    changed: diff.changes.filter((c) => c.change === 'changed').length,
    syncing: syncing.length,
    total: diff.unchanged + diff.changes.filter((c) => c.change !== 'removed').length,
    mode,
    atOnce: diff.syncAtOnce,
    clustersAtOnce: diff.waves.reduce((m, w) => Math.max(m, new Set(w.apps.map(clusterOf)).size), 0),
    clusters: new Set(syncing.map((c) => clusterOf(c.name))).size,
    waves: diff.waves.length,
    minutes: diff.waves.length * minutesPerSync,
    minutesPerSync,
    emptied: diff.rollout.emptied.map((step) => ({ step, selector: selectorOf(step) })),
    grown: diff.rollout.grown,
    moved: diff.changes.filter((c) => c.fromStep !== undefined).length,
    notSynced: syncing.filter((c) => c.note).length,
    deleted: removed.filter((c) => c.deletion?.application === 'deleted').length,
    deletesResources: removed.filter((c) => c.deletion?.resources === 'deleted').length,
    generatesNothing: !!diff.generatesNothing,
    none: diff.status === 'unchanged',
  };
}

/** The rollout view's "This change" section: the timeline and steps before → after, moves, deletions. */
export function changeSummary(
  diff: AppSetDiff,
  base: SideAppSet | undefined,
  head: SideAppSet,
  baseline: string,
  summary: string,
): ChangeSummary {
  const count = (side: SideAppSet | undefined, step: number) =>
    side?.plan.strategy === 'RollingSync' ? (side.plan.steps.find((s) => s.step === step)?.apps.length ?? 0) : 0;
  const numbers = new Set([...(base?.plan.steps ?? []), ...head.plan.steps].map((s) => s.step));
  const selector = (step: number) =>
    head.plan.steps.find((s) => s.step === step)?.selector ?? base?.plan.steps.find((s) => s.step === step)?.selector ?? '';
  const rolling = base?.plan.strategy === 'RollingSync' || head.plan.strategy === 'RollingSync';
  return {
    name: diff.name,
    baseline,
    summary,
    timeline: {
      ...(diff.timeline.base ? { before: diff.timeline.base.summary } : {}),
      ...(diff.timeline.head ? { after: diff.timeline.head.summary } : {}),
    },
    steps: rolling
      ? [...numbers]
          .sort((a, b) => a - b)
          .map((step) => ({ step, selector: selector(step), before: count(base, step), after: count(head, step) }))
      : [],
    emptied: diff.rollout.emptied,
    moved: diff.changes.filter((c) => c.fromStep !== undefined).map((c) => ({ name: c.name, from: c.fromStep!, to: c.step ?? 0 })),
    deletions: diff.changes
      .filter((c) => c.change === 'removed' && c.deletion)
      .map((c) => ({ name: c.name, application: c.deletion!.application, resources: c.deletion!.resources, why: c.deletion!.why })),
  };
}
