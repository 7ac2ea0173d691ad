/**
 * The contract between the language server and its clients, beyond standard LSP: custom request
 * names with their params and results, the command ids that lenses and quick fixes carry, and the
 * preview document scheme. Both the server and the VS Code client import this module, so `tsc`
 * checks both sides against one definition.
 *
 * Invariant (checked by test/unit/architecture.test.ts): no imports at all, so the client bundle
 * never pulls in engine code; the engine imports its contract types (the rollout plan) from here.
 */

/**
 * Node options the language server is meant to be started with: the VS Code client passes them, the
 * README's editor setups put them before `dist/server.js`. A young generation of at most 2 MiB per
 * semi-space keeps the garbage of a burst of keystrokes from growing the process (bench/results.md
 * measures the server with and without them). The server also tunes what can be set once it runs
 * (heapFlags.ts).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=2'];

/** The runtime a server is started with: `process` of the client, whose executable runs the server too. */
export interface ServerRuntime {
  readonly versions: { readonly v8?: string };
  readonly platform: string;
  readonly arch: string;
}

/**
 * V8's concurrent Sparkplug: its baseline compiler runs on a background thread instead of in the middle of a first
 * answer (the 1 KiB document's answer 20% less CPU on the main thread, the 50-ApplicationSet file's 13%;
 * docs/performance.md, tenth pass). V8 creates that thread only when the process starts, so it can only be asked
 * for on the command line (set at run time, the process crashes; NODE_OPTIONS refuses it). It is V8's default from
 * 13.6 on (Node 24, VS Code's Electron 36 and later) and off before. So the flag is given only where it is known and
 * off: V8 11.0 (Node 20) up to 13.6 (the test suites and a stress run with it on Node 20 and 22; Node 23 starts with
 * it). Never from 13.6 on, where it adds nothing and a later V8 that dropped the name would refuse to start ("bad
 * option"), nor on macOS on Apple silicon, where V8 builds without a JIT write protection per thread make it
 * read-only and off. Before 11 (Node 18) it also changed V8's flag hash, so Node's own compiled modules were refused.
 */
export const CONCURRENT_SPARKPLUG = '--concurrent-sparkplug';
const SPARKPLUG_FLAG_FROM: readonly [number, number] = [11, 0];
const SPARKPLUG_DEFAULT_FROM: readonly [number, number] = [13, 6];

/** Whether `runtime` runs concurrent Sparkplug only when asked on the command line (see CONCURRENT_SPARKPLUG). */
export function asksConcurrentSparkplug(runtime: ServerRuntime): boolean {
  const m = /^(\d+)\.(\d+)\./.exec(runtime.versions.v8 ?? '');
  if (!m) return false;
  const v = Number(m[1]) * 1000 + Number(m[2]);
  const at = ([major, minor]: readonly [number, number]) => major * 1000 + minor;
  if (v < at(SPARKPLUG_FLAG_FROM) || v >= at(SPARKPLUG_DEFAULT_FROM)) return false;
  return !(runtime.platform === 'darwin' && runtime.arch === 'arm64');
}

/**
 * The Node options of a language server started by `runtime`'s executable (the VS Code client, the bench): the
 * launch options above, and concurrent Sparkplug where that V8 needs asking for it.
 */
export function serverNodeOptions(runtime: ServerRuntime): string[] {
  return [...SERVER_NODE_OPTIONS, ...(asksConcurrentSparkplug(runtime) ? [CONCURRENT_SPARKPLUG] : [])];
}

/**
 * Environment the language server is meant to be started with (the VS Code client adds it to its own;
 * docs/editors.md). `MALLOC_ARENA_MAX=2`: glibc's malloc gives each thread that allocates (V8's compiler
 * and collector threads) an arena of its own and keeps what they freed, which a Linux process counts as
 * resident; two arenas kept the peak RSS on the bench's 111 KiB document 12–17 MiB lower, for the same
 * CPU time (docs/performance.md). Other C libraries and systems ignore it.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/**
 * Command ids carried by code lenses and quick fixes, and the text commands. Every one except
 * restartServer runs in the server (`workspace/executeCommand`, listed in SERVER_COMMANDS), so any
 * LSP editor can run them; the VS Code client adds its UI on top (middleware), never logic.
 */
export const Commands = {
  /** Lens: the preview of generated Applications. Args: [documentUri, offset?]. Returns the preview YAML; the server also shows a one-line summary. */
  showPreview: 'appsetTools.showPreview',
  /** Lens: the RollingSync plan. Args: [documentUri, offset?]. Returns the plan as text; the server also shows a one-line summary. */
  showRollout: 'appsetTools.showRollout',
  /** Restarts the language server (client only). */
  restartServer: 'appsetTools.restartServer',
  /** Quick fix: sets the `appsetTools.progressiveSyncs` override for the server session. Args: ['enabled' | 'disabled' | 'auto']. */
  setProgressiveSyncs: 'appsetTools.setProgressiveSyncs',
  /** The preview YAML as text, nothing shown. Args: [documentUri, offset?]. */
  preview: 'appsetTools.preview',
  /** The RollingSync plan as text, nothing shown. Args: [documentUri, offset?]. */
  rolloutPlan: 'appsetTools.rolloutPlan',
  /** Opens a file at a character offset (the server asks the editor with window/showDocument). Args: [absolute path or URI, offset]. */
  openLocation: 'appsetTools.openLocation',
  /**
   * Lens: "This change", the impact of the uncommitted change against the baseline. Args: [documentUri, offset?].
   * Returns the breakdown as text; the server also shows the lens's line. The VS Code client opens a diff view instead.
   */
  showChange: 'appsetTools.showChange',
} as const;
export type CommandId = (typeof Commands)[keyof typeof Commands];

/** The commands the server executes (advertised in `executeCommandProvider`). */
export const SERVER_COMMANDS: readonly CommandId[] = [
  Commands.showPreview,
  Commands.showRollout,
  Commands.setProgressiveSyncs,
  Commands.preview,
  Commands.rolloutPlan,
  Commands.openLocation,
  Commands.showChange,
];

/** Custom request methods; `RequestTypes` binds each to its params and result. */
export const Requests = {
  /** The preview of generated Applications. */
  preview: 'appsetTools/preview',
  /** The RollingSync plan of the ApplicationSet at the offset. */
  rolloutPlan: 'appsetTools/rolloutPlan',
  /** The ApplicationSets of a document and whether their controller runs progressive syncs. */
  fileInfo: 'appsetTools/fileInfo',
  /** The generated Applications of the ApplicationSet at the offset at the baseline and now, for a diff view. */
  changeTexts: 'appsetTools/changeTexts',
  /** What the uncommitted change does to the ApplicationSet at the offset, for the rollout view's "This change" section. */
  changeSummary: 'appsetTools/changeSummary',
} as const;
export type RequestMethod = (typeof Requests)[keyof typeof Requests];

/**
 * Every custom request's params and result. The client sends through `client/src/request.ts` and the
 * server registers through `lsp/handlers/requests.ts`, both typed by this table, so a request sent
 * or answered with the wrong params or result does not compile (test/unit/protocol.test.ts).
 */
export interface RequestTypes {
  [Requests.preview]: { params: DocumentRequestParams; result: PreviewResult | null };
  [Requests.rolloutPlan]: { params: DocumentRequestParams; result: RolloutPlan | null };
  [Requests.fileInfo]: { params: DocumentRequestParams; result: FileInfo | null };
  [Requests.changeTexts]: { params: DocumentRequestParams; result: ChangeTexts | null };
  [Requests.changeSummary]: { params: DocumentRequestParams; result: ChangeSummary | null };
}

/** The change to one ApplicationSet against the baseline, as the rollout view shows it (null: nothing changed, outside git). */
export interface ChangeSummary {
  name: string;
  /** What it is compared with: `HEAD (1a2b3c4)`. */
  baseline: string;
  /** The lens's line: `This change: …`. */
  summary: string;
  /** The rollout timeline's one line at the baseline and now. */
  timeline: { before?: string; after?: string };
  /** Each step's Applications at the baseline and now (RollingSync on either side). */
  steps: { step: number; selector: string; before: number; after: number }[];
  /** Steps that selected Applications and select none now. */
  emptied: number[];
  /** Applications that move between steps: name, from, to (0: no step). */
  moved: { name: string; from: number; to: number }[];
  /** Applications no longer generated: whether they and their resources are deleted, and why. */
  deletions: { name: string; application: 'deleted' | 'kept'; resources: 'deleted' | 'kept'; why: string }[];
  /** Why the change is not known (no git history in VS Code for the Web, a baseline that cannot be read); the rest is empty. */
  unknown?: string;
}

/** Both sides of a change to one ApplicationSet (null result: outside git, nothing changed, baseline not known). */
export interface ChangeTexts {
  /** The ApplicationSet's name. */
  name: string;
  /** What it is compared with: `HEAD (1a2b3c4)`. */
  baseline: string;
  /** The lens's line: `This change: …`. */
  summary: string;
  /** Its generated Applications at the baseline and now, as YAML documents by name. */
  before: string;
  after: string;
}
export type RequestParams<M extends RequestMethod> = RequestTypes[M]['params'];
export type RequestResult<M extends RequestMethod> = RequestTypes[M]['result'];

/** Server → client notifications. */
export const Notifications = {
  /** Something the lenses and diagnostics depend on changed (another file, settings): views should ask again. No params. */
  resultsChanged: 'appsetTools/resultsChanged',
  /**
   * Client to server: the text of an open document the server is not sent as a document (the VS Code client
   * syncs YAML only), for a file the engine may read (a git generator's `config.json`). `InputDocumentParams`:
   * `text` on open and on each change, none when the tab closes. Its unsaved text then counts (issue 41).
   */
  inputDocument: 'appsetTools/inputDocument',
} as const;

/** Params of `appsetTools/inputDocument`. */
export interface InputDocumentParams {
  uri: string;
  /** The tab's text; absent when it closed (the file on disk counts again). */
  text?: string;
}

/** One ApplicationSet of a document, for the editor's status bar and context keys. */
export interface FileInfoAppSet {
  name: string;
  /** Character offsets of its YAML document. */
  start: number;
  end: number;
  /** A RollingSync strategy with steps is written. */
  rollingSync: boolean;
  /** Progressive syncs on the controller that runs it. */
  enablement: {
    state: EnablementState;
    /** One line: `Progressive syncs enabled by argocd/argocd-cmd-params-cm.yaml:12`, `Ignored: progressive syncs are off, …` (the plan's verdict sentence). */
    text: string;
    /** The verdict's word for the status bar: `enabled`, `not deployed yet`, `unknown`, `off`. */
    label: string;
    /** Which install, and why it was chosen. */
    instance?: string;
    /** The file (absolute path) and offset that decided, when a file did. */
    file?: string;
    offset?: number;
    /** The install model's lines for the install(s) that run it (version, settings, file:line), as `appset instances` prints them. */
    install?: string[];
  };
}

export interface FileInfo {
  appsets: FileInfoAppSet[];
}

/** Params of every document request: the document, and an offset inside the ApplicationSet wanted (else the first). */
export interface DocumentRequestParams {
  uri: string;
  offset?: number;
  /**
   * The version of the open document the client saw: the server answers that version or a newer one,
   * waiting briefly for its didChange (a client may ask right after an edit, before the change arrives).
   */
  version?: number;
}

/** Result of `appsetTools/preview` (null when the document holds no ApplicationSet). */
export interface PreviewResult {
  /** The ApplicationSet's metadata.name ('' with `cannot`). */
  name: string;
  /**
   * Why no Application is shown, when it is known: a Helm chart template whose render cannot be
   * reproduced here (the sentence `appset render` prints). `yaml` then says it as a comment, and `apps` is 0.
   */
  cannot?: string;
  /** Every generated Application as multi-document YAML, with a header saying how exact it is. */
  yaml: string;
  /** Number of Applications. */
  apps: number;
  notes: string[];
  exact: boolean;
  /** The document's first YAML syntax error (`line 12: …`): the preview is of what could be read (the client keeps the last good one, marked stale). */
  broken?: string;
}

/** URI scheme of the read-only preview documents the VS Code client opens. */
export const PREVIEW_SCHEME = 'appset-preview';

/** The scheme of the two sides of the "This change" diff view (client/src/changeDiff.ts). */
export const CHANGE_SCHEME = 'appset-change';

/*
 * The RollingSync plan as the rollout view, the CLI (`appset plan --output json`) and the code
 * lenses consume it. CONTRACT: JSON-serialisable; fields may be added, none renamed.
 */
export type EnablementState = 'enabled' | 'disabled' | 'not-found';

export interface EnablementEvidence {
  /** Absolute path of the file that configures it (or 'setting' for the override). */
  file: string;
  /** Character span in that file, when known. */
  span?: { start: number; end: number };
  /** What was found, in plain words, e.g. `argocd-cmd-params-cm sets applicationsetcontroller.enable.progressive.syncs: "false"`. */
  description: string;
  /** What this piece of evidence says. */
  effect: 'enables' | 'disables' | 'ignored';
  /** Workspace-relative path and 1-based line, e.g. `argocd/argocd-cmd-params-cm.yaml:10` (display only). */
  where?: string;
}

/** The Argo CD instance an ApplicationSet was matched to, and why. */
export interface EnablementInstance {
  /** Workspace-relative install folder(s) or mapping name; '' when no install governs the file. */
  name: string;
  namespace?: string;
  /** Plain words: `installed beside it in argocd/`, `mapped in appsetTools.instances ("prod")`. */
  why: string;
  /** Installs were found, but none runs this ApplicationSet (`why` names them and says why not). */
  rejected?: true;
  /** Chosen by the instances mapping (`.appset-tools.yaml` / `appsetTools.instances`, `--instance`), not found by path. */
  mapped?: true;
}

export interface Enablement {
  state: EnablementState;
  /** 'setting' when the appsetTools.progressiveSyncs override decided. */
  source: 'detected' | 'setting';
  evidence: EnablementEvidence[];
  /** Where detection looked when nothing was found (file kinds / paths), for the warning text. */
  searched: string[];
  /** Which instance's configuration was read (absent for workspace-wide answers). */
  instance?: EnablementInstance;
  /** The evidence that decided (the first enabling one, or the first disabling one), when any. */
  decidedBy?: EnablementEvidence;
  /** Plain-words notes on the decision, e.g. installs left out for their namespace. */
  notes?: string[];
  /**
   * Configuration of the install that exists but was not read (a remote kustomize base, a file the
   * workspace index skipped, entries past the install model's bound), each with why. The verdict is then
   * unknown (`state` is 'not-found'), whatever the configuration read says (`partial`).
   */
  unread?: string[];
  /**
   * With `unread`: what the configuration that was read says (`enabled` by `where`, or `disabled`), which
   * is not the answer, since what was not read may say otherwise.
   */
  partial?: { state: 'enabled' | 'disabled'; where?: string };
  /**
   * With `unread` (which holds the same sentence): which install runs it cannot be decided, and the installs
   * it may be say different things (a bootstrap and the install the repository deploys: install/supersession.ts).
   */
  undecided?: string;
  /**
   * Written but not deployed: the enabling configuration that nothing deploys, and what is missing
   * (`argocd/argocd-cmd-params-cm.yaml is not part of argocd/kustomization.yaml: …`).
   */
  undeployed?: string;
}

/**
 * Whether the controller honours a RollingSync strategy, worded once (engine/rollout/describe.ts `verdictOf`)
 * for every front: the lens, the warning, the hover, the rollout view, the status bar and `appset plan`.
 */
export interface Verdict {
  kind: 'enabled' | 'not-deployed' | 'unknown' | 'ignored';
  /** The status bar's word after "Progressive syncs:": `enabled`, `not deployed yet`, `unknown`, `off`. */
  label: string;
  /** The one sentence, consequence first: `Not deployed yet: …. Until then, progressive syncs are off, so all 13 Applications sync at once`. */
  sentence: string;
  /** Why, when not enabled (the sentence after it): `Nothing in the configuration of … enables them, …`. */
  reason?: string;
  /** The lens over `strategy:` (within 40 characters): `Not deployed yet · 13 apps at once`. */
  lens: string;
}

export interface PlanWave {
  /** 1-based wave number within the step. */
  wave: number;
  apps: string[];
}

export interface PlanStep {
  /** 1-based step number. */
  step: number;
  /** Human form of the step's matchExpressions, e.g. `tier In (canary)`. */
  selector: string;
  /** Applications selected by this step (name order). */
  apps: string[];
  /** maxUpdate as written (undefined when absent). */
  maxUpdate?: number | string;
  /** Effective number of Applications synced at the same time (Infinity → null in JSON = unlimited). */
  concurrency: number | null;
  /** True when maxUpdate resolves to 0: the step is a manual gate. */
  manual: boolean;
  waves: PlanWave[];
  /** Number of Applications the percentage of maxUpdate is taken of (step 1 also counts the unselected ones). */
  percentageBase?: number;
  /** The controller's error when maxUpdate is neither an integer nor `<int>%` (then 1 at a time). */
  maxUpdateError?: string;
  /** Applications this step also selects but an earlier step already synced. */
  syncedEarlier?: string[];
  /** Invalid Applications of this step: never created, so the step never completes and the rollout stops. */
  blockedBy?: string[];
  /** AppProject sync windows that can park this step's syncs (each parked Application holds a maxUpdate slot). */
  syncWindows?: PlanWindow[];
}

/** A sync window of an AppProject that can keep some of a step's Applications from syncing. */
export interface PlanWindow {
  /** The AppProject's name. */
  project: string;
  /** `deny` or `allow` as written. */
  kind: string;
  schedule: string;
  duration: string;
  timeZone?: string;
  /** Set when Go cannot load `timeZone`: the controller logs it and reads the window in UTC. */
  timeZoneProblem?: string;
  /** Absolute path of the AppProject's file, and the window's span in it. */
  file: string;
  span?: { start: number; end: number };
  /** Workspace-relative path and 1-based line of the window (display only). */
  where: string;
  /** The step's Applications it can hold. */
  apps: string[];
  /** Set when the controller cannot parse the window: then it blocks every sync of these Applications. */
  problem?: string;
  manualSync?: boolean;
  syncOverrun?: boolean;
}

export interface RolloutPlan {
  appset: string;
  strategy: 'AllAtOnce' | 'RollingSync';
  /** The Applications the controller creates (those it skips, `skipped`, are not counted). */
  totalApps: number;
  /**
   * Generated Applications the controller refuses to create (its validation: duplicate or invalid name,
   * unknown AppProject, invalid destination), each with the first reason; absent when none.
   */
  skipped?: { name: string; reason: string }[];
  steps: PlanStep[];
  /** Applications selected by no step (never synced by the rollout). */
  unselected: string[];
  /** Applications selected by several steps: name → 1-based step numbers. */
  duplicates: Record<string, number[]>;
  totalWaves: number;
  enablement: Enablement;
  /** Whether the controller honours the strategy, in the words every front shows (read with the enablement). */
  verdict: Verdict;
  /** True when the controller will actually run this RollingSync (enabled and at least one step). */
  effective?: boolean;
  /** Distinct destination clusters of the Applications. */
  clusters?: number;
  /** Per Application (editor views only): where it goes and where its parameters came from. */
  apps?: Record<string, PlanApp>;
  /** 1-based step whose YAML holds the requested offset (editor views only). */
  focusStep?: number;
  /** The label keys the steps select on, in order of first use (editor views only: the view counts Applications by them). */
  labelKeys?: string[];
  /** The expected order and duration at an assumed time per sync, and where the rollout stops (engine/rollout/timeline.ts). */
  timeline?: RolloutTimeline;
  /** Operators other than In/NotIn, one per (1-based step, operator), as the controller records them. */
  invalidOperators?: { step: number; operator: string }[];
}

// The rollout timeline (computed by engine/rollout/timeline.ts; every front shows these words).
export type TimelineStopKind = 'manual-gate' | 'sync-window' | 'blocked';

/** A place where the rollout stops or can stop, and for how long when that is known. */
export interface TimelineStop {
  step: number;
  kind: TimelineStopKind;
  /** Plain words, consequence first: `waits for someone to sync its 10 Applications by hand`. */
  text: string;
  /** The longest it can hold the rollout, in minutes (a deny window: its duration); absent when unknown or forever. */
  maxMinutes?: number;
  /** True when the rollout never gets past it (an invalid Application, a window the controller cannot parse). */
  forever?: boolean;
  /** The window's `file:line` (sync windows). */
  where?: string;
}

export interface TimelineStep {
  step: number;
  selector: string;
  /** Applications this step syncs (those an earlier step already synced left out). */
  apps: number;
  waves: number;
  /** Minutes of syncing before this step starts, when every sync takes `minutesPerSync` (time spent at stops not counted). */
  start: number;
  /** Its own syncing time: waves × minutesPerSync (0 for a manual gate or an empty step). */
  minutes: number;
  /** Where it stops at this step, if anywhere. */
  stops: TimelineStop[];
  /** Display: `+0:10` (the start), `3 waves, about 9 min` / `selects nothing, skipped` / `synced by hand` (every front shows these words). */
  at: string;
  takes: string;
}

export interface RolloutTimeline {
  /** The assumed minutes one sync takes (the `minutesPerSync` setting). */
  minutesPerSync: number;
  /** `rolling` (RollingSync honoured), `all-at-once` (AllAtOnce), `ignored` (RollingSync the controller ignores: all at once). */
  mode: 'rolling' | 'all-at-once' | 'ignored';
  steps: TimelineStep[];
  /** Waves one after another (all at once: 1). */
  waves: number;
  /** Syncing time of the whole rollout, stops not counted. */
  minutes: number;
  /** Every stop, in order. */
  stops: TimelineStop[];
  /** `completes` (nothing stops it), `can-stop` (a window or gate holds it for a while), `never-completes`. */
  ends: 'completes' | 'can-stop' | 'never-completes';
  /** Applications the rollout never syncs (selected by no step). */
  neverSynced: number;
  /** One line: `6 waves, about 18 min at 3 min a sync; stops at step 2 (manual gate)`. */
  summary: string;
  /** What the numbers assume, said every time they are shown. */
  assumptions: string[];
  /**
   * Argo CD 3.6 and newer: the refresh gate before the first step after a change to existing Applications
   * (not for a new ApplicationSet): at least `minSeconds` after the latest change, then no upper bound until
   * every Application has reconciled. Not counted in the clock (`+0:00` is when it opens).
   */
  refreshGate?: { minSeconds: number; text: string };
}

/** One Application in the editor's rollout view. */
export interface PlanApp {
  /** `https://10.0.0.1:6443 / shop` (server or name, then namespace). */
  destination: string;
  /** Where its parameter set came from: a list element in this file or a cluster Secret's file. */
  source?: { file: string; offset: number; label: string };
  /** The destination cluster: the cluster Secret's name when a cluster generator gave it, else the server or name written. */
  cluster?: string;
  /** The Application's labels as rendered (the view filters and counts by them). */
  labels?: Record<string, string>;
}

/**
 * VS Code for the Web: the language server runs in a web worker and reads the workspace through its
 * client, which reads it with VS Code's file system API (client/src/web/). The server sees every
 * document and file as a `file:` URI whose path is `/@<scheme>/<authority>/<path>` for a workspace
 * of another scheme (`vscode-vfs://github/owner/repo/a.yaml` → `/@vscode-vfs/github/owner/repo/a.yaml`),
 * so the engine's paths stay plain absolute paths; `file:` documents keep their own path.
 */
export const WEB_PATH_MARK = '@';

/** The server's path of a resource of the workspace: `scheme`, `authority` and `path` of its URI. */
export function webPathOf(scheme: string, authority: string, path: string): string {
  if (scheme === 'file') return path;
  return `/${WEB_PATH_MARK}${encodeURIComponent(scheme)}/${encodeURIComponent(authority) || '-'}${path.startsWith('/') ? path : '/' + path}`;
}

/** The scheme, authority and path of the resource a server path names (the inverse of webPathOf). */
export function resourceOfWebPath(p: string): { scheme: string; authority: string; path: string } {
  const m = new RegExp(`^/${WEB_PATH_MARK}([^/]+)/([^/]+)(/.*)?$`).exec(p);
  if (!m) return { scheme: 'file', authority: '', path: p };
  const authority = m[2] === '-' ? '' : decodeURIComponent(m[2]);
  return { scheme: decodeURIComponent(m[1]), authority, path: m[3] ?? '/' };
}

/**
 * The `file:` URI of a server path, encoded as Node's `pathToFileURL` encodes it (the web worker's
 * `node:url` shim and the web client both use this), so both sides name a document the same way.
 */
export function fileUriOfPath(p: string): string {
  const url = new URL('file:///');
  // The URL parser keeps `%` as written and cuts at `?` and `#`: encode them first, as Node does.
  url.pathname = p
    .replace(/%/g, '%25')
    .replace(/\\/g, '%5C')
    .replace(/\n/g, '%0A')
    .replace(/\r/g, '%0D')
    .replace(/\t/g, '%09')
    .replace(/\?/g, '%3F')
    .replace(/#/g, '%23')
    .replace(/\[/g, '%5B')
    .replace(/\]/g, '%5D')
    .replace(/~/g, '%7E')
    .replace(/\^/g, '%5E')
    .replace(/\|/g, '%7C');
  return url.href;
}

/** Server → client requests of the web worker: the workspace's folders and files. */
export const ClientRequests = {
  /** The entries of a folder. Params: { path } (a server path). Result: WebDirectoryEntry[] | null (not a folder, not readable). */
  readDirectory: 'appsetTools/web/readDirectory',
  /** A file's text. Params: { path, maxBytes }. Result: WebFileResult. */
  readFile: 'appsetTools/web/readFile',
} as const;

export interface WebDirectoryEntry {
  name: string;
  kind: 'file' | 'directory' | 'other';
}

/** A file read by the client: its UTF-8 text, or why it was not read (missing, too large, not text). */
export interface WebFileResult {
  text?: string;
  size?: number;
  skipped?: 'missing' | 'too-large' | 'not-text' | 'unreadable';
}
