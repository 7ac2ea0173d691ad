/**
 * What the controller makes of a strategy read by `fields/strategy.ts` (the strategy's fields with
 * their places): Argo CD `applicationset/progressivesync/progressive_sync.go` (IsRollingSyncStrategy,
 * RollingSyncStrategyEnabled), and a step's selector in words.
 */
import type { RolloutStepSpec, StrategySpec } from '../fields/strategy';

export {
  readStrategy,
  type MatchExpression,
  type RolloutStepSpec,
  type StrategySpec,
  type StrategyFields,
  type RolloutStepFields,
} from '../fields/strategy';

/** `IsRollingSyncStrategy`: type exactly RollingSync and a rollingSync block (progressive_sync.go). */
export function isRollingSync(s: StrategySpec): boolean {
  return s.type === 'RollingSync' && s.hasRollingSync;
}

/** `RollingSyncStrategyEnabled`: RollingSync with at least one step (progressive_sync.go). */
export function rollingSyncWithSteps(s: StrategySpec): boolean {
  return isRollingSync(s) && s.steps.length > 0;
}

/** Human form of a step's selector: `tier In (canary) AND env NotIn (prod, qa)`; `every Application` when empty. */
export function describeSelector(step: RolloutStepSpec): string {
  if (!step.matchExpressions.length) return 'every Application';
  return step.matchExpressions.map((e) => `${e.key || '""'} ${e.operator || '""'} (${e.values.join(', ')})`).join(' AND ');
}
