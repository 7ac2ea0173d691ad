/**
 * Reads `spec.strategy` of an ApplicationSet document into a tolerant, typed form. Wrong types never
 * throw: they become empty values (schema validation reports them), so the planner always runs.
 * Field semantics: Argo CD `pkg/apis/application/v1alpha1/applicationset_types.go`
 * (ApplicationSetStrategy, ApplicationSetRolloutStep, ApplicationMatchExpression).
 */
import type { Json } from '../types';
import type { JsonPath } from '../yaml';
import { own } from '../objects';

export interface MatchExpression {
  key: string;
  operator: string;
  values: string[];
  /** JSON path of this expression in the document. */
  path: JsonPath;
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

const STRATEGY_PATH: JsonPath = ['spec', 'strategy'];

function obj(v: Json | undefined): { [key: string]: Json } | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

function str(v: Json | undefined): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

export function readStrategy(appset: { [key: string]: Json }): StrategySpec {
  const spec = obj(own(appset, 'spec'));
  const strategy = obj(own(spec, 'strategy'));
  const out: StrategySpec = { type: '', hasRollingSync: false, steps: [], deletionOrder: '', present: !!strategy };
  if (!strategy) return out;
  out.type = str(own(strategy, 'type'));
  out.deletionOrder = str(own(strategy, 'deletionOrder'));
  const rs = own(strategy, 'rollingSync');
  // A `rollingSync:` key with no value decodes to nil in Go: not a RollingSync strategy.
  out.hasRollingSync = !!obj(rs);
  const steps = own(obj(rs), 'steps');
  if (!Array.isArray(steps)) return out;
  steps.forEach((raw, index) => {
    const stepPath: JsonPath = [...STRATEGY_PATH, 'rollingSync', 'steps', index];
    const step = obj(raw);
    const exprs: MatchExpression[] = [];
    const me = own(step, 'matchExpressions');
    if (Array.isArray(me)) {
      me.forEach((e, i) => {
        const eo = obj(e);
        const vals = own(eo, 'values');
        exprs.push({
          key: str(own(eo, 'key')),
          operator: str(own(eo, 'operator')),
          values: Array.isArray(vals) ? vals.map((v) => str(v)) : [],
          path: [...stepPath, 'matchExpressions', i],
        });
      });
    }
    const mu = own(step, 'maxUpdate');
    const ok = typeof mu === 'number' || typeof mu === 'string';
    out.steps.push({
      index,
      matchExpressions: exprs,
      maxUpdate: ok ? (mu as number | string) : undefined,
      maxUpdateBadType: mu !== undefined && mu !== null && !ok,
      path: stepPath,
    });
  });
  return out;
}

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
