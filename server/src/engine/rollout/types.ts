/**
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
   * When nothing found enables them: the configuration that could but cannot be read offline (a
   * remote kustomize base of another repository). The verdict is then unknown, not "off".
   */
  unread?: string[];
  /**
   * Written but not deployed: the enabling configuration that nothing deploys, and what is missing
   * (`argocd/argocd-cmd-params-cm.yaml is not part of argocd/kustomization.yaml: …`).
   */
  undeployed?: string;
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
  totalApps: number;
  steps: PlanStep[];
  /** Applications selected by no step (never synced by the rollout). */
  unselected: string[];
  /** Applications selected by several steps: name → 1-based step numbers. */
  duplicates: Record<string, number[]>;
  totalWaves: number;
  enablement: Enablement;
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
  /** Operators other than In/NotIn, one per (1-based step, operator), as the controller records them. */
  invalidOperators?: { step: number; operator: string }[];
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
