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
}

export interface Enablement {
  state: EnablementState;
  /** 'setting' when the appsetTools.progressiveSyncs override decided. */
  source: 'detected' | 'setting';
  evidence: EnablementEvidence[];
  /** Where detection looked when nothing was found (file kinds / paths), for the warning text. */
  searched: string[];
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
}
