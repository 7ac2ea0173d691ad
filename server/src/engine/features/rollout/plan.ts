/**
 * The rollout model of one ApplicationSet as the feature modules read it: memoised per analysis
 * context, computed by the pure stages in `rollout/` (plan.ts, enablement.ts, spec.ts) over the document's
 * view (`fields/`).
 */
import type { AppSetContext } from '../context';
import type { RolloutPlan } from '@appset-tools/protocol';
import { computePlan } from '../../rollout/plan';
import type { StrategyFields } from '../../fields/strategy';
import { fieldsOf } from '../../fields/appset';
import { enablementAt, type EnablementDetails } from '../../rollout/enablement';
import { getProjects, stepWindows } from '../../rollout/syncWindows';
import { rolloutTimeline } from '../../rollout/timeline';
import { has } from '../../versions/behaviours';

/** The plan of one ApplicationSet in its analysis context (memoised per context). */
export function getRolloutPlan(ctx: AppSetContext): RolloutPlan {
  return ctx.memo('rollout.plan', () => {
    const exp = ctx.expansion();
    const plan = computePlan({
      appset: ctx.doc.name,
      strategy: getStrategy(ctx),
      apps: exp.apps,
      enablement: () => enablementFor(ctx),
      clusters: exp.clusters.length,
    });
    if (plan.steps.length) {
      // AppProject sync windows that can park a step (only looked up for a RollingSync with steps).
      const projects = getProjects(ctx.file.workspace, ctx.file.host.roots());
      if (projects.length) {
        const own = plan.steps.map((s) => ({ apps: s.apps.filter((a) => !s.syncedEarlier?.includes(a)) }));
        const windows = stepWindows(own, exp.apps, projects, ctx.file.path ?? '', appsetNamespace(ctx));
        plan.steps.forEach((s, i) => {
          if (windows[i].length) s.syncWindows = windows[i];
        });
      }
    }
    plan.timeline = rolloutTimeline(plan, ctx.file.settings.minutesPerSync ?? 3, has(ctx.target(), 'rollingSyncRefresh'));
    return plan;
  });
}

export function appsetNamespace(ctx: AppSetContext): string | undefined {
  const meta = ctx.doc.value.metadata;
  const ns = meta && typeof meta === 'object' && !Array.isArray(meta) ? meta.namespace : undefined;
  return typeof ns === 'string' && ns ? ns : undefined;
}

/** `spec.strategy` with its places, from the document's view (read once per document). */
export function getStrategy(ctx: AppSetContext): StrategyFields {
  return fieldsOf(ctx.doc).strategy;
}

/** Enablement for the controller that runs this ApplicationSet (memoised per analysis). */
export function enablementFor(ctx: AppSetContext): EnablementDetails {
  return ctx.memo('rollout.enablement', () => {
    return enablementAt(ctx.file, {
      path: ctx.file.path ?? `${ctx.file.host.roots()[0] ?? ''}/untitled.yaml`,
      namespace: appsetNamespace(ctx),
    });
  });
}
