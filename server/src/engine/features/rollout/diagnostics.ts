/**
 * Rollout diagnostics for one ApplicationSet: is the strategy going to be honoured, what does it
 * select, and which settings defeat it (Argo CD `applicationset/progressivesync/`). Every finding
 * takes its place from the ApplicationSet's located fields (`fields/`): the strategy's fields carry their spans.
 * Here: whether progressive syncs are on; the strategy as written is `strategyFindings.ts`, what its
 * plan does is `planFindings.ts`.
 */
import { isObj } from '../../objects';
import type { AppSetContext, FileContext } from '../context';
import type { EngineDiagnostic, RelatedInfo, Span } from '../../types';
import { getEnablement, type EnablementDetails } from '../../rollout/enablement';
import { names, offReason, shownInstanceName } from '../../rollout/describe';
import { enablementFor, getRolloutPlan, getStrategy } from './plan';
import { isRollingSync, rollingSyncWithSteps } from '../../rollout/spec';
import type { RolloutPlan, Verdict } from '@appset-tools/protocol';
import { finding } from '../../diagnostics/codes';
import { deletionOrderWhileOff, rollingSyncFindings, withoutStepsFindings } from './strategyFindings';
import { planFindings } from './planFindings';

function evidenceRelated(en: EnablementDetails): RelatedInfo[] {
  return en.evidence
    .filter((e) => e.file !== 'setting')
    .slice(0, 20)
    .map((e) => ({ location: { file: e.file, span: e.span }, message: `${e.effect}: ${e.description}${e.instance ? '' : ''}` }));
}

/** Number of valid Applications (the ones the controller creates). */
export function validApps(plan: RolloutPlan, ctx: AppSetContext): number {
  return ctx.expansion().apps.filter((a) => !a.invalid?.length).length || plan.totalApps;
}

export function rolloutDiagnostics(ctx: AppSetContext): EngineDiagnostic[] {
  const strategy = getStrategy(ctx);
  // Without a RollingSync strategy the findings need the plan only when no Application is valid (its
  // count): the plan (each Application placed, a timeline) is left to the lenses and views that show it,
  // which ask for it with their own requests (issue 39: a part of the first answer on 540 Applications).
  const planNeeded = isRollingSync(strategy);
  const plan = planNeeded ? getRolloutPlan(ctx) : undefined;
  const n = ctx.expansion().apps.filter((a) => !a.invalid?.length).length || (plan ?? getRolloutPlan(ctx)).totalApps;
  // Only a RollingSync strategy needs to know whether progressive syncs are on (a workspace scan).
  const en = isRollingSync(strategy) ? enablementFor(ctx) : undefined;
  const out: EngineDiagnostic[] = [];
  if (en && plan && en.state !== 'enabled') out.push(enablementFinding(ctx, en, plan.verdict, strategy.at.strategy.keySpan));
  if (!plan || !rollingSyncWithSteps(strategy)) return [...out, ...withoutStepsFindings(ctx, strategy, n)];
  const { findings, allManual } = rollingSyncFindings(ctx, strategy, plan, en);
  out.push(...findings);
  // Plan-based findings need generated Applications; an empty or capped preview would only mislead.
  const exp = ctx.expansion();
  if (!exp.apps.length || exp.capped) return out;
  return [...out, ...planFindings(ctx, strategy, plan, allManual)];
}

/** Progressive syncs are off or not found: the strategy is ignored, and what the controller does instead. */
function enablementFinding(ctx: AppSetContext, en: EnablementDetails, verdict: Verdict, strategyKey: Span): EngineDiagnostic {
  const exp = ctx.expansion();
  // The controller then writes the template's own syncPolicy: say which one it is (automated or none).
  // From the rendered Applications when there are some; else from the templates as written (an empty
  // offline preview says nothing of the templates' syncPolicy).
  const automated = exp.apps.length ? exp.apps.some((a) => isAutomated(a.app.spec)) : templateAutomated(ctx.doc.value);
  const policy =
    automated === true
      ? ", with the template's own automated syncPolicy."
      : automated === false
        ? '; the template has no automated syncPolicy, so each syncs when someone syncs it.'
        : ", with the syncPolicy the template's templatePatch writes.";
  // The plan's verdict, as the lens, the hover, the rollout view and the status bar say it.
  const parts = [`${verdict.sentence}${policy}`, verdict.reason ?? offReason(en)];
  // The undeployed file is the headline already: it is not listed again as a setting the controller does not read.
  const ignored = en.evidence.filter((e) => e.effect === 'ignored' && !e.unread && !e.undeployed);
  if (en.state === 'not-found' && ignored.length)
    parts.push(
      `Settings the controller does not read: ${names(
        ignored.map((e) => e.description),
        2,
      )}.`,
    );
  const deletion = deletionOrderWhileOff(ctx, getStrategy(ctx));
  if (deletion) parts.push(deletion);
  for (const note of en.notes ?? []) parts.push(`Note: ${note}.`);
  const here = { file: ctx.file.path ?? ctx.file.uri, span: strategyKey };
  const related = evidenceRelated(en);
  if (en.searched.length)
    related.push({
      location: here,
      message: `searched for ${shownInstanceName(en.instance?.name) ? `Argo CD ${en.instance!.name}` : 'this ApplicationSet'}: ${en.searched.join('; ')}`,
    });
  const code = en.state === 'disabled' ? 'rollout/progressive-syncs-disabled' : 'rollout/progressive-syncs-not-found';
  return finding(code, parts.join(' '), strategyKey, { related, data: { state: en.state, instance: en.instance?.name } });
}

function isAutomated(spec: unknown): boolean {
  const policy = isObj(spec) ? spec.syncPolicy : undefined;
  return isObj(policy) && policy.automated !== undefined && policy.automated !== null;
}

/**
 * Whether the Applications would carry an automated syncPolicy, read from the ApplicationSet's template
 * and its generators' own templates (merged over it, generator_spec_processor.go); undefined when a
 * templatePatch may write one (known only once rendered).
 */
function templateAutomated(value: Record<string, unknown>): boolean | undefined {
  const spec = isObj(value.spec) ? value.spec : {};
  const templates = [spec.template];
  for (const g of Array.isArray(spec.generators) ? spec.generators : [])
    if (isObj(g)) for (const k of Object.keys(g)) if (isObj(g[k]) && isObj(g[k].template)) templates.push(g[k].template);
  if (templates.some((t) => isObj(t) && isAutomated(t.spec))) return true;
  if (typeof spec.templatePatch === 'string' && /\bautomated\b/.test(spec.templatePatch)) return undefined;
  return false;
}

const PROGRESSIVE = /[pP][rR][oO][gG][rR][eE][sS][sS][iI][vV][eE]/;

/** Warnings in Argo CD configuration files: settings that look like they enable progressive syncs but do not. */
export function ignoredSettingDiagnostics(file: FileContext): EngineDiagnostic[] {
  // Every ignored setting names progressive syncs (or rollouts) in this file: a file that does not
  // mention them has none, and most files do not (no workspace scan for them).
  // (`/progressive/i` without the flag: the same matches, ASCII case only, in half the time on a long text.)
  if (!PROGRESSIVE.test(file.text)) return [];
  // Spans come from the workspace index: only trust them when it holds this very text.
  if (!file.path || file.workspace.file(file.path)?.text !== file.text) return [];
  const en = getEnablement(file);
  return en.evidence
    .filter((e) => e.effect === 'ignored' && e.file === file.path && e.span)
    .map((e) => finding('rollout/ignored-setting', `${e.description}.`, e.span!));
}
