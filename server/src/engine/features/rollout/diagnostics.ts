/**
 * Rollout diagnostics for one ApplicationSet: is the strategy going to be honoured, what does it
 * select, and which settings defeat it (Argo CD `applicationset/progressivesync/`).
 */
import type { AppSetContext, FileContext } from '../context';
import type { EngineDiagnostic, Json, RelatedInfo, Span } from '../../types';
import { nodeAt, spanAt, type JsonPath } from '../../yaml';
import { getEnablement, type EnablementDetails } from '../../rollout/enablement';
import { clusterLabelKeys, clusterLabels, labelValues } from '../../rollout/labels';
import type { GeneratedApp } from '../../expand/types';
import { names, offReason, offSentence, shownInstanceName, windowText } from '../../rollout/describe';
import { appsetNamespace, enablementFor, getRolloutPlan, getStrategy } from './plan';
import { resolveMaxUpdate } from '../../rollout/plan';
import { isRollingSync, rollingSyncWithSteps } from '../../rollout/spec';
import type { PlanStep, RolloutPlan } from '../../../protocol';
import { GATES, has as hasBehaviour, sinceLabel } from '../../versions/gates';
import { label } from '../../versions/releases';
import { knownTo } from '../../versions/fields';
import { targetRelated, type TargetVersion } from '../../install/target';
import { severityOf } from '../../diagnostics/codes';
import { own } from '../../objects';
import { applicationsSyncPolicy } from '../policy/syncPolicy';
import { windowMissDiagnostics } from './windowMissDiagnostics';

const MAX_NAMES = 5;

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

export function getJson(root: Json, path: JsonPath): Json | undefined {
  let v: Json | undefined = root;
  for (const seg of path) {
    if (Array.isArray(v) && typeof seg === 'number') v = v[seg];
    else v = own(v, String(seg));
    if (v === undefined) return undefined;
  }
  return v;
}

/** What `steps: []` does depends on the release (argo-cd PR #27820, master). */
function noStepsMessage(target: TargetVersion): string {
  return hasBehaviour(target, 'noStepsHalts')
    ? `RollingSync without steps: ${label(target.line)} reports "No steps defined for rollout" and stops creating, updating and deleting this ApplicationSet's Applications (checked against ${target.why}).`
    : `RollingSync without steps: ${label(target.line)} syncs every Application at once (checked against ${target.why}); from ${sinceLabel(GATES.noStepsHalts.since)} on, it stops reconciling this ApplicationSet with "No steps defined for rollout".`;
}

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
  const out: EngineDiagnostic[] = [];
  const doc = ctx.doc.doc;
  const strategy = getStrategy(ctx);
  const exp = ctx.expansion();
  const plan = getRolloutPlan(ctx);
  const n = validApps(plan, ctx);
  const strategyKey = spanAt(doc, ['spec', 'strategy'], 'key');
  // Only a RollingSync strategy needs to know whether progressive syncs are on (a workspace scan).
  const en = isRollingSync(strategy) ? enablementFor(ctx) : undefined;

  if (en && en.state !== 'enabled') {
    // The controller then writes the template's own syncPolicy: say which one it is (automated or none).
    const automated = exp.apps.some((a) => {
      const policy = (a.app.spec as { syncPolicy?: { automated?: unknown } } | undefined)?.syncPolicy;
      return !!policy && typeof policy === 'object' && policy.automated !== undefined && policy.automated !== null;
    });
    const policy = automated
      ? ", with the template's own automated syncPolicy."
      : '; the template has no automated syncPolicy, so each syncs when someone syncs it.';
    const head = offSentence(en, exp.apps.length ? n : 0);
    const parts = [`${head}${policy}`, offReason(en)];
    const ignored = en.evidence.filter((e) => e.effect === 'ignored' && !(e as { unread?: true }).unread);
    if (en.state === 'not-found' && ignored.length)
      parts.push(
        `Settings the controller does not read: ${names(
          ignored.map((e) => e.description),
          2,
        )}.`,
      );
    for (const note of en.notes ?? []) parts.push(`Note: ${note}.`);
    const here = { file: ctx.file.path ?? ctx.file.uri, span: strategyKey };
    const related = evidenceRelated(en);
    if (en.searched.length)
      related.push({
        location: here,
        message: `searched for ${shownInstanceName(en.instance?.name) ? `Argo CD ${en.instance!.name}` : 'this ApplicationSet'}: ${en.searched.join('; ')}`,
      });
    const code = en.state === 'disabled' ? 'rollout/progressive-syncs-disabled' : 'rollout/progressive-syncs-not-found';
    out.push({
      code,
      severity: severityOf(code),
      message: parts.join(' '),
      span: strategyKey,
      related,
      data: { state: en.state, instance: en.instance?.name },
    });
  }

  if (!rollingSyncWithSteps(strategy)) {
    if (strategy.type === 'RollingSync' && strategy.hasRollingSync) {
      out.push({
        code: 'rollout/no-steps',
        severity: severityOf('rollout/no-steps'),
        message: noStepsMessage(ctx.target()),
        related: targetRelated(ctx.target()),
        span: spanAt(doc, ['spec', 'strategy', 'rollingSync', 'steps'], 'key'),
      });
    }
    // A release older than the field never sees it (reported as a field it does not know).
    if (/^reverse$/i.test(strategy.deletionOrder) && knownTo(['strategy', 'deletionOrder'], ctx.target().line)) {
      out.push({
        code: 'rollout/deletion-order-ignored',
        severity: severityOf('rollout/deletion-order-ignored'),
        message:
          'deletionOrder: Reverse only takes effect with a RollingSync strategy that has steps; these Applications are deleted all at once.',
        span: spanAt(doc, ['spec', 'strategy', 'deletionOrder']),
      });
    }
    const threshold = ctx.file.settings.blastRadiusThreshold;
    if (!isRollingSync(strategy) && n >= threshold && exp.clusters.length >= 2 && !exp.capped) {
      const prod = productionLooking(exp.apps);
      out.push({
        code: 'rollout/blast-radius',
        severity: severityOf('rollout/blast-radius', !!prod),
        message: `AllAtOnce: one commit syncs ${plural(n, 'Application')} on ${exp.clusters.length} ${prod ? 'production ' : ''}clusters at the same time${prod ? ` (${prod})` : ''}. A RollingSync strategy rolls it out step by step (quick fix available).`,
        span: spanAt(doc, ['spec', 'generators'], 'key'),
        data: { apps: n, clusters: exp.clusters.length, production: !!prod },
      });
    }
    return out;
  }

  // RollingSync with steps: what the controller does with it.
  const automatedPath = ['spec', 'template', 'spec', 'syncPolicy', 'automated'];
  if (getJson(ctx.doc.value, automatedPath) !== undefined && getJson(ctx.doc.value, automatedPath) !== null) {
    out.push({
      code: 'rollout/automated-disabled',
      severity: severityOf('rollout/automated-disabled'),
      message: plan.effective
        ? 'Under RollingSync the controller writes automated.enabled: false on every generated Application (the preview shows it): syncs happen only when the rollout reaches their step (automated.prune still decides whether those syncs prune). Applications selected by no step never sync on their own.'
        : 'Once progressive syncs are on, the controller writes automated.enabled: false on every generated Application and syncs them step by step; today they are off, so auto-sync stays on and every Application syncs on its own.',
      span: spanAt(doc, automatedPath, 'key'),
    });
  }
  // The policy the controller applies (the ApplicationSet's own, or the install's --policy when the
  // override is off: features/policy/syncPolicy.ts), so `appset diff` and this finding agree.
  const own = getJson(ctx.doc.value, ['spec', 'syncPolicy', 'applicationsSync']);
  const applied = applicationsSyncPolicy(ctx);
  if (applied.policy === 'create-only' || applied.policy === 'create-delete') {
    const fromOwn = own === applied.policy;
    out.push({
      code: 'rollout/sync-policy-blocks-rollout',
      severity: severityOf('rollout/sync-policy-blocks-rollout'),
      message: `${fromOwn ? `applicationsSync: ${applied.policy}` : `${applied.why}: ${applied.policy}`} never updates existing Applications, and RollingSync starts syncs by updating them: the rollout can never sync anything after the first creation. Use create-update or sync.`,
      span: fromOwn ? spanAt(doc, ['spec', 'syncPolicy', 'applicationsSync']) : spanAt(doc, ['spec', 'strategy'], 'key'),
    });
  }

  // Every step a manual gate (maxUpdate 0 or "0%"): RollingSync turns auto-sync off on every
  // Application and then syncs none of them (applicationset/progressivesync/progressive_sync.go:
  // the "at least 1" rounding spares only "0%"). One warning for the strategy, not a note per step.
  const allManual = strategy.steps.every(
    (st) => resolveMaxUpdate(st.maxUpdate, 100).value !== null && resolveMaxUpdate(st.maxUpdate, 100).value! <= 0,
  );
  if (allManual)
    out.push({
      code: 'rollout/manual-step',
      severity: severityOf('rollout/manual-step', true),
      message: `every step has maxUpdate ${strategy.steps.length === 1 ? JSON.stringify(strategy.steps[0].maxUpdate) : '0'}: RollingSync turns auto-sync off on every Application and then syncs none of them, so ${plan.effective ? 'nothing is deployed' : 'once progressive syncs are on, nothing is deployed'} unless someone syncs each Application by hand. Give the first step a maxUpdate above 0 (e.g. 1 or 25%) to make it a rollout.`,
      span: spanAt(doc, ['spec', 'strategy', 'rollingSync', 'steps'], 'key'),
    });

  // Argo CD 3.2: reverse deletion runs only while the ApplicationSet's resources finalizer holds its
  // deletion; 3.3 adds the finalizer itself (PR #25125, applicationset_controller.go Reconcile).
  const target = ctx.target();
  // With progressive syncs off the whole strategy is ignored (said above), deletion order included.
  if (
    en?.state === 'enabled' &&
    /^reverse$/i.test(strategy.deletionOrder) &&
    knownTo(['strategy', 'deletionOrder'], target.line) &&
    !hasBehaviour(target, 'deletionOrderFinalizerAdded') &&
    !hasResourcesFinalizer(ctx.doc.value)
  ) {
    out.push({
      code: 'rollout/deletion-order-finalizer',
      severity: severityOf('rollout/deletion-order-finalizer'),
      message: `Deleting this ApplicationSet deletes all its Applications at once, not in reverse step order: ${label(target.line)} deletes in reverse only when the ApplicationSet has the ${RESOURCES_FINALIZER} finalizer, and metadata.finalizers lacks it (from ${sinceLabel(GATES.deletionOrderFinalizerAdded.since)} on the controller adds it itself). Checked against ${target.why}.`,
      related: targetRelated(target),
      span: spanAt(doc, ['spec', 'strategy', 'deletionOrder']),
    });
  }

  // Plan-based findings need generated Applications; an empty or capped preview would only mislead.
  if (!exp.apps.length || exp.capped) return out;
  if (plan.steps.length) out.push(...windowMissDiagnostics(ctx, appsetNamespace(ctx)));
  const maxWave = ctx.file.settings.maxWaveSize ?? 10;
  for (const step of plan.steps) {
    const big = step.waves.find((w) => w.apps.length > maxWave);
    if (!big) continue;
    const spec = strategy.steps[step.step - 1];
    const mu = spanAt(doc, [...spec.path, 'maxUpdate']);
    out.push({
      code: 'rollout/large-wave',
      severity: severityOf('rollout/large-wave'),
      message: `Step ${step.step} syncs ${big.apps.length} Applications at once (more than maxWaveSize, ${maxWave}): a bad change reaches all ${big.apps.length} before any of them can fail. maxUpdate: ${maxWave} keeps each wave at ${maxWave}.`,
      span: spec.maxUpdate !== undefined ? mu : stepKeySpan(ctx, spec.path),
      data: { step: step.step, size: big.apps.length, threshold: maxWave },
    });
  }
  const clusterKeys = clusterLabelKeys(exp.apps);
  for (const step of plan.steps) {
    const spec = strategy.steps[step.step - 1];
    const stepSpan = stepKeySpan(ctx, spec.path);
    if (!step.apps.length) {
      const why = emptyStepReason(ctx, spec.matchExpressions, clusterKeys);
      out.push({
        code: 'rollout/empty-step',
        severity: severityOf('rollout/empty-step'),
        message: `Step ${step.step} (${step.selector}) selects none of the ${plural(plan.totalApps, 'generated Application')}${why.text ? `: ${why.text}` : ''}. An empty step is skipped.`,
        span: stepSpan,
        data: why.clusterLabel ? { clusterLabel: why.clusterLabel, step: step.step } : { step: step.step },
      });
    }
    if (step.manual && !allManual) {
      out.push({
        code: 'rollout/manual-step',
        severity: severityOf('rollout/manual-step'),
        message: `maxUpdate ${JSON.stringify(step.maxUpdate)}: the controller never syncs step ${step.step}'s ${plural(step.apps.length, 'Application')}; sync them by hand (CLI or UI), and the rollout continues once all are Healthy.`,
        span: spanAt(doc, [...spec.path, 'maxUpdate']),
      });
    }
    if (step.syncWindows?.length) out.push(syncWindowDiagnostic(plan, step, stepSpan));
    if (step.blockedBy?.length) {
      out.push({
        code: 'rollout/blocked-step',
        severity: severityOf('rollout/blocked-step'),
        message: `Step ${step.step} contains ${plural(step.blockedBy.length, 'Application')} the controller refuses to create (${names(step.blockedBy)}): the step can never complete, so later steps never sync.`,
        span: stepSpan,
      });
    }
  }
  const dups = Object.keys(plan.duplicates);
  if (dups.length) {
    const detail = dups
      .slice(0, MAX_NAMES)
      .map((d) => `${d} (${plan.duplicates[d].join('-')})`)
      .join(', ');
    const firstLater = Math.min(...dups.map((d) => plan.duplicates[d][1]));
    out.push({
      code: 'rollout/duplicate-selection',
      severity: severityOf('rollout/duplicate-selection'),
      message: `${plural(dups.length, 'Application is', 'Applications are')} selected by several steps: ${detail}${dups.length > MAX_NAMES ? ` and ${dups.length - MAX_NAMES} more` : ''}. Each syncs in its first step; later steps wait for it again. Make the steps' selectors exclusive.`,
      span: stepKeySpan(ctx, strategy.steps[firstLater - 1].path),
      data: { duplicates: dups.length },
    });
  }
  if (plan.unselected.length) {
    out.push({
      code: 'rollout/unselected-apps',
      severity: severityOf('rollout/unselected-apps'),
      message: `${plural(plan.unselected.length, 'Application')} ${plan.unselected.length === 1 ? 'is' : 'are'} selected by no step (${names(plan.unselected)}): ${plan.unselected.length === 1 ? 'it never syncs' : 'they never sync'} — the rollout skips ${plan.unselected.length === 1 ? 'it' : 'them'}, auto-sync is turned off, and the status records step -1 (Argo CD's UI: "Step: unmatched label"). They also count toward step 1's maxUpdate percentage. Add a step that selects them.`,
      span: spanAt(doc, ['spec', 'strategy', 'rollingSync', 'steps'], 'key'),
      data: { unselected: plan.unselected.length },
    });
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
  return {
    code: 'rollout/sync-window',
    severity: severityOf('rollout/sync-window'),
    message: text,
    span,
    related: wins.map((w) => ({
      location: { file: w.file, span: w.span },
      message: `${w.problem ? `unreadable sync window (${w.problem})` : windowText(w)} of AppProject ${w.project}: holds ${names(w.apps)}`,
    })),
    data: { step: step.step, windows: wins.length, apps: held.size },
  };
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

/** The `- matchExpressions` start of a step (its first key), or the step node. */
export function stepKeySpan(ctx: AppSetContext, stepPath: JsonPath) {
  const n = nodeAt(ctx.doc.doc, stepPath);
  const first = nodeAt(ctx.doc.doc, [...stepPath, 'matchExpressions']);
  if (first.exact && first.key) return first.key;
  return n.value ?? spanAt(ctx.doc.doc, stepPath);
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

/** Warnings in Argo CD configuration files: settings that look like they enable progressive syncs but do not. */
export function ignoredSettingDiagnostics(file: FileContext): EngineDiagnostic[] {
  // Every ignored setting names progressive syncs (or rollouts) in this file: a file that does not
  // mention them has none, and most files do not (no workspace scan for them).
  if (!/progressive/i.test(file.text)) return [];
  // Spans come from the workspace index: only trust them when it holds this very text.
  if (!file.path || file.workspace.file(file.path)?.text !== file.text) return [];
  const en = getEnablement(file);
  return en.evidence
    .filter((e) => e.effect === 'ignored' && e.file === file.path && e.span)
    .map((e) => ({
      code: 'rollout/ignored-setting',
      severity: severityOf('rollout/ignored-setting'),
      message: `${e.description}.`,
      span: e.span!,
    }));
}

const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

function hasResourcesFinalizer(value: unknown): boolean {
  const f = getJson(value as Json, ['metadata', 'finalizers']);
  return Array.isArray(f) && f.some((x) => typeof x === 'string' && x.startsWith(RESOURCES_FINALIZER));
}
