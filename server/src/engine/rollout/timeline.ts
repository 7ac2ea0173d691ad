/**
 * The rollout timeline: from the plan and an assumed time per sync, the order the controller syncs in
 * and about how long it takes, and where it stops — a manual gate (`maxUpdate: 0` / `"0%"`), an
 * AppProject sync window that can park a step, an invalid Application that keeps a step from ever
 * completing. One computation; `appset plan`, the rollout view and `appset diff` print it.
 *
 * What the controller does (argo-cd `applicationset/progressivesync/progressive_sync.go`): a step
 * starts when every Application of the steps before it is Healthy; within a step, at most `maxUpdate`
 * Applications are Pending or Progressing at a time, and the next one starts when one of them turns
 * Healthy. So when every sync takes the same time, a step takes its number of waves times that time.
 * Nothing here knows how long a sync really takes: `minutesPerSync` is an assumption, said as such.
 */
import type { PlanStep, RolloutPlan, RolloutTimeline, TimelineStep, TimelineStop } from '@appset-tools/protocol';

export type { RolloutTimeline, TimelineStep, TimelineStop };
import { durationMs } from './syncWindows';
import { REFRESH_GATE } from './describe';

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** `about 4 h 45 min` (the same words the proposed strategies use). */
export function minutesText(total: number): string {
  const h = Math.floor(total / 60);
  const m = Math.round(total % 60);
  return `about ${h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`}`;
}

function windowStops(s: PlanStep): TimelineStop[] {
  return (s.syncWindows ?? []).map((w) => {
    const who = `${plural(w.apps.length, 'Application')} of step ${s.step}`;
    const base = { step: s.step, kind: 'sync-window' as const, where: w.where };
    if (w.problem)
      return {
        ...base,
        forever: true,
        text: `stops for good: AppProject ${w.project}'s window cannot be parsed by the controller (${w.problem}), so it blocks every sync of ${who}`,
      };
    const ms = durationMs(w.duration);
    const manual = w.manualSync ? " (its manualSync does not help: the rollout's syncs are automated)" : '';
    if (w.kind === 'deny')
      return {
        ...base,
        ...(Number.isFinite(ms) && ms > 0 ? { maxMinutes: Math.ceil(ms / 60_000) } : {}),
        text: `can wait up to ${w.duration} if AppProject ${w.project}'s deny window "${w.schedule}" is active when step ${s.step} starts: it parks ${who}${manual}`,
      };
    return {
      ...base,
      text: `can wait until one of AppProject ${w.project}'s allow windows opens ("${w.schedule}" for ${w.duration}): outside them it parks ${who}${manual}`,
    };
  });
}

/**
 * `refreshGate`: the target has Argo CD 3.6's refresh gate (PR #27467): once per change to existing
 * Applications, before the rollout progresses, at least the grace period (a minimum, 30 s by default) and
 * then no upper bound until every Application has reconciled. The clock starts when it opens.
 */
export function rolloutTimeline(plan: RolloutPlan, minutesPerSync: number, refreshGate = false): RolloutTimeline {
  const t = Math.max(1, minutesPerSync);
  const assumptions = [
    `every sync takes ${t} min (the minutesPerSync setting; measure yours)`,
    'an Application counts as done when it is Healthy: the time includes waiting for health',
    'no sync fails and nobody intervenes (a failed or degraded Application holds its step)',
  ];
  const rolling = plan.strategy === 'RollingSync' && !!plan.effective;
  if (!rolling) {
    const apps = plan.totalApps;
    const mode = plan.strategy === 'RollingSync' ? 'ignored' : 'all-at-once';
    const minutes = apps ? t : 0;
    return {
      minutesPerSync: t,
      mode,
      steps: [],
      waves: apps ? 1 : 0,
      minutes,
      stops: [],
      ends: 'completes',
      neverSynced: 0,
      summary: `${apps ? `all ${plural(apps, 'Application')} at once, ${minutesText(minutes)}` : 'nothing to sync'} at ${t} min a sync${mode === 'ignored' ? (plan.verdict?.kind === 'not-deployed' ? ' (not deployed yet: until then the strategy is ignored)' : ' (the strategy is ignored)') : ''}`,
      assumptions: [
        ...assumptions,
        'each Application syncs by its own syncPolicy (automated) or when someone syncs it; sync windows are not applied',
      ],
    };
  }
  if (refreshGate) assumptions.push('the clock starts when the refresh gate opens (on a change: at least 30 s after it, no upper bound)');
  const steps: TimelineStep[] = [];
  const stops: TimelineStop[] = [];
  let clock = 0;
  let forever = false;
  for (const s of plan.steps) {
    const own = s.apps.filter((a) => !s.syncedEarlier?.includes(a));
    const stepStops: TimelineStop[] = [];
    if (s.blockedBy?.length)
      stepStops.push({
        step: s.step,
        kind: 'blocked',
        forever: true,
        text: `stops for good: ${plural(s.blockedBy.length, 'invalid Application')} (${s.blockedBy.slice(0, 3).join(', ')}${s.blockedBy.length > 3 ? ', …' : ''}) ${s.blockedBy.length === 1 ? 'is' : 'are'} never created, so step ${s.step} never completes`,
      });
    if (s.manual && own.length)
      stepStops.push({
        step: s.step,
        kind: 'manual-gate',
        text: `waits for someone to sync its ${plural(own.length, 'Application')} by hand (maxUpdate ${String(s.maxUpdate)}: a manual gate)${s.step < plan.steps.length ? '; the next step starts when they are Healthy' : ''}`,
      });
    if (own.length && !s.manual) stepStops.push(...windowStops(s));
    const waves = s.manual ? 0 : s.waves.length;
    const minutes = waves * t;
    const takes = waves ? `${plural(waves, 'wave')}, ${minutesText(minutes)}` : own.length ? 'synced by hand' : 'selects nothing, skipped';
    steps.push({
      step: s.step,
      selector: s.selector,
      apps: own.length,
      waves,
      start: clock,
      minutes,
      stops: stepStops,
      at: clockText(clock),
      takes,
    });
    stops.push(...stepStops);
    clock += minutes;
    if (stepStops.some((x) => x.forever)) {
      forever = true;
      break;
    }
  }
  const waves = steps.reduce((n, s) => n + s.waves, 0);
  const ends = forever ? 'never-completes' : stops.length ? 'can-stop' : 'completes';
  const first = stops[0];
  const where = first
    ? `; ${first.forever ? 'never completes' : 'can stop'} at step ${first.step} (${first.kind === 'manual-gate' ? 'manual gate' : first.kind === 'blocked' ? 'invalid Application' : 'sync window'})${stops.length > 1 ? ` and ${plural(stops.length - 1, 'more stop')}` : ''}`
    : '';
  const never = plan.unselected.length;
  return {
    minutesPerSync: t,
    mode: 'rolling',
    steps,
    waves,
    minutes: clock,
    stops,
    ends,
    neverSynced: never,
    summary: `${plural(waves, 'wave')}, ${minutesText(clock)} of syncing at ${t} min a sync${where}${never ? `; ${plural(never, 'Application')} never synced (no step selects ${never === 1 ? 'it' : 'them'})` : ''}`,
    assumptions,
    ...(refreshGate ? { refreshGate: { minSeconds: REFRESH_GRACE_SECONDS, text: REFRESH_GATE } } : {}),
  };
}

/** `--refresh-grace-period-seconds`'s default (argo-cd `cmd/argocd-applicationset-controller`, PR #27467): a minimum. */
const REFRESH_GRACE_SECONDS = 30;

/** The timeline as text lines (`appset plan`, the diff's text and markdown put them under the plan). */
export function timelineLines(tl: RolloutTimeline): string[] {
  const out = [`timeline: ${tl.summary}`];
  if (tl.refreshGate && tl.steps.length) out.push(`  before step 1, the refresh gate: ${tl.refreshGate.text}`);
  for (const s of tl.steps) {
    out.push(`  ${s.at} step ${s.step}: ${s.apps ? `${plural(s.apps, 'Application')}, ` : ''}${s.takes}`);
    for (const x of s.stops) out.push(`    stop: ${x.text}${x.where ? ` (${x.where})` : ''}`);
  }
  if (tl.steps.length && tl.ends !== 'never-completes')
    out.push(`  ${clockText(tl.minutes)} done${tl.stops.length ? ', plus the time spent at the stops' : ''}`);
  out.push(`  assumes: ${tl.assumptions.join('; ')}`);
  return out;
}

/** `+0:00`, `+1:45` (hours:minutes after the rollout starts). */
export function clockText(minutes: number): string {
  return `+${Math.floor(minutes / 60)}:${String(Math.round(minutes % 60)).padStart(2, '0')}`;
}

/**
 * The timeline as markdown lines (`appset plan --output markdown`): the summary, a table of steps with
 * when each starts and how long it syncs, the stops, and what it assumes. `esc` makes user text safe.
 */
export function timelineMarkdown(tl: RolloutTimeline, esc: (s: string) => string = (s) => s): string[] {
  const out = [`**Timeline:** ${esc(tl.summary)}.`];
  if (tl.refreshGate && tl.steps.length) out.push('', `Before step 1, the refresh gate: ${esc(tl.refreshGate.text)}.`);
  if (tl.steps.length) {
    out.push('', '| step | selects | starts | syncs for | stops |', '| ---: | --- | ---: | ---: | --- |');
    for (const s of tl.steps)
      out.push(
        `| ${s.step} | ${esc(s.selector)} (${plural(s.apps, 'app')}) | ${s.at} | ${s.takes} | ${s.stops.map((x) => esc(x.text + (x.where ? ` (${x.where})` : ''))).join('<br>')} |`,
      );
  }
  out.push('', `<sub>Assumes ${esc(tl.assumptions.join('; '))}.</sub>`);
  return out;
}
