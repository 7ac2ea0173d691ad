/** What a proposed RollingSync strategy is: its steps and pace (strategies.ts and clusterStrategy.ts make them). */
export type Pace = 'careful' | 'faster' | 'steady' | 'cluster';

export interface StrategyStep {
  /** Label values this step selects (`operator: In`). */
  values: string[];
  /** maxUpdate to write. */
  maxUpdate: number | string;
  /** Applications in the step. */
  apps: number;
}

export interface StrategyProposal {
  key: string;
  /**
   * 'app': already an Application label; 'cluster': only a cluster label (must be copied into the
   * template); 'param': a new label carrying the generator parameter `param` (written into the template).
   */
  from: 'app' | 'cluster' | 'param';
  param?: string;
  /**
   * 'careful' grows from one Application to at most maxWaveSize; 'faster' from one to half a step;
   * 'steady' (large fleets) syncs a fixed number, maxWaveSize, at a time in every step; 'cluster' is a
   * step per destination cluster, maxWaveSize at a time (clusterStrategy.ts).
   */
  pace: Pace;
  steps: StrategyStep[];
  /** `canary 1 → low-traffic 1 → high-traffic 25%`. */
  summary: string;
  /**
   * The same with each step's maxUpdate as the count it syncs at once (`canary 1 → low-traffic 45`, not
   * `25%`): what a quick fix's title says. Absent: `summary` says it already.
   */
  atOnce?: string;
  /** Largest number of Applications one wave syncs. */
  largestWave: number;
  /** Waves in all: the controller waits for each wave to be healthy before the next, so this is the rollout's length in syncs. */
  waves: number;
}
