/**
 * AppProject sync windows that can park a RollingSync step.
 *
 * What the controllers do (argo-cd, read at 37ee009):
 * - The rollout syncs an Application by writing a sync operation marked as automated
 *   (`applicationset/progressivesync/progressive_sync.go` syncApplication: InitiatedBy.Automated), so a
 *   window's `manualSync: true` never lets it through.
 * - The application controller records the operation as Running with its start time before it asks
 *   the windows (`controller/appcontroller.go` processRequestedAppOperation → NewOperationState, then
 *   SyncAppState); a window that forbids the sync leaves it Running ("Sync operation blocked by sync
 *   window", `controller/sync.go` syncWindowPreventsSync) and retries it until the window lets it run.
 * - The ApplicationSet controller moves the Application from Pending to Progressing as soon as an
 *   operation started after it became Pending, and to Healthy only once it is Synced and Healthy;
 *   Pending and Progressing Applications count against the step's maxUpdate, and the next step starts
 *   only when every Application of this one is Healthy (progressive_sync.go
 *   UpdateApplicationSetApplicationStatus, UpdateApplicationSetApplicationStatusProgress, getAppsToSync).
 *   So a parked Application holds one of the step's maxUpdate slots and the step stalls.
 * - Which windows apply and when they forbid a sync: `pkg/apis/application/v1alpha1/types.go`
 *   SyncWindows.Matches (applications by name, clusters by destination name or server, namespaces by
 *   destination namespace; any of them, or all set ones with `andOperator`; gobwas globs through
 *   `app_project_types.go` globMatch) and CanSync (an active deny window forbids; otherwise an active
 *   allow window permits; otherwise any allow window forbids; a schedule or duration the controller
 *   cannot parse forbids every sync, "invalid sync windows").
 *
 * Only what holds whatever the time is reported: a matching deny window stalls the step while it is
 * active, allow windows stall it whenever none of them is (unless one is open all the time), and an
 * unparsable window stalls it always.
 */
import { lineNumber, parseDocuments, nodeAt } from '../yaml';
import type { Span } from '../types';
import type { WorkspaceIndex } from '../workspace/index';
import { APP_PROJECTS } from '../workspace/interests';
import { relativePath } from '../paths';
import type { GeneratedApp } from '../expand/types';
import type { PlanWindow } from '@appset-tools/protocol';
import { globMatch } from '../rules/gobwasGlob';
import { isObj } from '../objects';
import { GO_MAX_DURATION, loadLocationProblem, parseGoDuration } from '../rules/goTime';

export interface SyncWindowSpec {
  kind: string;
  schedule: string;
  duration: string;
  applications: string[];
  namespaces: string[];
  clusters: string[];
  manualSync: boolean;
  andOperator: boolean;
  syncOverrun: boolean;
  timeZone?: string;
  /** Index in spec.syncWindows. */
  index: number;
  span?: Span;
  /** `projects/prod.yaml:14` (display). */
  where: string;
  /** Why the controller cannot use it (then every sync of a matching Application is blocked). */
  problem?: string;
  /** Why Go cannot load its `timeZone`: the controller then reads the window in UTC (types.go scheduleOffsetByTimeZone). */
  timeZoneProblem?: string;
}

export interface ProjectWindows {
  name: string;
  namespace?: string;
  file: string;
  windows: SyncWindowSpec[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const strs = (v: unknown) => (Array.isArray(v) ? v.map(str) : []);
/** Bounds (hostile workspaces): projects and windows read. */
const MAX_PROJECTS = 500;
const MAX_WINDOWS = 100;

/** The AppProjects of the workspace that declare sync windows. */
export function readProjects(workspace: WorkspaceIndex, roots: readonly string[]): ProjectWindows[] {
  const out: ProjectWindows[] = [];
  for (const file of workspace.matching(APP_PROJECTS)) {
    let parsed: ReturnType<typeof parseDocuments> | undefined;
    for (const d of file.docs) {
      if (out.length >= MAX_PROJECTS) return out;
      const v = d.value;
      if (!isObj(v) || v.kind !== 'AppProject' || !/^argoproj\.io\//.test(str(v.apiVersion))) continue;
      const meta = isObj(v.metadata) ? v.metadata : {};
      const name = str(meta.name);
      const spec = isObj(v.spec) ? v.spec : {};
      if (!name || !Array.isArray(spec.syncWindows) || !spec.syncWindows.length) continue;
      parsed ??= parseDocuments(file.text);
      const doc = parsed[d.index];
      const windows: SyncWindowSpec[] = [];
      spec.syncWindows.slice(0, MAX_WINDOWS).forEach((w, index) => {
        if (!isObj(w)) return;
        const span = doc ? (nodeAt(doc, ['spec', 'syncWindows', index]).value ?? undefined) : undefined;
        const win: SyncWindowSpec = {
          kind: str(w.kind),
          schedule: str(w.schedule),
          duration: str(w.duration),
          applications: strs(w.applications),
          namespaces: strs(w.namespaces),
          clusters: strs(w.clusters),
          manualSync: w.manualSync === true,
          andOperator: w.andOperator === true,
          syncOverrun: w.syncOverrun === true,
          timeZone: str(w.timeZone) || undefined,
          index,
          span,
          where: `${relativePath(roots, file.path)}:${lineNumber(file.text, span?.start ?? d.span.start)}`,
        };
        win.problem = cronProblem(win.schedule) ?? durationProblem(win.duration);
        const tz = win.timeZone === undefined ? undefined : loadLocationProblem(win.timeZone);
        if (tz) win.timeZoneProblem = tz;
        windows.push(win);
      });
      out.push({ name, namespace: str(meta.namespace) || undefined, file: file.path, windows });
    }
  }
  return out;
}

const cache = new WeakMap<WorkspaceIndex, { version: number; roots: string; projects: ProjectWindows[] }>();

/** `readProjects`, once per workspace index version. */
export function getProjects(workspace: WorkspaceIndex, roots: readonly string[]): ProjectWindows[] {
  const key = roots.join('\u0000');
  const hit = cache.get(workspace);
  if (hit && hit.version === workspace.version && hit.roots === key) return hit.projects;
  const projects = readProjects(workspace, roots);
  cache.set(workspace, { version: workspace.version, roots: key, projects });
  return projects;
}

// Windows match with globMatch of app_project_types.go, no negation, no separators (rules/gobwasGlob.ts).
export { globMatch };

/** The Application fields windows match on. */
export interface WindowTarget {
  name: string;
  destName: string;
  destServer: string;
  destNamespace: string;
}

/** SyncWindows.Matches for one window (types.go): OR over the set lists, or AND with `andOperator`. */
export function windowMatches(w: SyncWindowSpec, app: WindowTarget): boolean {
  let matched = false;
  let isSet = false;
  if (w.applications.length) {
    isSet = true;
    matched = w.applications.some((a) => globMatch(a, app.name));
  }
  if (w.andOperator && !matched && isSet) return false;
  if (!w.andOperator && matched) return true;
  if (w.clusters.length) {
    matched = false;
    isSet = true;
    matched = w.clusters.some(
      (c) => (app.destName !== '' && globMatch(c, app.destName)) || (app.destServer !== '' && globMatch(c, app.destServer)),
    );
  }
  if (isSet && w.andOperator && !matched) return false;
  if (!w.andOperator && matched) return true;
  if (w.namespaces.length) {
    matched = w.namespaces.some((n) => globMatch(n, app.destNamespace));
  }
  return matched;
}

export function targetOf(app: GeneratedApp): WindowTarget {
  const spec = isObj(app.app.spec) ? app.app.spec : {};
  const dest = isObj(spec.destination) ? spec.destination : {};
  return { name: app.name, destName: str(dest.name), destServer: str(dest.server), destNamespace: str(dest.namespace) };
}

export function projectOf(app: GeneratedApp): string {
  const spec = isObj(app.app.spec) ? app.app.spec : {};
  return str(spec.project);
}

/** An allow window that is open at every minute (then allow windows never forbid a sync). */
const alwaysOpen = (w: SyncWindowSpec) =>
  w.kind === 'allow' && !w.problem && /^\*(\s+\*){4}$/.test(w.schedule.trim()) && durationMs(w.duration) >= 60_000;

/**
 * The windows that can keep one Application from syncing, with the way they do it; empty when none
 * can (no matching window, or an allow window that is always open and no deny window).
 */
export function blockingWindows(windows: readonly SyncWindowSpec[], app: WindowTarget): SyncWindowSpec[] {
  const matching = windows.filter((w) => windowMatches(w, app));
  if (!matching.length) return [];
  // One window the controller cannot parse makes CanSync fail for every sync of the Application.
  const broken = matching.filter((w) => w.problem);
  if (broken.length) return broken;
  const deny = matching.filter((w) => w.kind === 'deny');
  const allow = matching.filter((w) => w.kind === 'allow');
  if (allow.some(alwaysOpen)) return deny;
  return [...deny, ...allow];
}

/** The AppProject an Application uses: its name, preferring the ApplicationSet's namespace, then the nearest file. */
export function chooseProject(
  projects: readonly ProjectWindows[],
  name: string,
  near: string,
  namespace?: string,
): ProjectWindows | undefined {
  let c = projects.filter((p) => p.name === name);
  if (c.length > 1 && namespace) {
    const same = c.filter((p) => !p.namespace || p.namespace === namespace);
    if (same.length) c = same;
  }
  if (c.length <= 1) return c[0];
  const common = (a: string, b: string) => {
    const x = a.split('/');
    const y = b.split('/');
    let n = 0;
    while (n < x.length && n < y.length && x[n] === y[n]) n++;
    return n;
  };
  return [...c].sort((a, b) => common(b.file, near) - common(a.file, near) || a.file.localeCompare(b.file))[0];
}

/**
 * The windows that can park each step's Applications: one entry per (project, window), with the
 * step's Applications it holds. `steps` are the plan's steps' own Applications (name lists).
 */
export function stepWindows(
  steps: readonly { apps: readonly string[] }[],
  apps: readonly GeneratedApp[],
  projects: readonly ProjectWindows[],
  near: string,
  namespace?: string,
): PlanWindow[][] {
  const byName = new Map(apps.map((a) => [a.name, a]));
  return steps.map((s) => {
    const found = new Map<string, PlanWindow>();
    for (const name of s.apps) {
      const app = byName.get(name);
      if (!app) continue;
      const project = chooseProject(projects, projectOf(app), near, namespace);
      if (!project) continue;
      for (const w of blockingWindows(project.windows, targetOf(app))) {
        const key = `${project.file}#${project.name}#${w.index}`;
        let pw = found.get(key);
        if (!pw) {
          pw = {
            project: project.name,
            kind: w.kind,
            schedule: w.schedule,
            duration: w.duration,
            ...(w.timeZone ? { timeZone: w.timeZone } : {}),
            ...(w.timeZoneProblem ? { timeZoneProblem: w.timeZoneProblem } : {}),
            file: project.file,
            ...(w.span ? { span: w.span } : {}),
            where: w.where,
            apps: [],
            ...(w.problem ? { problem: w.problem } : {}),
            ...(w.manualSync ? { manualSync: true } : {}),
            ...(w.syncOverrun ? { syncOverrun: true } : {}),
          };
          found.set(key, pw);
        }
        pw.apps.push(name);
      }
    }
    return [...found.values()];
  });
}

// ---------------------------------------------------------------------------------------------
// What the controller can parse: robfig/cron v3 with minute, hour, day of month, month, day of week
// (no descriptors such as @daily, no seconds), and Go's time.ParseDuration.

const FIELDS: { name: string; min: number; max: number; names?: Record<string, number> }[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
  },
  { name: 'day of week', min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } },
];

/** Why robfig/cron (as Argo CD configures it) rejects the schedule, or undefined. */
export function cronProblem(schedule: string): string | undefined {
  let s = schedule.trim();
  if (!s) return 'the schedule is empty';
  const tz = /^(?:CRON_)?TZ=\S+\s+/.exec(s);
  if (tz) s = s.slice(tz[0].length);
  if (s.startsWith('@'))
    return `the schedule "${schedule}" is a descriptor, which Argo CD's cron parser does not accept (write the five fields)`;
  const fields = s.split(/\s+/);
  if (fields.length !== 5)
    return `the schedule "${schedule}" has ${fields.length} fields; Argo CD expects exactly 5 (minute hour day month weekday)`;
  for (let f = 0; f < 5; f++) {
    const spec = FIELDS[f];
    for (const part of fields[f].split(',')) {
      const bad = rangeProblem(part, spec);
      if (bad) return `the schedule "${schedule}" has an invalid ${spec.name} field "${fields[f]}": ${bad}`;
    }
  }
  return undefined;
}

function rangeProblem(part: string, f: (typeof FIELDS)[number]): string | undefined {
  const [range, step, extra] = part.split('/');
  if (extra !== undefined) return `too many slashes in "${part}"`;
  const num = (t: string): number | undefined => {
    const named = f.names?.[t.toLowerCase()];
    if (named !== undefined) return named;
    return /^\d+$/.test(t) ? Number(t) : undefined;
  };
  let start: number;
  let end: number;
  if (range === '*' || range === '?') {
    start = f.min;
    end = f.max;
  } else {
    const [a, b, more] = range.split('-');
    if (more !== undefined) return `too many hyphens in "${range}"`;
    const x = num(a);
    if (x === undefined) return `"${a}" is not a number`;
    start = x;
    if (b !== undefined) {
      const y = num(b);
      if (y === undefined) return `"${b}" is not a number`;
      end = y;
    } else end = step !== undefined ? f.max : x;
  }
  if (step !== undefined && !/^\d+$/.test(step)) return `the step "${step}" is not a number`;
  if (step !== undefined && Number(step) === 0) return 'a step of 0';
  if (start < f.min) return `${start} is below ${f.min}`;
  if (end > f.max) return `${end} is above ${f.max}`;
  if (start > end) return `${start} comes after ${end}`;
  return undefined;
}

/** Go's time.ParseDuration in milliseconds, or NaN when Go rejects it (rules/goTime.ts). */
export function durationMs(d: string): number {
  const r = parseGoDuration(d);
  return 'ns' in r ? Number(r.ns) / 1e6 : NaN;
}

/** Why Go's time.ParseDuration rejects the duration (Argo CD: "cannot parse duration"), or undefined. */
export function durationProblem(d: string): string | undefined {
  const r = parseGoDuration(d);
  if ('ns' in r) return undefined;
  if (r.error === 'overflow') return `the duration "${d}" is longer than Go's largest duration (${GO_MAX_DURATION}, about 292 years)`;
  if (!d) return 'the duration is empty';
  const days = /^(\d+)d$/.exec(d);
  return `the duration "${d}" is not a Go duration${days ? ` (no "d" unit: write ${Number(days[1]) * 24}h)` : ' (units h, m, s, e.g. 1h30m)'}`;
}
