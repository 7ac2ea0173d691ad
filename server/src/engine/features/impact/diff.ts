/**
 * The model of a change's impact, one engine for `appset diff` (CI) and the editor's "this change"
 * lens: every ApplicationSet rendered at two revisions (or at a baseline commit and in the editor's
 * unsaved state), paired up, and the generated Applications compared — added, removed, changed (field
 * by field) — with the rollout step and wave each change lands in under the head's plan. Pure: no
 * git, no files (the sides are read by `service/impactSides.ts`).
 */
import { compareGoStrings } from '../../rules/order';
import { isObj, own } from '../../objects';
import type { EffectivePolicy } from '../../rules/applicationsSync';
import type { EngineDiagnostic, Json, Span } from '../../types';
import type { RolloutTimeline } from '../../rollout/timeline';

export interface SideAppSet {
  /** metadata.name ('' when absent). */
  name: string;
  namespace: string;
  /** Repository-relative file path. */
  file: string;
  /** Position of the document in the file. */
  docIndex: number;
  /** Generated Applications by name (the controller-skipped ones included, flagged). */
  apps: Map<string, SideApp>;
  /** The applications-sync policy the controller applies to it (its own, or the install's `--policy`). */
  policy: EffectivePolicy;
  /** The clusters this side's repository registers (names and servers); undefined when it declares none. */
  clusters?: { names: string[]; servers: string[] };
  /** The rollout plan, as `getRolloutPlan` computes it. */
  plan: DiffPlan;
  /** Problems that stop the controller (generator errors), as text. */
  errors: string[];
  /** The first YAML syntax error in its document (`line 12: …`): what was read of it is not what was meant. */
  broken?: string;
  exact: boolean;
  /** Where things are written (head side only, for SARIF): the file's text and the spans results point at. */
  sites?: AppSetSites;
}

/** Places in an ApplicationSet's file that diff results point at, and the head's permission findings. */
export interface AppSetSites {
  text: string;
  doc: Span;
  generators: Span;
  /** `spec.strategy.rollingSync.steps[i]`, by 0-based index. */
  steps: Span[];
  /** `appset/project-denies` findings of the ApplicationSet at this revision. */
  denials: EngineDiagnostic[];
}

export interface SideApp {
  app: Json;
  invalid: boolean;
}

/** What happens to a removed Application and to the resources it deployed, and why. */
export interface Deletion {
  application: 'deleted' | 'kept';
  resources: 'deleted' | 'kept';
  why: string;
}

/** The parts of the rollout plan the diff reads. */
export interface DiffPlan {
  strategy: 'AllAtOnce' | 'RollingSync';
  effective: boolean;
  steps: { step: number; selector: string; apps: string[]; concurrency: number | null; manual: boolean }[];
  unselected: string[];
  /** The plan's timeline (`rollout/timeline.ts`): order, expected duration, stops. */
  timeline?: RolloutTimeline;
}

export interface FieldChange {
  /** Dotted path with [i] for list items, e.g. `spec.source.targetRevision`. */
  path: string;
  before?: Json;
  after?: Json;
}

export interface AppChange {
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** Step (1-based) the Application belongs to under the head plan; absent for AllAtOnce or removed apps. */
  step?: number;
  /** Wave within that step among the Applications this change makes sync. */
  wave?: number;
  /** Step it was in at the base revision, when it moved. */
  fromStep?: number;
  /** True when the change makes the Application sync (its spec changed, or it is new). */
  syncs: boolean;
  /** Never synced by the rollout: selected by no step, or the step is a manual gate. */
  note?: string;
  fields?: FieldChange[];
  /** For a removed Application: whether it and its resources go (only `removed` changes have it). */
  deletion?: Deletion;
}

export interface AppSetDiff {
  name: string;
  namespace: string;
  status: 'added' | 'removed' | 'changed' | 'renamed' | 'unchanged';
  /** Old name of a renamed ApplicationSet. */
  renamedFrom?: string;
  file: { base?: string; head?: string };
  strategy: { base?: string; head?: string; effective: boolean; effectiveBase?: boolean };
  /** The rollout before and after: steps with their sizes, and what changed in them. */
  rollout: RolloutDiff;
  /**
   * The ApplicationSet stays but its generators now produce nothing while they produced Applications
   * before (a selector or path that matches nothing any more): the controller deletes every one of them.
   */
  generatesNothing?: boolean;
  /** The rollout timeline before and after (the same computation `appset plan` and the rollout view show). */
  timeline: { base?: RolloutTimeline; head?: RolloutTimeline };
  changes: AppChange[];
  unchanged: number;
  /** Most Applications this change makes sync at the same time. */
  syncAtOnce: number;
  /**
   * Applications that start syncing the moment the change is merged: its first wave (all of them when every
   * Application syncs at once); 0 when a manual gate holding changed Applications comes first.
   */
  startsAtOnce: number;
  /** The groups that sync together, in order: `all` or `step N wave W`. */
  waves: { step?: number; wave?: number; apps: string[] }[];
  errors: { base: string[]; head: string[] };
  exact: boolean;
}

/** One step of a plan, as the diff compares it. */
export interface StepSize {
  step: number;
  selector: string;
  /** Applications the step selects. */
  apps: number;
  /** Most of them syncing at the same time (maxUpdate applied; 0 for a manual gate). */
  atOnce: number;
}

export interface RolloutDiff {
  base?: StepSize[];
  head?: StepSize[];
  /** Steps that selected Applications before and select none now (a stage that disappears). */
  emptied: number[];
  /** Steps whose largest wave grows (more Applications sync at once in them). */
  grown: { step: number; from: number; to: number }[];
  /** Most Applications that sync at the same time when every Application syncs: before and after. */
  atOnce: { base?: number; head?: number };
}

export interface DiffReport {
  version: number;
  base: string;
  head: string;
  appsets: AppSetDiff[];
  summary: {
    applicationSets: number;
    added: number;
    removed: number;
    changed: number;
    moved: number;
    /** The largest wave of any one ApplicationSet. */
    syncAtOnce: number;
    /**
     * What one merge starts at the same moment across all of them: each ApplicationSet rolls out on its own
     * (the controller reconciles each apart, RollingSync steps are per ApplicationSet), so their first
     * waves start together — the sum of every changed ApplicationSet's `startsAtOnce`.
     */
    startsAtOnce: number;
    /** ApplicationSets whose change starts Applications syncing at the merge. */
    startingAppSets: number;
    /** Removed Applications whose resources are deleted with them. */
    deletesResources: number;
  };
}

const MAX_FIELD_CHANGES = 50;

const keyPath = (prefix: string, k: string) =>
  /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? (prefix ? `${prefix}.${k}` : k) : `${prefix}[${JSON.stringify(k)}]`;

/** Field-level differences between two JSON values (objects key by key, equal-length lists item by item). */
export function diffJson(a: Json | undefined, b: Json | undefined, prefix = '', out: FieldChange[] = []): FieldChange[] {
  if (out.length >= MAX_FIELD_CHANGES) return out;
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) diffJson(own(a, k), own(b, k), keyPath(prefix, k), out);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffJson(x, b[i], `${prefix}[${i}]`, out));
    return out;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  const c: FieldChange = { path: prefix || '(whole)' };
  if (a !== undefined) c.before = a;
  if (b !== undefined) c.after = b;
  out.push(c);
  return out;
}

const keyOf = (a: SideAppSet) => `${a.namespace}/${a.name}`;

/** Pairs ApplicationSets of the two sides: by namespace/name, then renames (same file and position). */
export function pairAppSets(base: SideAppSet[], head: SideAppSet[]): [SideAppSet | undefined, SideAppSet | undefined][] {
  const pairs: [SideAppSet | undefined, SideAppSet | undefined][] = [];
  const headByKey = new Map<string, SideAppSet>();
  for (const h of head) if (!headByKey.has(keyOf(h))) headByKey.set(keyOf(h), h);
  const usedHead = new Set<SideAppSet>();
  const leftBase: SideAppSet[] = [];
  for (const b of base) {
    const h = headByKey.get(keyOf(b));
    if (h && !usedHead.has(h)) {
      usedHead.add(h);
      pairs.push([b, h]);
    } else leftBase.push(b);
  }
  const leftHead = head.filter((h) => !usedHead.has(h));
  for (const b of leftBase) {
    // A rename keeps the file and the document's position, or most of its Applications.
    const h =
      leftHead.find((x) => !usedHead.has(x) && x.file === b.file && x.docIndex === b.docIndex) ??
      leftHead.find((x) => !usedHead.has(x) && overlap(b, x) >= 0.5);
    if (h) {
      usedHead.add(h);
      pairs.push([b, h]);
    } else pairs.push([b, undefined]);
  }
  for (const h of leftHead) if (!usedHead.has(h)) pairs.push([undefined, h]);
  return pairs;
}

function overlap(a: SideAppSet, b: SideAppSet): number {
  if (!a.apps.size || !b.apps.size) return 0;
  let n = 0;
  for (const k of a.apps.keys()) if (b.apps.has(k)) n++;
  return n / Math.max(a.apps.size, b.apps.size);
}

/** The plan's steps with their sizes; undefined when the strategy does not roll out in steps. */
function stepSizes(side: SideAppSet): StepSize[] | undefined {
  if (side.plan.strategy !== 'RollingSync' || !side.plan.effective) return undefined;
  return side.plan.steps.map((s) => ({
    step: s.step,
    selector: s.selector,
    apps: s.apps.length,
    atOnce: s.manual ? 0 : s.concurrency === null ? s.apps.length : Math.min(s.apps.length, Math.max(1, s.concurrency)),
  }));
}

/** Most Applications syncing at once if all of them sync: the largest wave, or all of them. */
function fleetAtOnce(side: SideAppSet): number {
  const steps = stepSizes(side);
  if (!steps) return [...side.apps.values()].filter((a) => !a.invalid).length;
  return steps.reduce((m, s) => Math.max(m, s.atOnce), 0);
}

export function rolloutDiff(base: SideAppSet | undefined, head: SideAppSet | undefined): RolloutDiff {
  const b = base && stepSizes(base);
  const h = head && stepSizes(head);
  const emptied: number[] = [];
  const grown: RolloutDiff['grown'] = [];
  if (b && h)
    for (const s of b) {
      const now = h.find((x) => x.step === s.step);
      if (now && now.atOnce > s.atOnce) grown.push({ step: s.step, from: s.atOnce, to: now.atOnce });
    }
  // A step that selected Applications and selects none now empties whether or not the controller
  // honoured the strategy before (progressive syncs turned on by the same change included).
  if (base?.plan.strategy === 'RollingSync' && head?.plan.strategy === 'RollingSync')
    for (const s of base.plan.steps) {
      const now = head.plan.steps.find((x) => x.step === s.step);
      if (now && s.apps.length > 0 && now.apps.length === 0) emptied.push(s.step);
    }
  return {
    ...(b ? { base: b } : {}),
    ...(h ? { head: h } : {}),
    emptied,
    grown,
    atOnce: { ...(base ? { base: fleetAtOnce(base) } : {}), ...(head ? { head: fleetAtOnce(head) } : {}) },
  };
}

function stepOf(plan: DiffPlan): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of plan.steps) for (const a of s.apps) if (!m.has(a)) m.set(a, s.step);
  return m;
}

/**
 * Where each change lands under the head plan: its step and wave (a RollingSync the controller
 * follows), the step it moves from, and the waves of Applications synced together.
 */
function placeChanges(
  changes: AppChange[],
  base: SideAppSet | undefined,
  head: SideAppSet | undefined,
): { rolling: boolean; waves: AppSetDiff['waves']; startsAtOnce: number } {
  const rolling = !!head && head.plan.strategy === 'RollingSync' && head.plan.effective;
  const headStep = head ? stepOf(head.plan) : new Map<string, number>();
  const baseStep = base ? stepOf(base.plan) : new Map<string, number>();
  const waves: AppSetDiff['waves'] = [];
  /** A manual gate with changed Applications came before any wave: nothing starts at the merge. */
  let gated = false;
  if (head) {
    if (!rolling) {
      const all = changes.filter((c) => c.syncs).map((c) => c.name);
      if (all.length) waves.push({ apps: all });
    } else {
      for (const c of changes) if (c.change !== 'removed' && headStep.has(c.name)) c.step = headStep.get(c.name);
      for (const s of head.plan.steps) {
        const mine = changes.filter((c) => c.syncs && c.step === s.step);
        if (s.manual) {
          for (const c of mine) c.note = `step ${s.step} is a manual gate (maxUpdate 0): sync it by hand`;
          if (mine.length && !waves.length) gated = true;
          continue;
        }
        const width = s.concurrency === null ? Math.max(1, mine.length) : Math.max(1, s.concurrency);
        for (let i = 0; i < mine.length; i += width) {
          const group = mine.slice(i, i + width);
          for (const c of group) c.wave = i / width + 1;
          waves.push({ step: s.step, wave: i / width + 1, apps: group.map((c) => c.name) });
        }
      }
      for (const c of changes) if (c.syncs && c.step === undefined) c.note = 'selected by no step: the rollout never syncs it';
    }
    for (const c of changes) {
      if (c.change !== 'changed') continue;
      const from = baseStep.get(c.name);
      const to = headStep.get(c.name);
      if (from !== undefined && to !== undefined && from !== to) c.fromStep = from;
      if (from !== undefined && to === undefined && rolling) c.fromStep = from;
    }
  }
  return { rolling, waves, startsAtOnce: gated ? 0 : (waves[0]?.apps.length ?? 0) };
}

export function diffAppSet(base: SideAppSet | undefined, head: SideAppSet | undefined): AppSetDiff {
  const ref = (head ?? base)!;
  const baseApps = base?.apps ?? new Map();
  const headApps = head?.apps ?? new Map();
  const changes: AppChange[] = [];
  let unchanged = 0;
  const names = [...new Set([...baseApps.keys(), ...headApps.keys()])].sort(compare);
  for (const n of names) {
    const b = baseApps.get(n);
    const h = headApps.get(n);
    if (!b && h) changes.push({ name: n, change: 'added', syncs: !h.invalid });
    else if (b && !h) changes.push({ name: n, change: 'removed', syncs: false, deletion: deletionOf(b, head) });
    else if (b && h) {
      const fields = diffJson(b.app, h.app);
      if (!fields.length) {
        unchanged++;
        continue;
      }
      // Only a changed spec makes the Application OutOfSync; labels and annotations do not.
      const syncs = !h.invalid && fields.some((f) => f.path === 'spec' || f.path.startsWith('spec.') || f.path.startsWith('spec['));
      changes.push({ name: n, change: 'changed', syncs, fields });
    }
  }

  const { rolling, waves, startsAtOnce } = placeChanges(changes, base, head);
  // Rows in the order they sync: step and wave, then what does not sync, by name within each.
  const rank = (c: AppChange) => (c.syncs && !c.note ? (c.step ?? 0) * 1e6 + (c.wave ?? 0) : 1e12);
  changes.sort((x, y) => rank(x) - rank(y) || compare(x.name, y.name));
  let status: AppSetDiff['status'] = 'changed';
  if (!base) status = 'added';
  else if (!head) status = 'removed';
  else if (keyOf(base) !== keyOf(head)) status = 'renamed';
  const rollout = rolloutDiff(base, head);
  const timeline = {
    ...(base?.plan.timeline ? { base: base.plan.timeline } : {}),
    ...(head?.plan.timeline ? { head: head.plan.timeline } : {}),
  };
  if (
    status === 'changed' &&
    !changes.length &&
    base!.plan.strategy === head!.plan.strategy &&
    JSON.stringify(rollout.base) === JSON.stringify(rollout.head) &&
    timeline.base?.summary === timeline.head?.summary &&
    JSON.stringify(timeline.base?.stops) === JSON.stringify(timeline.head?.stops)
  )
    status = 'unchanged';
  return {
    name: ref.name,
    namespace: ref.namespace,
    status,
    ...(status === 'renamed' ? { renamedFrom: base!.name } : {}),
    file: { ...(base ? { base: base.file } : {}), ...(head ? { head: head.file } : {}) },
    strategy: {
      ...(base ? { base: base.plan.strategy } : {}),
      ...(head ? { head: head.plan.strategy } : {}),
      effective: rolling,
      ...(base ? { effectiveBase: base.plan.strategy === 'RollingSync' && base.plan.effective } : {}),
    },
    rollout,
    timeline,
    ...(base && head && base.apps.size > 0 && head.apps.size === 0 && !head.errors.length ? { generatesNothing: true } : {}),
    changes,
    unchanged,
    syncAtOnce: waves.reduce((m, w) => Math.max(m, w.apps.length), 0),
    startsAtOnce,
    waves,
    errors: { base: base?.errors ?? [], head: head?.errors ?? [] },
    exact: (base?.exact ?? true) && (head?.exact ?? true),
  };
}

const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

/**
 * What the controller does with an Application the head no longer generates (argo-cd
 * `applicationset/controllers/applicationset_controller.go`): with the ApplicationSet still there,
 * `deleteInCluster` deletes it unless the policy forbids deletes (`applicationset/utils/policy.go`:
 * `create-only` and `create-update`; which policy applies — the ApplicationSet's own or the
 * controller's `--policy` — is `rules/applicationsSync.ts`, over the install model), and first removes the plain resources finalizer
 * when the destination cluster is no longer registered (`removeFinalizerOnInvalidDestination`). With the
 * ApplicationSet deleted, Kubernetes deletes its Applications through their owner references. The
 * application controller deletes an Application's resources only when it carries a resources finalizer.
 */
export function deletionOf(base: SideApp, head: SideAppSet | undefined): Deletion {
  const meta = isObj(base.app) && isObj(base.app.metadata) ? base.app.metadata : {};
  const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers.filter((f): f is string => typeof f === 'string') : [];
  const cascading = finalizers.filter((f) => f === RESOURCES_FINALIZER || f.startsWith(RESOURCES_FINALIZER + '/'));
  if (head && (head.policy.policy === 'create-only' || head.policy.policy === 'create-update'))
    return {
      application: 'kept',
      resources: 'kept',
      why: `${head.policy.why}: the ${head.policy.policy} policy never deletes Applications`,
    };
  // A generator or template that fails stops the reconcile before anything is deleted.
  if (head?.errors.length)
    return { application: 'kept', resources: 'kept', why: 'the controller fails at this revision and deletes nothing until that is fixed' };
  const noFinalizer = { application: 'deleted' as const, resources: 'kept' as const };
  if (!cascading.length)
    return {
      ...noFinalizer,
      why: 'no resources finalizer (preserveResourcesOnDeletion or its own finalizers): its resources stay in the cluster',
    };
  if (head && cascading.every((f) => f === RESOURCES_FINALIZER) && head.clusters && !clusterRegistered(base.app, head.clusters))
    return {
      ...noFinalizer,
      why: 'its destination cluster is no longer registered, so the controller removes the resources finalizer first',
    };
  return {
    application: 'deleted',
    resources: 'deleted',
    why: `${cascading[0]}: its resources are deleted with it${head ? '' : ' (the ApplicationSet is deleted)'}`,
  };
}

function clusterRegistered(app: Json, clusters: { names: string[]; servers: string[] }): boolean {
  const spec = isObj(app) && isObj(app.spec) ? app.spec : {};
  const d = isObj(spec.destination) ? spec.destination : {};
  if (typeof d.name === 'string' && d.name) return clusters.names.includes(d.name);
  return typeof d.server === 'string' && clusters.servers.includes(d.server);
}

/** Go's string order (byte order of UTF-8 = code point order), as the controller sorts names. */
const compare = compareGoStrings;

export function diffReport(baseRev: string, headRev: string, base: SideAppSet[], head: SideAppSet[]): DiffReport {
  const appsets = pairAppSets(base, head)
    .map(([b, h]) => diffAppSet(b, h))
    .sort((x, y) => compare(x.file.head ?? x.file.base ?? '', y.file.head ?? y.file.base ?? '') || compare(x.name, y.name));
  const all = appsets.flatMap((a) => a.changes);
  return {
    version: 1,
    base: baseRev,
    head: headRev,
    appsets,
    summary: {
      applicationSets: appsets.filter((a) => a.status !== 'unchanged').length,
      added: all.filter((c) => c.change === 'added').length,
      removed: all.filter((c) => c.change === 'removed').length,
      changed: all.filter((c) => c.change === 'changed').length,
      moved: all.filter((c) => c.fromStep !== undefined).length,
      syncAtOnce: appsets.reduce((m, a) => Math.max(m, a.syncAtOnce), 0),
      startsAtOnce: appsets.reduce((n, a) => n + a.startsAtOnce, 0),
      startingAppSets: appsets.filter((a) => a.startsAtOnce > 0).length,
      deletesResources: all.filter((c) => c.deletion?.resources === 'deleted').length,
    },
  };
}
