/**
 * Code lenses: one per RollingSync step, one over `strategy:` with the whole rollout, and the
 * AllAtOnce blast radius over `spec:` when there is no rollout strategy.
 */
import type { AppSetContext } from '../context';
import type { CodeLens, Span } from '../../types';
import { fieldsOf } from '../../fields/appset';
import { validApps } from './diagnostics';
import { stepKeySpan } from '../../fields/strategy';
import { enabledSentence, enablementLine, planTitle, stepLensTitle, stepTitle } from '../../rollout/describe';
import { getRolloutPlan, getStrategy } from './plan';
import { isRollingSync, rollingSyncWithSteps } from '../../rollout/spec';
import { Commands } from '@appset-tools/protocol';

export function rolloutLenses(ctx: AppSetContext): CodeLens[] {
  const strategy = getStrategy(ctx);
  const plan = getRolloutPlan(ctx);
  const lens = (span: Span, title: string): CodeLens => ({
    span,
    title,
    command: { id: Commands.showRollout, title: 'Show RollingSync plan', args: [ctx.file.uri, span.start] },
  });
  if (rollingSyncWithSteps(strategy)) {
    // One lens a line, its key fact first (split editors cut a lens line at about 40 characters, and
    // two lenses on one line put the second out of sight): whether the controller honours the strategy
    // over `strategy:`, the plan over `rollingSync:`; the rest of each in its tooltip.
    const key = strategy.at.strategy.keySpan;
    const planKey = strategy.at.rollingSync.keySpan;
    const en = plan.enablement;
    const out: CodeLens[] = [];
    const steps = plan.steps.map(stepTitle).join('\n');
    if (en.state === 'enabled') {
      const d = en.decidedBy;
      const facts = `${enabledSentence(en)}\n${enablementLine(en)}`;
      const title = plan.verdict.lens;
      out.push(
        d && d.file !== 'setting' && d.span
          ? {
              span: key,
              title,
              tooltip: `${facts}\nClick to open the configuration.`,
              command: { id: Commands.openLocation, title: 'Open the configuration', args: [d.file, d.span.start] },
            }
          : { span: key, title, tooltip: facts },
      );
      out.push({ ...lens(planKey, planTitle(plan)), tooltip: steps });
    } else {
      const v = plan.verdict;
      out.push({ ...lens(key, v.lens), tooltip: `${v.sentence}. ${v.reason ?? ''}`.trim() });
      out.push({ ...lens(planKey, `If enabled: ${planTitle(plan)}`), tooltip: steps });
    }
    plan.steps.forEach((s, i) => out.push({ ...lens(stepKeySpan(strategy.steps[i]), stepLensTitle(s)), tooltip: stepTitle(s) }));
    return out;
  }
  if (isRollingSync(strategy)) return [];
  const exp = ctx.expansion();
  const n = validApps(plan, ctx);
  if (n >= ctx.file.settings.blastRadiusThreshold && exp.clusters.length >= 2) {
    // Short (split editors cut lenses at about 40 characters); the whole sentence is the tooltip.
    return [
      {
        ...lens(fieldsOf(ctx.doc).spec.keySpan, `All at once: ${n} apps on ${exp.clusters.length} clusters`),
        tooltip: `No RollingSync strategy (AllAtOnce): one commit syncs ${n} Applications on ${exp.clusters.length} clusters`,
      },
    ];
  }
  return [];
}
