/**
 * `spec.strategy` checks the CRD cannot express (Argo CD `applicationset/progressivesync/progressive_sync.go`:
 * `IsRollingSyncStrategy`, the step selection and `maxUpdate` scaling).
 */
import type { EngineDiagnostic } from '../../types';
import type { AppSetDoc } from '../../kinds';
import { fieldsOf } from '../../fields/appset';
import { suggest } from '../../didYouMean';
import { isObj, own } from '../../objects';
import { finding } from '../../diagnostics/codes';
import { knownTo } from '../../versions/fields';
import type { TargetVersion } from '../../install/target';

const STRATEGY_TYPES = ['AllAtOnce', 'RollingSync'];
const STEP_OPERATORS = ['In', 'NotIn'];
/** What the controller's percentage parser accepts: Go Atoi digits (optional sign) then `%`. */
const PERCENT = /^[+-]?\d+%$/;

/** `target`: a release that does not know deletionOrder gets only the unknown-field finding for it. */
export function checkStrategy(doc: AppSetDoc, target?: TargetVersion): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const view = fieldsOf(doc).strategy;
  const strategy = view.at.strategy.value;
  if (!isObj(strategy)) return out;
  const type = view.at.type.value;
  const rolling = view.at.rollingSync.value;

  if (typeof type === 'string' && !STRATEGY_TYPES.includes(type)) {
    const hint = suggest(type, STRATEGY_TYPES);
    out.push(
      finding(
        'appset/strategy-type',
        `strategy type "${type}" is not AllAtOnce or RollingSync (case matters); the controller silently treats it as AllAtOnce${hint ? `; did you mean "${hint}"?` : ''}`,
        view.at.type,
        { data: hint ? { replacement: hint } : undefined },
      ),
    );
  }
  if (type === 'RollingSync' && !isObj(rolling)) {
    out.push(
      finding(
        'appset/rolling-sync-ignored',
        'strategy type is RollingSync but there is no rollingSync block with steps, so every Application syncs at once',
        view.at.type,
      ),
    );
  } else if (isObj(rolling) && type !== 'RollingSync' && !(typeof type === 'string' && suggest(type, STRATEGY_TYPES) === 'RollingSync')) {
    out.push(
      finding(
        'appset/rolling-sync-ignored',
        `rollingSync is ignored because strategy type is ${type === undefined ? 'not set' : JSON.stringify(type)}; set type: RollingSync to use the steps`,
        view.at.rollingSync.keySpan,
      ),
    );
  }

  const order = !target || knownTo(['strategy', 'deletionOrder'], target.line) ? view.at.deletionOrder.value : undefined;
  if (typeof order === 'string' && !['allatonce', 'reverse'].includes(order.toLowerCase())) {
    const hint = suggest(order, ['AllAtOnce', 'Reverse']);
    out.push(
      finding(
        'appset/deletion-order',
        `deletionOrder "${order}" is not AllAtOnce or Reverse; the controller treats it as AllAtOnce${hint ? `; did you mean "${hint}"?` : ''}`,
        view.at.deletionOrder,
        {
          data: hint ? { replacement: hint } : undefined,
        },
      ),
    );
  }

  // The located fields read the steps of a rollingSync that is an object, as the controller decodes it.
  if (!isObj(rolling)) return out;
  for (const step of view.steps) {
    for (const e of step.matchExpressions) {
      const op = e.at.operator.value;
      if (typeof op !== 'string' || STEP_OPERATORS.includes(op)) continue;
      const hint = suggest(op, STEP_OPERATORS);
      out.push(
        finding(
          'appset/step-operator',
          `rollingSync steps only support the In and NotIn operators${hint ? ` (did you mean "${hint}"?)` : ''}; with "${op}" this expression fails for every Application that has the label "${String(own(e.at.expression.value, 'key') ?? '')}" and passes for those without it`,
          e.at.operator,
          { data: hint ? { replacement: hint } : undefined },
        ),
      );
    }
    const max = step.at.maxUpdate.value;
    if (typeof max === 'string' && !PERCENT.test(max)) {
      const digits = /^\s*([+-]?\d+)\s*$/.exec(max);
      const message = digits
        ? `maxUpdate "${max}" is a string without "%", which the controller cannot read and treats as 1 (one Application at a time); write ${digits[1]} without quotes for ${digits[1]} at a time, or "${digits[1]}%" for a percentage`
        : `maxUpdate "${max}" is neither an integer nor a percentage like "25%"; the controller treats it as 1 (one Application at a time)`;
      out.push(
        finding('appset/max-update', message, step.at.maxUpdate, {
          data: digits ? { replacement: digits[1] } : undefined,
        }),
      );
    }
  }
  return out;
}
