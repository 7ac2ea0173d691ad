/**
 * Hover on a RollingSync step (its Applications wave by wave and maxUpdate in plain words) and on
 * `strategy:` (the whole rollout); from Argo CD 3.6 the first step's and the strategy's say how the refresh
 * gate holds a rollout after a change (rollout/describe.ts REFRESH_GATE).
 */
import type { AppSetContext } from '../context';
import type { Hover } from '../../types';
import { pathAt } from '../../yaml';
import { enablementLine, explainMaxUpdate, names, planTitle, REFRESH_GATE, stepTitle, windowLine } from '../../rollout/describe';
import { getRolloutPlan, getStrategy } from './plan';
import { rollingSyncWithSteps } from '../../rollout/spec';
import type { PlanStep, RolloutPlan } from '@appset-tools/protocol';
import { has } from '../../versions/behaviours';

const MAX_WAVES = 12;
const MAX_NAMES = 20;

function list(names: string[]): string {
  const shown = names
    .slice(0, MAX_NAMES)
    .map((n) => '`' + n + '`')
    .join(', ');
  return names.length > MAX_NAMES ? `${shown} … (+${names.length - MAX_NAMES})` : shown;
}

export function stepMarkdown(s: PlanStep, refreshGate = false): string {
  const lines = [`**${stepTitle(s)}**`, '', explainMaxUpdate(s, refreshGate), ''];
  if (s.manual && s.apps.length) lines.push(`- sync by hand: ${list(s.apps)}`);
  for (const w of s.waves.slice(0, MAX_WAVES)) lines.push(`- wave ${w.wave}: ${list(w.apps)}`);
  if (s.waves.length > MAX_WAVES) lines.push(`- … ${s.waves.length - MAX_WAVES} more waves`);
  if (s.syncedEarlier?.length) lines.push(`- already synced by an earlier step: ${list(s.syncedEarlier)}`);
  if (s.blockedBy?.length) lines.push(`- never created (invalid), so this step never completes: ${list(s.blockedBy)}`);
  for (const w of s.syncWindows ?? []) lines.push(`- ${windowLine(w, list)}`);
  if (!s.apps.length) lines.push('- selects no Application: the step is skipped');
  return lines.join('\n');
}

export function rolloutHover(ctx: AppSetContext, offset: number): Hover | undefined {
  const strategy = getStrategy(ctx);
  if (!rollingSyncWithSteps(strategy)) return undefined;
  const { path } = pathAt(ctx.doc.doc, offset);
  if (path[0] !== 'spec' || path[1] !== 'strategy') return undefined;
  const plan = getRolloutPlan(ctx);
  if (path[2] === 'rollingSync' && path[3] === 'steps' && typeof path[4] === 'number') {
    const step = plan.steps[path[4]];
    const at = strategy.steps[path[4]]?.at.step;
    if (!step || !at?.valueRange) return undefined;
    return { span: at.valueRange, markdown: stepMarkdown(step, has(ctx.target(), 'rollingSyncRefresh')) };
  }
  if (path.length === 2) {
    const n = strategy.at.strategy;
    return {
      span: n.keyRange ?? n.valueRange ?? { start: offset, end: offset + 1 },
      markdown: strategyMarkdown(ctx, plan),
      answersTrap: true,
    };
  }
  return undefined;
}

/**
 * The hover on `strategy:`: the plan, then the enablement facts (state, install, deciding file as a link,
 * where detection looked). When the strategy is ignored, VS Code shows the `rollout/progressive-syncs-disabled`
 * warning in the same hover, so its sentences are not said again here; the state is said in the heading
 * and the facts line (the warning may be switched off in `.appset-tools.yaml`).
 */
function strategyMarkdown(ctx: AppSetContext, plan: RolloutPlan): string {
  const en = plan.enablement;
  const lines = [`**RollingSync${en.state === 'enabled' ? '' : ', if enabled'}: ${planTitle(plan)}**`, ''];
  for (const s of plan.steps) lines.push(`- ${stepTitle(s)}`);
  // The names are in the finding on `steps:` and in the rollout view; here the count and the first few.
  if (plan.unselected.length) lines.push(`- selected by no step, never synced: ${plan.unselected.length} (${names(plan.unselected)})`);
  const d = en.decidedBy;
  const file = d && d.file !== 'setting' && d.file.startsWith('/') ? d.file : undefined;
  const line = /:(\d+)$/.exec(d?.where ?? '')?.[1];
  const fact = enablementLine(en);
  const linked = file && d?.where ? fact.replace(d.where, `[${d.where}](file://${encodeURI(file)}${line ? `#L${line}` : ''})`) : fact;
  lines.push('', linked.charAt(0).toUpperCase() + linked.slice(1) + '.');
  for (const note of en.notes ?? []) lines.push('', `Note: ${note}.`);
  if (en.searched.length) lines.push('', `Searched: ${en.searched.join('; ')}.`);
  const target = ctx.target();
  if (has(target, 'rollingSyncRefresh')) lines.push('', `Refresh gate: ${REFRESH_GATE}. Checked against ${target.why}.`);
  return lines.join('\n');
}
