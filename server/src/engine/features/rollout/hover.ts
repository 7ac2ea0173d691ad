/**
 * Hover on a RollingSync step (its Applications wave by wave and maxUpdate in plain words) and on
 * `strategy:` (the whole rollout); from Argo CD 3.6 both say that every step starts with a refresh.
 */
import type { AppSetContext } from '../context';
import type { Hover } from '../../types';
import { pathAt } from '../../yaml';
import {
  shownInstanceName,
  enabledSentence,
  explainMaxUpdate,
  offSentence,
  offReason,
  planTitle,
  stepTitle,
  windowLine,
} from '../../rollout/describe';
import { getRolloutPlan, getStrategy } from './plan';
import { rollingSyncWithSteps } from '../../rollout/spec';
import type { PlanStep } from '../../../protocol';
import { has } from '../../versions/gates';

const MAX_WAVES = 12;
const MAX_NAMES = 20;

function list(names: string[]): string {
  const shown = names
    .slice(0, MAX_NAMES)
    .map((n) => '`' + n + '`')
    .join(', ');
  return names.length > MAX_NAMES ? `${shown} … (+${names.length - MAX_NAMES})` : shown;
}

export function stepMarkdown(s: PlanStep, refreshFirst = false): string {
  const lines = [`**${stepTitle(s)}**`, '', explainMaxUpdate(s, refreshFirst), ''];
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
    const lines = [`**RollingSync: ${planTitle(plan)}**`, ''];
    for (const s of plan.steps) lines.push(`- ${stepTitle(s)}`);
    const target = ctx.target();
    if (has(target, 'rollingSyncRefresh'))
      lines.push(
        '',
        `Before each step the controller refreshes every Application of the ApplicationSet and waits for the refreshes (up to --refresh-grace-period-seconds, 30 s by default): steps start later, their members and maxUpdate do not change. Checked against ${target.why}.`,
      );
    if (plan.unselected.length) lines.push(`- selected by no step (never synced by the rollout): ${list(plan.unselected)}`);
    // Whether the controller runs it, which install decided, and where detection looked.
    const en = plan.enablement;
    lines.push('', en.state === 'enabled' ? `${enabledSentence(en)}.` : `${offSentence(en, plan.totalApps)}. ${offReason(en)}`);
    const shown = shownInstanceName(en.instance?.name);
    if (en.instance?.why) lines.push('', `Argo CD: ${shown ? `${shown} — ` : ''}${en.instance.why}.`);
    for (const note of en.notes ?? []) lines.push('', `Note: ${note}.`);
    if (en.searched.length) lines.push('', `Searched: ${en.searched.join('; ')}.`);
    // It says whether this controller runs the strategy: the field doc's general "ignored unless enabled" is not repeated.
    return { span: n.keyRange ?? n.valueRange ?? { start: offset, end: offset + 1 }, markdown: lines.join('\n'), answersTrap: true };
  }
  return undefined;
}
