/**
 * The rollout model of one ApplicationSet as the feature modules read it: memoised per analysis
 * context, computed by the pure stages in `rollout/` (plan.ts, enablement.ts, spec.ts).
 */
import type { AppSetContext } from '../context';
import type { RolloutPlan } from '../../rollout/types';
import { computePlan } from '../../rollout/plan';
import { readStrategy, type StrategySpec } from '../../rollout/spec';
import { enablementAt, type EnablementDetails } from '../../rollout/enablement';

/** The plan of one ApplicationSet in its analysis context (memoised per context). */
export function getRolloutPlan(ctx: AppSetContext): RolloutPlan {
  return ctx.memo('rollout.plan', () => {
    const exp = ctx.expansion();
    return computePlan({
      appset: ctx.doc.name,
      strategy: getStrategy(ctx),
      apps: exp.apps,
      enablement: () => enablementFor(ctx),
      clusters: exp.clusters.length,
    });
  });
}

/** The parsed `spec.strategy` (memoised per context). */
export function getStrategy(ctx: AppSetContext): StrategySpec {
  return ctx.memo('rollout.strategy', () => readStrategy(ctx.doc.value));
}

/** Enablement for the controller that runs this ApplicationSet (memoised per analysis). */
export function enablementFor(ctx: AppSetContext): EnablementDetails {
  return ctx.memo('rollout.enablement', () => {
    const meta = ctx.doc.value.metadata;
    const ns = meta && typeof meta === 'object' && !Array.isArray(meta) ? meta.namespace : undefined;
    return enablementAt(ctx.file, {
      path: ctx.file.path ?? `${ctx.file.host.roots()[0] ?? ''}/untitled.yaml`,
      namespace: typeof ns === 'string' && ns ? ns : undefined,
    });
  });
}
