/**
 * `spec.strategy` of an ApplicationSet read into a tolerant, typed form whose fields carry where they
 * are written. Wrong types never throw: they become empty values (schema validation reports them), so
 * the planner always runs. Field semantics: Argo CD `pkg/apis/application/v1alpha1/applicationset_types.go`
 * (ApplicationSetStrategy, ApplicationSetRolloutStep, ApplicationMatchExpression); what the controller
 * does with them is `rollout/spec.ts` (IsRollingSyncStrategy) and `rollout/plan.ts`.
 */
import type { Json, Span } from '../types';
import type { JsonPath } from '../yaml';
import { sub, unplaced, type Field } from './place';
import { isObj } from '../objects';

export interface MatchExpression {
  key: string;
  operator: string;
  values: string[];
  /** JSON path of this expression in the document. */
  path: JsonPath;
}

/** A match expression read from a document: where it and its `operator` are written. */
export interface MatchExpressionFields extends MatchExpression {
  at: { expression: Field; operator: Field };
}

export interface RolloutStepSpec {
  /** 0-based index in `steps`. */
  index: number;
  matchExpressions: MatchExpression[];
  /** `maxUpdate` as written: a number, a string, or undefined when absent (null counts as absent). */
  maxUpdate?: number | string;
  /** True when `maxUpdate` has a type the CRD rejects (bool, object, list). */
  maxUpdateBadType: boolean;
  path: JsonPath;
}

/** A step read from a document: where it, its `matchExpressions` and its `maxUpdate` are written. */
export interface RolloutStepFields extends RolloutStepSpec {
  matchExpressions: MatchExpressionFields[];
  at: { step: Field; matchExpressions: Field; maxUpdate: Field };
}

export interface StrategySpec {
  /** `strategy.type` as written ('' when absent). */
  type: string;
  /** True when `strategy.rollingSync` is present (IsRollingSyncStrategy needs it non-nil). */
  hasRollingSync: boolean;
  steps: RolloutStepSpec[];
  deletionOrder: string;
  /** True when `spec.strategy` exists at all. */
  present: boolean;
}

/**
 * The strategy read from a document: `strategy` and its fields where they are written (the raw JSON
 * value beside each); what the plan reads is the `StrategySpec` it extends.
 */
export interface StrategyFields extends StrategySpec {
  steps: RolloutStepFields[];
  at: { strategy: Field; type: Field; rollingSync: Field; steps: Field; deletionOrder: Field };
}

const STRATEGY_PATH: JsonPath = ['spec', 'strategy'];

function str(v: Json | undefined): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

/** Reads `spec.strategy` of a bare value (tests, tools): the same reading, with no places. */
export function readStrategy(appset: { [key: string]: Json }): StrategyFields {
  return readStrategyAt(unplaced(appset));
}

/** Reads `spec.strategy` below the document's root field (`fields/place.ts` `rootField`). */
export function readStrategyAt(root: Field): StrategyFields {
  const strategyAt = sub(sub(root, 'spec'), 'strategy');
  const strategy = isObj(strategyAt.value) ? strategyAt.value : undefined;
  const rollingSyncAt = sub(strategyAt, 'rollingSync');
  const stepsAt = sub(rollingSyncAt, 'steps');
  const at = {
    strategy: strategyAt,
    type: sub(strategyAt, 'type'),
    rollingSync: rollingSyncAt,
    steps: stepsAt,
    deletionOrder: sub(strategyAt, 'deletionOrder'),
  };
  const out: StrategyFields = { type: '', hasRollingSync: false, steps: [], deletionOrder: '', present: !!strategy, at };
  if (!strategy) return out;
  out.type = str(at.type.value);
  out.deletionOrder = str(at.deletionOrder.value);
  // A `rollingSync:` key with no value decodes to nil in Go: not a RollingSync strategy.
  out.hasRollingSync = isObj(rollingSyncAt.value);
  const steps = isObj(rollingSyncAt.value) ? stepsAt.value : undefined;
  if (!Array.isArray(steps)) return out;
  steps.forEach((_, index) => {
    const stepPath: JsonPath = [...STRATEGY_PATH, 'rollingSync', 'steps', index];
    const stepAt = sub(stepsAt, index);
    const exprs: MatchExpressionFields[] = [];
    const meAt = sub(stepAt, 'matchExpressions');
    if (Array.isArray(meAt.value)) {
      meAt.value.forEach((_e, i) => {
        const exprAt = sub(meAt, i);
        const vals = sub(exprAt, 'values').value;
        const operatorAt = sub(exprAt, 'operator');
        exprs.push({
          key: str(sub(exprAt, 'key').value),
          operator: str(operatorAt.value),
          values: Array.isArray(vals) ? vals.map((v) => str(v)) : [],
          path: [...stepPath, 'matchExpressions', i],
          at: { expression: exprAt, operator: operatorAt },
        });
      });
    }
    const maxUpdateAt = sub(stepAt, 'maxUpdate');
    const mu = maxUpdateAt.value;
    const ok = typeof mu === 'number' || typeof mu === 'string';
    out.steps.push({
      index,
      matchExpressions: exprs,
      maxUpdate: ok ? (mu as number | string) : undefined,
      maxUpdateBadType: mu !== undefined && mu !== null && !ok,
      path: stepPath,
      at: { step: stepAt, matchExpressions: meAt, maxUpdate: maxUpdateAt },
    });
  });
  return out;
}

/** Where a finding about a step sits: its first key (`- matchExpressions:`), or the step itself. */
export function stepKeySpan(step: RolloutStepFields): Span {
  const me = step.at.matchExpressions;
  return me.exact && me.keyRange ? me.keyRange : step.at.step.span;
}
