/**
 * Rollout findings on the strategy as written: a RollingSync without steps, a deletion order the
 * strategy cannot honour, an AllAtOnce over many clusters, and what a RollingSync with steps does to
 * auto-sync, the applications-sync policy and manual gates. Spans come from the strategy's located fields.
 */
import type { AppSetContext } from '../context';
import type { EngineDiagnostic, Json } from '../../types';
import type { EnablementDetails } from '../../rollout/enablement';
import { clusterLabels } from '../../rollout/labels';
import type { GeneratedApp } from '../../expand/types';
import { resolveMaxUpdate } from '../../rollout/plan';
import { isRollingSync, type StrategyFields } from '../../rollout/spec';
import type { RolloutPlan } from '@appset-tools/protocol';
import { GATES, has as hasBehaviour, sinceLabel } from '../../versions/behaviours';
import { label } from '../../versions/releases';
import { knownTo } from '../../versions/fields';
import { targetRelated, type TargetVersion } from '../../install/target';
import { finding } from '../../diagnostics/codes';
import { applicationsSyncPolicy } from '../policy/syncPolicy';
import { fieldsOf } from '../../fields/appset';

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** What `steps: []` does depends on the release (argo-cd PR #27820, master). */
function noStepsMessage(target: TargetVersion): string {
  return hasBehaviour(target, 'noStepsHalts')
    ? `RollingSync without steps: ${label(target.line)} reports "No steps defined for rollout" and stops creating, updating and deleting this ApplicationSet's Applications (checked against ${target.why}).`
    : `RollingSync without steps: ${label(target.line)} syncs every Application at once (checked against ${target.why}); from ${sinceLabel(GATES.noStepsHalts.since)} on, it stops reconciling this ApplicationSet with "No steps defined for rollout".`;
}

/** No RollingSync with steps: the steps, the deletion order and the blast radius of syncing all at once. */
export function withoutStepsFindings(ctx: AppSetContext, strategy: StrategyFields, n: number): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const exp = ctx.expansion();
  if (strategy.type === 'RollingSync' && strategy.hasRollingSync) {
    out.push(
      finding('rollout/no-steps', noStepsMessage(ctx.target()), strategy.at.steps.keySpan, { related: targetRelated(ctx.target()) }),
    );
  }
  // A release older than the field never sees it (reported as a field it does not know).
  if (
    strategy.deletionOrder.length === 7 &&
    strategy.deletionOrder.toLowerCase() === 'reverse' &&
    knownTo(['strategy', 'deletionOrder'], ctx.target().line)
  ) {
    out.push(
      finding(
        'rollout/deletion-order-ignored',
        'deletionOrder: Reverse only takes effect with a RollingSync strategy that has steps; these Applications are deleted all at once.',
        strategy.at.deletionOrder,
      ),
    );
  }
  const threshold = ctx.file.settings.blastRadiusThreshold;
  if (!isRollingSync(strategy) && n >= threshold && exp.clusters.length >= 2 && !exp.capped) {
    const prod = productionLooking(exp.apps);
    out.push(
      finding(
        'rollout/blast-radius',
        `AllAtOnce: one commit syncs ${plural(n, 'Application')} on ${exp.clusters.length} ${prod ? 'production ' : ''}clusters at the same time${prod ? ` (${prod})` : ''}. A RollingSync strategy rolls it out step by step (quick fix available).`,
        fieldsOf(ctx.doc).generators.keySpan,
        { data: { apps: n, clusters: exp.clusters.length, production: !!prod }, variant: !!prod },
      ),
    );
  }
  return out;
}

/**
 * A RollingSync with steps: auto-sync turned off, an applications-sync policy that never updates,
 * every step a manual gate, a reverse deletion the release cannot do. `allManual` tells the plan's
 * findings not to repeat the manual gate per step.
 */
export function rollingSyncFindings(
  ctx: AppSetContext,
  strategy: StrategyFields,
  plan: RolloutPlan,
  en: EnablementDetails | undefined,
): { findings: EngineDiagnostic[]; allManual: boolean } {
  const out: EngineDiagnostic[] = [];
  const view = fieldsOf(ctx.doc);
  const automated = view.templateAutomated;
  if (automated.value !== undefined && automated.value !== null) {
    out.push(
      finding(
        'rollout/automated-disabled',
        plan.effective
          ? 'Under RollingSync the controller writes automated.enabled: false on every generated Application (the preview shows it): syncs happen only when the rollout reaches their step (automated.prune still decides whether those syncs prune). Applications selected by no step never sync on their own.'
          : 'Once progressive syncs are on, the controller writes automated.enabled: false on every generated Application and syncs them step by step; today they are off, so auto-sync stays on and every Application syncs on its own.',
        automated.keySpan,
      ),
    );
  }
  // The policy the controller applies (the ApplicationSet's own, or the install's --policy when the
  // override is off: features/policy/syncPolicy.ts), so `appset diff` and this finding agree.
  const applied = applicationsSyncPolicy(ctx);
  if (applied.policy === 'create-only' || applied.policy === 'create-delete') {
    const fromOwn = view.applicationsSync.value === applied.policy;
    out.push(
      finding(
        'rollout/sync-policy-blocks-rollout',
        `${fromOwn ? `applicationsSync: ${applied.policy}` : `${applied.why}: ${applied.policy}`} never updates existing Applications, and RollingSync starts syncs by updating them: the rollout can never sync anything after the first creation. Use create-update or sync.`,
        fromOwn ? view.applicationsSync.span : strategy.at.strategy.keySpan,
      ),
    );
  }

  // Every step a manual gate (maxUpdate 0 or "0%"): RollingSync turns auto-sync off on every
  // Application and then syncs none of them (applicationset/progressivesync/progressive_sync.go:
  // the "at least 1" rounding spares only "0%"). One warning for the strategy, not a note per step.
  const allManual = strategy.steps.every(
    (st) => resolveMaxUpdate(st.maxUpdate, 100).value !== null && resolveMaxUpdate(st.maxUpdate, 100).value! <= 0,
  );
  if (allManual)
    out.push(
      finding(
        'rollout/manual-step',
        `every step has maxUpdate ${strategy.steps.length === 1 ? JSON.stringify(strategy.steps[0].maxUpdate) : '0'}: RollingSync turns auto-sync off on every Application and then syncs none of them, so ${plan.effective ? 'nothing is deployed' : 'once progressive syncs are on, nothing is deployed'} unless someone syncs each Application by hand. Give the first step a maxUpdate above 0 (e.g. 1 or 25%) to make it a rollout.`,
        strategy.at.steps.keySpan,
        { variant: true },
      ),
    );

  // Argo CD 3.2: reverse deletion runs only while the ApplicationSet's resources finalizer holds its
  // deletion; 3.3 adds the finalizer itself (PR #25125, applicationset_controller.go Reconcile).
  const target = ctx.target();
  // With progressive syncs off the strategy is ignored, and what deletion does then is said in that warning
  // (deletionOrderWhileOff): the controller adds the finalizer only while they are on.
  if (
    en?.state === 'enabled' &&
    /^reverse$/i.test(strategy.deletionOrder) &&
    knownTo(['strategy', 'deletionOrder'], target.line) &&
    !hasBehaviour(target, 'deletionOrderFinalizerAdded') &&
    !hasResourcesFinalizer(view.finalizers.value)
  ) {
    out.push(
      finding(
        'rollout/deletion-order-finalizer',
        `Deleting this ApplicationSet deletes all its Applications at once, not in reverse step order: ${label(target.line)} deletes in reverse only when the ApplicationSet has the ${RESOURCES_FINALIZER} finalizer, and metadata.finalizers lacks it (from ${sinceLabel(GATES.deletionOrderFinalizerAdded.since)} on the controller adds it itself). Checked against ${target.why}.`,
        strategy.at.deletionOrder,
        { related: targetRelated(target) },
      ),
    );
  }
  return { findings: out, allManual };
}

const PROD = /(^|[^a-z])(prod|production|prd|live)([^a-z]|$)/i;

/** Why the destinations look like production (a destination or a cluster label says so), or undefined. */
export function productionLooking(apps: readonly GeneratedApp[]): string | undefined {
  for (const a of apps) {
    const dest = (a.app as { spec?: { destination?: { server?: unknown; name?: unknown; namespace?: unknown } } }).spec?.destination;
    for (const v of [dest?.name, dest?.server, dest?.namespace]) if (typeof v === 'string' && PROD.test(v)) return `destination ${v}`;
    for (const [k, v] of clusterLabels(a.params)) if (PROD.test(v)) return `cluster label ${k}: ${v}`;
    for (const [k, v] of Object.entries(a.labels)) if (PROD.test(v)) return `label ${k}: ${v}`;
  }
  return undefined;
}

const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

/**
 * `deletionOrder: Reverse` while progressive syncs are off, for the warning that says the strategy is
 * ignored: the controller's deletion branch does not check the switch (applicationset_controller.go
 * Reconcile: DeletionTimestamp set → progressivesync.IsDeletionOrderReversed → PerformReverseDeletion, which
 * deletes one Application per reconcile, last step first, and requeues every 10 s until it is gone), but
 * only with progressive syncs on does the controller add the resources finalizer that keeps the
 * ApplicationSet while it deletes. So it runs when metadata.finalizers carries that finalizer.
 */
export function deletionOrderWhileOff(ctx: AppSetContext, strategy: StrategyFields): string | undefined {
  if (!/^reverse$/i.test(strategy.deletionOrder) || !strategy.steps.length || !knownTo(['strategy', 'deletionOrder'], ctx.target().line))
    return undefined;
  return hasResourcesFinalizer(fieldsOf(ctx.doc).finalizers.value)
    ? `deletionOrder: Reverse still applies, as the deletion does not depend on progressive syncs: the ApplicationSet carries the ${RESOURCES_FINALIZER} finalizer, so deleting it deletes its Applications one at a time, last step first.`
    : `deletionOrder: Reverse does not apply either: the controller adds the ${RESOURCES_FINALIZER} finalizer the reverse deletion needs only while progressive syncs are on, so deleting the ApplicationSet deletes its Applications at once (with that finalizer in metadata.finalizers it deletes them one at a time, last step first).`;
}

function hasResourcesFinalizer(f: Json | undefined): boolean {
  return Array.isArray(f) && f.some((x) => typeof x === 'string' && x.startsWith(RESOURCES_FINALIZER));
}
