/**
 * Policy gates from the repository configuration (`policy:` in `.appset-tools.yaml`): each answers
 * "what can one commit do to the fleet?" with its own code and threshold. Wave sizes come from the
 * rollout plan (`rollout/plan.ts`); nothing here recomputes them.
 */
import type { AppSetContext, FeatureContributor } from '../context';
import type { EngineDiagnostic } from '../../types';
import type { GeneratedApp } from '../../expand/types';
import type { RolloutPlan } from '@appset-tools/protocol';
import { getRolloutPlan, getStrategy } from '../rollout/plan';
import { isRollingSync } from '../../rollout/spec';
import { relativePath } from '../../paths';
import { fieldsOf } from '../../fields/appset';
import { configFor } from '../../config/load';
import { finding } from '../../diagnostics/codes';

const MAX_NAMES = 5;
const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;
const names = (l: readonly string[]) =>
  l.length > MAX_NAMES ? `${l.slice(0, MAX_NAMES).join(', ')} and ${l.length - MAX_NAMES} more` : l.join(', ');

/** Codes a policy finding replaces at the same place (the policy says it louder, once). */
export const SUPERSEDES: Record<string, string[]> = {
  'policy/strategy-ignored': ['rollout/progressive-syncs-disabled', 'rollout/progressive-syncs-not-found'],
};

export interface AtOnce {
  /** Most Applications one commit can make sync at the same time. */
  count: number;
  /** Which ones (the largest group). */
  apps: string[];
  /** Where they sync: 'all' (AllAtOnce or an ignored strategy) or `step N wave W`. */
  where: string;
  /** The 1-based step of that wave (absent for 'all'). */
  step?: number;
}

/** The largest group the plan syncs at once: everything when the rollout is not in effect, else the largest wave. */
export function largestSyncAtOnce(plan: RolloutPlan, apps: readonly GeneratedApp[]): AtOnce {
  const valid = apps.filter((a) => !a.invalid?.length).map((a) => a.name);
  if (plan.strategy !== 'RollingSync' || !plan.effective) return { count: valid.length, apps: valid, where: 'all' };
  let best: AtOnce = { count: 0, apps: [], where: 'all' };
  for (const s of plan.steps)
    for (const w of s.waves)
      if (w.apps.length > best.count) best = { count: w.apps.length, apps: w.apps, where: `step ${s.step} wave ${w.wave}`, step: s.step };
  return best;
}

/** Labels an Application is judged by: its own, then those of the cluster it was generated for. */
export function appLabels(a: GeneratedApp): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  const p = a.params as Record<string, unknown>;
  const md = p?.metadata as Record<string, unknown> | undefined;
  const nested = md && typeof md === 'object' ? (md.labels as Record<string, unknown> | undefined) : undefined;
  if (nested && typeof nested === 'object') for (const [k, v] of Object.entries(nested)) if (typeof v === 'string') out[k] = v;
  for (const [k, v] of Object.entries(p ?? {})) if (k.startsWith('metadata.labels.') && typeof v === 'string') out[k.slice(16)] = v;
  for (const [k, v] of Object.entries(a.labels)) out[k] = v;
  return out;
}

const matches = (labels: Record<string, string>, sel: Record<string, string>) =>
  Object.entries(sel).every(([k, v]) => Object.prototype.hasOwnProperty.call(labels, k) && labels[k] === v);

export function policyDiagnostics(ctx: AppSetContext): EngineDiagnostic[] {
  const cfg = ctx.file.config ?? configFor(ctx.file.path, ctx.file.host, ctx.file.workspace);
  const pol = cfg.policy;
  if (pol.maxSyncAtOnce === undefined && !pol.requireRollingSync?.length && !pol.requireProgressiveSyncs) return [];
  const out: EngineDiagnostic[] = [];
  const exp = ctx.expansion();
  const plan = getRolloutPlan(ctx);
  const strategy = getStrategy(ctx);
  const strategySpan = strategy.present ? strategy.at.strategy.keySpan : fieldsOf(ctx.doc).generators.keySpan;
  // Named as the workspace has it (the location carries the absolute path): messages travel into reports.
  const related = cfg.path
    ? [{ location: { file: cfg.path }, message: `policy set in ${relativePath(ctx.file.host.roots(), cfg.path)}` }]
    : [];

  if (pol.requireProgressiveSyncs && isRollingSync(strategy) && plan.enablement.state !== 'enabled') {
    const n = exp.apps.filter((a) => !a.invalid?.length).length;
    out.push(
      finding(
        'policy/strategy-ignored',
        `Ignored: progressive syncs are ${plan.enablement.state === 'disabled' ? 'disabled' : 'not enabled'} on the controller, so ${n ? `all ${plural(n, 'Application')}` : 'every Application'} sync at once and this RollingSync strategy does nothing. Enable them (applicationsetcontroller.enable.progressive.syncs: "true" in argocd-cmd-params-cm) or set progressiveSyncs: enabled in the config file if they are enabled outside this repository.`,
        strategy.at.strategy.keySpan,
        { related },
      ),
    );
  }
  if (exp.capped) return out;

  if (pol.maxSyncAtOnce !== undefined) {
    const at = largestSyncAtOnce(plan, exp.apps);
    if (at.count > pol.maxSyncAtOnce) {
      const how =
        at.where === 'all'
          ? plan.strategy === 'RollingSync'
            ? 'the RollingSync strategy is not in effect, so every Application syncs at once'
            : 'AllAtOnce: every Application syncs at once'
          : `the largest wave is ${at.where}`;
      out.push(
        finding(
          'policy/max-sync-at-once',
          `One commit can sync ${plural(at.count, 'Application')} at the same time (policy: at most ${pol.maxSyncAtOnce}): ${how} (${names(at.apps)}). ${at.where === 'all' ? 'Roll out with RollingSync steps' : 'Lower maxUpdate or split the step'}.`,
          at.step !== undefined ? strategy.steps[at.step - 1].at.step.span : strategySpan,
          { related, data: { count: at.count, threshold: pol.maxSyncAtOnce } },
        ),
      );
    }
  }

  if (pol.requireRollingSync?.length && !(isRollingSync(strategy) && plan.effective)) {
    const hit = exp.apps.filter((a) => !a.invalid?.length && pol.requireRollingSync!.some((sel) => matches(appLabels(a), sel)));
    if (hit.length) {
      const sels = pol.requireRollingSync
        .map((s) =>
          Object.entries(s)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', '),
        )
        .join(' or ');
      const why = isRollingSync(strategy)
        ? 'its RollingSync strategy is not in effect (progressive syncs are not enabled or it has no steps)'
        : 'it has no RollingSync strategy';
      out.push(
        finding(
          'policy/rolling-sync-required',
          `${plural(hit.length, 'Application')} match ${sels} (${names(hit.map((a) => a.name))}) and must roll out with RollingSync, but ${why}.`,
          strategySpan,
          { related, data: { count: hit.length } },
        ),
      );
    }
  }
  return out;
}

export const policyContributor: FeatureContributor = {
  name: 'policy',
  diagnostics: (ctx) => policyDiagnostics(ctx),
};
