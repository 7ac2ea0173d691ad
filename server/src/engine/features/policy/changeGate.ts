/**
 * The change gate (`policy.maxChangeAtOnce`, `policy.maxChangeClustersAtOnce` in .appset-tools.yaml):
 * what one change may make sync at the same time, judged on its impact (`summary.ts`). The editor
 * reports it as `policy/change-at-once` on the ApplicationSet, with the quick fixes of the rollout
 * (insert a RollingSync strategy; enable progressive syncs when the strategy is ignored); `appset diff`
 * exits 1 for it in CI. One judgement for both.
 */
import { finding } from '../../diagnostics/codes';
import { withUserSeverity } from '../../config/apply';
import type { PolicyConfig, RepoConfig } from '../../config/types';
import type { EngineDiagnostic, Span } from '../../types';
import type { ChangeImpact } from '../impact/summary';

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** What `policy/change-at-once` carries for its quick fixes: how the change syncs. */
export interface ChangeGateData {
  mode: ChangeImpact['mode'];
}

/** Why the change breaks the gate (consequence first), or undefined when it keeps to it or no gate is set. */
export function changeGateMessage(i: ChangeImpact, policy: PolicyConfig): string | undefined {
  if (i.none || !i.syncing) return undefined;
  const apps = policy.maxChangeAtOnce !== undefined && i.atOnce > policy.maxChangeAtOnce;
  const clusters = policy.maxChangeClustersAtOnce !== undefined && i.clustersAtOnce > policy.maxChangeClustersAtOnce;
  if (!apps && !clusters) return undefined;
  const limits = [
    apps ? `policy.maxChangeAtOnce (${policy.maxChangeAtOnce})` : '',
    clusters ? `policy.maxChangeClustersAtOnce (${policy.maxChangeClustersAtOnce})` : '',
  ].filter(Boolean);
  const how =
    i.mode === 'rolling'
      ? 'in its waves'
      : i.mode === 'ignored'
        ? 'because the RollingSync strategy is ignored (progressive syncs are not enabled)'
        : 'because the ApplicationSet has no RollingSync strategy';
  const upTo = i.mode === 'rolling' ? 'up to ' : '';
  return `This change syncs ${upTo}${plural(i.atOnce, 'Application')} on ${upTo}${plural(i.clustersAtOnce, 'cluster')} at the same time ${how}, more than ${limits.join(' and ')} allows`;
}

/** The editor's finding for the gate at `span`, with the repository configuration's severity (`off` included). */
export function changeGateFinding(i: ChangeImpact, cfg: RepoConfig, span: Span): EngineDiagnostic | undefined {
  const message = changeGateMessage(i, cfg.policy);
  if (!message) return undefined;
  const data: ChangeGateData = { mode: i.mode };
  return withUserSeverity(finding('policy/change-at-once', message, span, { data }), cfg);
}
