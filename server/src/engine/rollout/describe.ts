/**
 * Plain-words descriptions of a plan, shared by the code lenses, the hover and `appset plan`.
 */
import type { Enablement, PlanStep, PlanWindow, RolloutPlan, Verdict } from '@appset-tools/protocol';

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** Up to `max` names, then how many more: the one way findings list Applications. */
export function names(list: readonly string[], max = 5): string {
  const shown = list.slice(0, max).join(', ');
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

/**
 * An Argo CD install's name as shown: its workspace-relative folder, or nothing for the workspace root
 * (`.` says nothing to a reader; the reason shown beside it, "installed beside it in the workspace root", does).
 */
export function shownInstanceName(name: string | undefined): string | undefined {
  return name && name !== '.' ? name : undefined;
}

/** `maxUpdate 50% → 2 at a time, 2 waves` / `all at once, 1 wave` / `maxUpdate 0 → manual gate`. */
export function stepPace(s: PlanStep): string {
  const mu = s.maxUpdate === undefined ? '' : `maxUpdate ${s.maxUpdate}${s.maxUpdateError ? ' (invalid)' : ''} → `;
  if (s.manual) return `${mu}manual gate: sync by hand`;
  if (s.concurrency === null) return `${mu}all at once, ${plural(s.waves.length, 'wave')}`;
  return `${mu}${s.concurrency} at a time, ${plural(s.waves.length, 'wave')}`;
}

/** `Step 2 · tier In (low-traffic) · 3 apps · maxUpdate 50% → 2 at a time, 2 waves`. */
export function stepTitle(s: PlanStep): string {
  return `Step ${s.step} · ${s.selector} · ${plural(s.apps.length, 'app')} · ${stepPace(s)}`;
}

/**
 * A step's lens: what matters first and within 40 characters (the editor cuts lenses in a split view),
 * `Step 2 · 180 apps · 45 at a time, 4 waves`; the selector is the YAML right under it, and the whole
 * `stepTitle` is the lens's tooltip.
 */
export function stepLensTitle(s: PlanStep): string {
  const pace = s.manual
    ? 'manual gate: sync by hand'
    : `${s.concurrency === null ? 'all at once' : `${s.concurrency} at a time`}, ${plural(s.waves.length, 'wave')}`;
  return `Step ${s.step} · ${plural(s.apps.length, 'app')} · ${pace}`;
}

/**
 * `3 steps · 12 apps · 7 waves`, `3 steps · 12 apps · 2 unselected · 6 waves` (what the strategy would do).
 * Lenses are cut at about 40 characters in a split editor, and the enablement lens shares the line:
 * Applications no step selects never sync through the rollout, so a count of them comes before the waves,
 * and none is not said.
 */
export function planTitle(p: RolloutPlan): string {
  const parts = p.unselected.length
    ? [plural(p.steps.length, 'step'), plural(p.totalApps, 'app'), `${p.unselected.length} unselected`, plural(p.totalWaves, 'wave')]
    : [plural(p.steps.length, 'step'), plural(p.totalApps, 'app'), plural(p.totalWaves, 'wave')];
  const manual = p.steps.filter((s) => s.manual).length;
  if (manual) parts.push(plural(manual, 'manual gate'));
  return parts.join(' · ');
}

/**
 * The one verdict on a RollingSync strategy, for every front (issue 37: the rollout view said "Ignored" where
 * the lens said "Not deployed yet"): its kind, the status bar's word, the sentence, the reason and the lens.
 * `apps` is the number of Applications the controller creates.
 */
export function verdictOf(en: Enablement, apps: number): Verdict {
  const lens = enablementLensTitle(en, apps);
  if (en.state === 'enabled') return { kind: 'enabled', label: 'enabled', sentence: enabledSentence(en), lens };
  const kind = en.undeployed ? 'not-deployed' : en.unread?.length ? 'unknown' : 'ignored';
  const label = kind === 'not-deployed' ? 'not deployed yet' : kind === 'unknown' ? 'unknown' : 'off';
  return { kind, label, sentence: offSentence(en, apps), reason: offReason(en), lens };
}

/** The consequence when the controller ignores the strategy: `Ignored: progressive syncs are off, so all 24 Applications sync at once`. */
/**
 * The headline when configuration of the install was not read (a remote base, a skipped file, a bound):
 * what was not read and why, what the rest says, and what follows if the unread part says nothing.
 */
export function unknownSentence(apps: number, unread: readonly string[], partial?: Enablement['partial']): string {
  const all = apps === 1 ? 'the 1 Application syncs' : apps ? `all ${apps} Applications sync` : 'all its Applications sync';
  if (partial?.state === 'enabled')
    return `Unknown whether honoured: ${unread.join('; ')}; what was read enables progressive syncs${partial.where ? ` (${partial.where})` : ''}, unless what was not read turns them off`;
  const read =
    partial?.state === 'disabled'
      ? `what was read turns progressive syncs off${partial.where ? ` (${partial.where})` : ''}`
      : 'nothing read here enables progressive syncs';
  return `Unknown whether honoured: ${unread.join('; ')}, and ${read}; unless what was not read enables them, ${all} at once`;
}

/** The headline of a strategy that is not honoured, or whose fate depends on configuration not read. */
export function offSentence(en: Pick<Enablement, 'unread' | 'undeployed' | 'partial' | 'undecided'>, apps: number): string {
  if (en.undecided)
    return `Unknown whether honoured: ${en.undecided}; while progressive syncs are off, ${ignoredSentence(apps).replace(/^Ignored: progressive syncs are off, so /, '')}`;
  if (en.undeployed) return `Not deployed yet: ${en.undeployed}. Until then, ${ignoredSentence(apps).replace(/^Ignored: /, '')}`;
  return en.unread?.length ? unknownSentence(apps, en.unread, en.partial) : ignoredSentence(apps);
}

export function ignoredSentence(apps: number): string {
  return `Ignored: progressive syncs are off, so ${apps === 1 ? 'the 1 Application syncs' : apps ? `all ${apps} Applications sync` : 'all its Applications sync'} at once`;
}

/** `argocd/argocd-cmd-params-cm.yaml:12` or `the appsetTools.progressiveSyncs setting`. */
export function decidedWhere(en: Enablement): string | undefined {
  const d = en.decidedBy;
  if (!d) return undefined;
  return d.file === 'setting' ? d.description : (d.where ?? d.file);
}

/** `Progressive syncs enabled by argocd/argocd-cmd-params-cm.yaml:12 (instance argocd/)`. */
export function enabledSentence(en: Enablement): string {
  const where = decidedWhere(en);
  // The file already names the install; a mapping's name does not show in the path.
  const inst = en.instance?.mapped && shownInstanceName(en.instance.name) ? ` (Argo CD "${en.instance.name}")` : '';
  return `Progressive syncs enabled${where ? ` by ${where}` : ''}${inst}`;
}

/**
 * The lens over `strategy:`: whether the controller honours it, said first and within 40 characters (a
 * split editor cuts a lens line at about 40). `Enabled by argocd-cmd-params-cm.yaml:13` (the file's name
 * only; its path, the install and the click to open it are the lens's tooltip and command),
 * `Ignored · all 540 apps sync at once`, `Unknown whether honoured · base unread`,
 * `Not deployed yet · 540 apps at once`. The whole sentences are `enabledSentence`/`offSentence`.
 */
export function enablementLensTitle(en: Enablement, apps: number): string {
  if (en.state === 'enabled') {
    const d = en.decidedBy;
    if (!d) return 'Enabled';
    if (d.file === 'setting') return 'Enabled by a setting (progressiveSyncs)';
    const where = d.where ?? d.file;
    return `Enabled by ${where.slice(where.lastIndexOf('/') + 1)}`;
  }
  const atOnce = apps === 1 ? 'the 1 app syncs at once' : apps ? `all ${apps} apps sync at once` : 'all sync at once';
  if (en.undeployed) return `Not deployed yet · ${apps === 1 ? '1 app' : apps ? `${apps} apps` : 'all'} at once`;
  if (en.undecided) return 'Unknown whether honoured · which Argo CD';
  if (en.unread?.length)
    return `Unknown whether honoured · ${en.unread.every((u) => u.includes('remote base')) ? 'base unread' : 'not all read'}`;
  return `Ignored · ${atOnce}`;
}

/** Why the strategy is off, after the consequence (the warning's second sentence). */
export function offReason(en: Enablement): string {
  const inst = en.instance;
  const forWhom = shownInstanceName(inst?.name)
    ? `Argo CD ${inst!.name} (${inst!.why})`
    : inst
      ? `the Argo CD that runs it (${inst.why})`
      : 'this workspace';
  if (en.state === 'disabled') {
    // A setting is said as a sentence of its own (`The appsetTools.progressiveSyncs setting is "disabled": it
    // turns them off for …`), a file by its place and what it says.
    if (en.decidedBy?.file === 'setting') {
      const d = en.decidedBy.description;
      return `${d.charAt(0).toUpperCase()}${d.slice(1)}: it turns them off for ${forWhom}.`;
    }
    const where = decidedWhere(en);
    return `${where ?? 'The configuration'} turns them off for ${forWhom}${en.decidedBy && en.decidedBy.file !== 'setting' ? `: ${en.decidedBy.description}` : ''}.`;
  }
  // Written and enabling, but not deployed: the headline says what is missing; nothing else is "off".
  if (en.undeployed) return `Once deployed, what is written enables them for ${forWhom}.`;
  // An install was found but does not run it: say which and why, never "nothing configures it".
  if (!inst?.name && inst?.rejected) return `${inst.why.charAt(0).toUpperCase()}${inst.why.slice(1)}; the controller's default is off.`;
  if (en.undecided) return 'Which of the two runs it decides whether the strategy is honoured.';
  if (en.unread?.length)
    return en.partial
      ? `Part of the configuration of ${forWhom} was not read, so what was read (${en.partial.state === 'enabled' ? 'enabled' : 'off'}${en.partial.where ? `, ${en.partial.where}` : ''}) does not decide.`
      : `Nothing read of the configuration of ${forWhom} enables them, and the controller's default is off.`;
  if (!inst?.name)
    return `Nothing in this repository configures the Argo CD that runs it${inst?.why ? ` (${inst.why})` : ''}, and the controller's default is off.`;
  return `Nothing in the configuration of ${forWhom} enables them, and the controller's default is off.`;
}

/**
 * Argo CD 3.6's refresh gate (PR #27467, `applicationset/progressivesync/progressive_sync.go`
 * ensureApplicationsReconciled): it acts when Applications wait with pending changes (a new
 * ApplicationSet's Applications do not), lets nothing progress until `--refresh-grace-period-seconds` (a
 * minimum, 30 by default) have passed since the latest such change, then asks for refreshes and waits, with
 * no upper bound, until every Application has reconciled since that change. Once per change, not per step.
 */
export const REFRESH_GATE =
  'on a change to Applications that exist (not for a new ApplicationSet), the controller first waits at least --refresh-grace-period-seconds (30 s by default, a minimum) after the latest change, then, with no upper bound, until every Application of the ApplicationSet has reconciled since it (it asks for refreshes and waits for the application controller); once per change, not before each step, and step members and maxUpdate are unchanged';

/**
 * maxUpdate in plain words. `refreshGate`: the target has Argo CD 3.6's refresh gate, which holds the first
 * step after a change (`REFRESH_GATE`); the steps after it start when their predecessor is Healthy.
 */
export function explainMaxUpdate(s: PlanStep, refreshGate = false): string {
  const m = s.apps.length - (s.syncedEarlier?.length ?? 0);
  const all = `the next step starts when all ${m} are Healthy`;
  const gate = refreshGate && s.step === 1 ? ` Before this step: ${REFRESH_GATE}.` : '';
  const base =
    s.percentageBase !== undefined && typeof s.maxUpdate === 'string' && s.maxUpdate.endsWith('%')
      ? ` (${s.maxUpdate} of ${s.percentageBase})`
      : '';
  const rules = 'percentages round down, minimum 1; 0 = manual';
  if (s.manual)
    return `maxUpdate ${s.maxUpdate}: the controller syncs none of this step's ${m} Applications — sync them by hand; ${all}.${gate}`;
  if (s.concurrency === null) return `No maxUpdate: all ${m} of this step's Applications sync at the same time; ${all}.${gate}`;
  const err = s.maxUpdateError ? ` "${s.maxUpdate}" is not an integer or "<int>%" (${s.maxUpdateError}), so the controller uses 1.` : '';
  return `At most ${s.concurrency}${base} of this step's ${m} Applications sync at the same time; ${all}; ${rules}.${err}${gate}`;
}

/** A window in a sentence: `deny window "0 22 * * *" for 8h`. */
export function windowText(w: Pick<PlanWindow, 'kind' | 'schedule' | 'duration' | 'timeZone' | 'timeZoneProblem'>): string {
  const zone = w.timeZoneProblem
    ? ` (${w.timeZoneProblem}: Argo CD reads this window in UTC)`
    : w.timeZone && w.timeZone !== 'UTC'
      ? ` (${w.timeZone})`
      : '';
  return `${w.kind || '(no kind)'} window "${w.schedule}" for ${w.duration || '(no duration)'}${zone}`;
}

/** One line of a step: `sync window: deny window "0 22 * * *" for 8h of AppProject shop (projects/shop.yaml:11) can park 3: …`. */
export function windowLine(w: PlanWindow, names: (apps: string[]) => string = (a) => a.join(', ')): string {
  const what = w.problem
    ? `unreadable sync window of AppProject ${w.project} (${w.problem}) blocks`
    : `${windowText(w)} of AppProject ${w.project} can park`;
  return `sync window: ${what} ${w.apps.length}: ${names(w.apps)} (${w.where})`;
}

/**
 * `progressive syncs: not enabled (nothing found; the controller default is off) — Argo CD argocd (installed
 * beside it in argocd/), decided by argocd/argocd-cmd-params-cm.yaml:6` (`appset plan`, the text command).
 */
export function enablementLine(en: Enablement, fileShown: (file: string) => string = (f) => f): string {
  const state =
    en.state === 'not-found'
      ? en.undeployed
        ? 'not deployed yet'
        : en.undecided
          ? `unknown (${en.undecided})`
          : en.unread?.length
            ? `unknown (${en.partial ? `what was read says ${en.partial.state}${en.partial.where ? ` at ${en.partial.where}` : ''}` : 'nothing read enables them'}, but ${en.unread.join('; ')})`
            : "not enabled (nothing found; the controller's default is off)"
      : en.state;
  const shown = shownInstanceName(en.instance?.name);
  const inst = en.instance ? (shown ? ` — Argo CD ${shown} (${en.instance.why})` : ` — ${en.instance.why}`) : '';
  const d = en.decidedBy;
  const by = d ? `, decided by ${d.file === 'setting' ? d.description : (d.where ?? fileShown(d.file))}` : '';
  return `progressive syncs: ${state}${en.source === 'setting' ? ' (setting)' : ''}${inst}${by}`;
}

/**
 * A RollingSync plan's body, line by line (nested lines indented by two spaces): that it is ignored when
 * progressive syncs are off, every step with its manual gate, waves, earlier syncs, invalid Applications and
 * sync windows, then the Applications no step selects. What `appset plan` and the server's plan text print.
 */
export function rollingSyncLines(p: RolloutPlan): string[] {
  const out: string[] = [];
  // The plan's verdict, as the editor's fronts say it.
  if (p.enablement.state !== 'enabled') out.push(`!! ${p.verdict.sentence}`);
  for (const s of p.steps) {
    out.push(stepTitle(s));
    if (s.manual && s.apps.length) out.push(`  manual (${s.apps.length}): ${s.apps.join(', ')}`);
    for (const w of s.waves) out.push(`  wave ${w.wave} (${w.apps.length}): ${w.apps.join(', ')}`);
    if (s.syncedEarlier?.length) out.push(`  already synced by an earlier step: ${s.syncedEarlier.join(', ')}`);
    if (s.blockedBy?.length) out.push(`  never created (invalid), the rollout stops here: ${s.blockedBy.join(', ')}`);
    for (const w of s.syncWindows ?? []) out.push(`  ${windowLine(w)}`);
  }
  if (p.unselected.length)
    out.push(`selected by no step, never synced by the rollout (${p.unselected.length}): ${p.unselected.join(', ')}`);
  const sk = skippedLine(p);
  if (sk) out.push(sk);
  return out;
}

/** `skipped by the controller, never created (2): a (reason), b (reason)`; undefined when none is. */
export function skippedLine(p: RolloutPlan): string | undefined {
  const s = p.skipped ?? [];
  if (!s.length) return undefined;
  const shown = s.slice(0, 20).map((x) => `${x.name || '(no name)'} (${x.reason})`);
  return `skipped by the controller, never created (${s.length}): ${shown.join(', ')}${s.length > 20 ? `, … (${s.length - 20} more)` : ''}`;
}
