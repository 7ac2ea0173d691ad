/**
 * Rollout findings on the plan of a RollingSync with steps: waves larger than the setting, steps that
 * select nothing, manual gates, sync windows that park a step, Applications the controller refuses,
 * Applications several steps or no step select. Each sits on the step it is about (the step's place
 * in the strategy's located fields).
 */
import type { AppSetContext } from '../context';
import type { EngineDiagnostic, Span } from '../../types';
import { clusterLabelKeys, labelValues } from '../../rollout/labels';
import { names, windowText } from '../../rollout/describe';
import { appsetNamespace } from './plan';
import type { StrategyFields } from '../../rollout/spec';
import { stepKeySpan } from '../../fields/strategy';
import type { PlanStep, RolloutPlan } from '@appset-tools/protocol';
import { finding } from '../../diagnostics/codes';
import { windowMissDiagnostics } from './windowMissDiagnostics';

const MAX_NAMES = 5;

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** `allManual`: every step is a manual gate, said once for the strategy (strategyFindings.ts), not per step. */
export function planFindings(ctx: AppSetContext, strategy: StrategyFields, plan: RolloutPlan, allManual: boolean): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  if (plan.steps.length) out.push(...windowMissDiagnostics(ctx, appsetNamespace(ctx)));
  out.push(...largeWaves(ctx, strategy, plan));
  const clusterKeys = clusterLabelKeys(ctx.expansion().apps);
  for (const step of plan.steps) {
    const spec = strategy.steps[step.step - 1];
    const stepSpan = stepKeySpan(spec);
    if (!step.apps.length) {
      const why = emptyStepReason(ctx, spec.matchExpressions, clusterKeys);
      out.push(
        finding(
          'rollout/empty-step',
          `Step ${step.step} (${step.selector}) selects none of the ${plural(plan.totalApps, 'generated Application')}${why.text ? `: ${why.text}` : ''}. An empty step is skipped.`,
          stepSpan,
          { data: why.clusterLabel ? { clusterLabel: why.clusterLabel, step: step.step } : { step: step.step } },
        ),
      );
    }
    if (step.manual && !allManual) {
      out.push(
        finding(
          'rollout/manual-step',
          `maxUpdate ${JSON.stringify(step.maxUpdate)}: the controller never syncs step ${step.step}'s ${plural(step.apps.length, 'Application')}; sync them by hand (CLI or UI), and the rollout continues once all are Healthy.`,
          spec.at.maxUpdate,
        ),
      );
    }
    if (step.syncWindows?.length) out.push(syncWindowDiagnostic(plan, step, stepSpan));
    if (step.blockedBy?.length) {
      out.push(
        finding(
          'rollout/blocked-step',
          `Step ${step.step} contains ${plural(step.blockedBy.length, 'Application')} the controller refuses to create (${names(step.blockedBy)}): the step can never complete, so later steps never sync.`,
          stepSpan,
        ),
      );
    }
  }
  out.push(...selectionFindings(strategy, plan));
  return out;
}

/** Steps whose waves sync more Applications at once than `maxWaveSize`: on the step's maxUpdate. */
function largeWaves(ctx: AppSetContext, strategy: StrategyFields, plan: RolloutPlan): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const maxWave = ctx.file.settings.maxWaveSize ?? 10;
  for (const step of plan.steps) {
    const big = step.waves.find((w) => w.apps.length > maxWave);
    if (!big) continue;
    const spec = strategy.steps[step.step - 1];
    out.push(
      finding(
        'rollout/large-wave',
        `Step ${step.step} syncs ${big.apps.length} Applications at once (more than maxWaveSize, ${maxWave}): a bad change reaches all ${big.apps.length} before any of them can fail. maxUpdate: ${maxWave} keeps each wave at ${maxWave}.`,
        spec.maxUpdate !== undefined ? spec.at.maxUpdate.span : stepKeySpan(spec),
        { data: { step: step.step, size: big.apps.length, threshold: maxWave } },
      ),
    );
  }
  return out;
}

/** Applications several steps select (on the first later step), and those no step selects (on `steps:`). */
function selectionFindings(strategy: StrategyFields, plan: RolloutPlan): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const dups = Object.keys(plan.duplicates);
  if (dups.length) {
    const detail = dups
      .slice(0, MAX_NAMES)
      .map((d) => `${d} (${plan.duplicates[d].join('-')})`)
      .join(', ');
    const firstLater = Math.min(...dups.map((d) => plan.duplicates[d][1]));
    out.push(
      finding(
        'rollout/duplicate-selection',
        `${plural(dups.length, 'Application is', 'Applications are')} selected by several steps: ${detail}${dups.length > MAX_NAMES ? ` and ${dups.length - MAX_NAMES} more` : ''}. Each syncs in its first step; later steps wait for it again. Make the steps' selectors exclusive.`,
        stepKeySpan(strategy.steps[firstLater - 1]),
        { data: { duplicates: dups.length } },
      ),
    );
  }
  if (plan.unselected.length) {
    out.push(
      finding(
        'rollout/unselected-apps',
        `${plural(plan.unselected.length, 'Application')} ${plan.unselected.length === 1 ? 'is' : 'are'} selected by no step (${names(plan.unselected)}): ${plan.unselected.length === 1 ? 'it never syncs' : 'they never sync'} — the rollout skips ${plan.unselected.length === 1 ? 'it' : 'them'}, auto-sync is turned off, and the status records step -1 (Argo CD's UI: "Step: unmatched label"). They also count toward step 1's maxUpdate percentage. Add a step that selects them.`,
        strategy.at.steps.keySpan,
        { data: { unselected: plan.unselected.length } },
      ),
    );
  }
  return out;
}

/** One finding per step: the windows that can park its syncs, consequence first (see rollout/syncWindows.ts). */
function syncWindowDiagnostic(plan: RolloutPlan, step: PlanStep, span: Span): EngineDiagnostic {
  const wins = step.syncWindows!;
  const own = step.apps.length - (step.syncedEarlier?.length ?? 0);
  const held = new Set(wins.flatMap((w) => w.apps));
  const later = plan.steps.length - step.step;
  const laterText = later <= 0 ? '' : later === 1 ? `step ${step.step + 1}` : `steps ${step.step + 1}–${plan.steps.length}`;
  const first = wins.find((w) => w.problem) ?? wins[0];
  const more = wins.length > 1 ? ` (and ${plural(wins.length - 1, 'more window')})` : '';
  const who = `${held.size} of its ${plural(own, 'Application')} (${names([...held])})`;
  // When the strategy is ignored today the windows only delay auto-sync; the stall comes once it runs.
  const pre = plan.effective ? '' : 'Once progressive syncs are on, s';
  let text: string;
  if (first.problem) {
    text = `${pre || 'S'}tep ${step.step} never completes: the controller cannot read the sync window of AppProject ${first.project} at ${first.where} (${first.problem}), so it blocks every sync of ${who} ("invalid sync windows")${laterText ? ` and ${laterText} never run` : ''}.`;
  } else {
    const when = first.kind === 'deny' ? 'while it is active' : 'outside it';
    const slots =
      step.concurrency === null
        ? 'each parked one stays Progressing, so the step cannot complete'
        : held.size >= step.concurrency
          ? `they can take all ${step.concurrency} of the step's maxUpdate slots, so nothing else in the step syncs`
          : `each parked one holds one of the step's ${step.concurrency} maxUpdate slots`;
    text = `${pre || 'S'}tep ${step.step} can stall in a sync window: AppProject ${first.project}'s ${windowText(first)}${more} (${first.where}) keeps ${who} from syncing ${when}. The rollout still starts their syncs and the controller parks them ("Sync operation blocked by sync window"); ${slots} until the window lets them run${laterText ? `, and ${laterText} ${later === 1 ? 'waits' : 'wait'}` : ''}.${wins.some((w) => w.manualSync) ? " manualSync does not help: the rollout's syncs count as automated." : ''}`;
  }
  return finding('rollout/sync-window', text, span, {
    related: wins.map((w) => ({
      location: { file: w.file, span: w.span },
      message: `${w.problem ? `unreadable sync window (${w.problem})` : windowText(w)} of AppProject ${w.project}: holds ${names(w.apps)}`,
    })),
    data: { step: step.step, windows: wins.length, apps: held.size },
  });
}

function emptyStepReason(
  ctx: AppSetContext,
  exprs: { key: string; operator: string; values: string[] }[],
  clusterKeys: Set<string>,
): { text?: string; clusterLabel?: string } {
  const apps = ctx.expansion().apps;
  for (const e of exprs) {
    if (e.operator !== 'In') continue;
    const { values, missing } = labelValues(apps, e.key, 'app');
    if (missing === apps.length) {
      if (clusterKeys.has(e.key)) {
        return {
          text: `"${e.key}" is a cluster label, but steps match Application labels and template.metadata.labels has no "${e.key}" (copy it into the template)`,
          clusterLabel: e.key,
        };
      }
      return { text: `no Application has the label "${e.key}" (steps match template.metadata.labels)` };
    }
    if (!e.values.some((v) => values.includes(v))) {
      return { text: `no Application has ${e.key} in (${e.values.join(', ')}); the values present are ${names(values.sort())}` };
    }
  }
  return {};
}
