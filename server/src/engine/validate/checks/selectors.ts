/**
 * Label selector checks: the generators' post-selector (`selector`, Argo CD `applicationset/utils/selector.go`,
 * a copy of the Kubernetes label selector), the cluster generator's `selector` and the
 * clusterDecisionResource `labelSelector` (Kubernetes `LabelSelectorAsSelector`). Invalid ones fail the generator.
 */
import type { EngineDiagnostic } from '../../types';
import type { SelectorFields } from '../../fields/generatorFields';
import { suggest } from '../../didYouMean';
import { isObj } from '../../objects';
import { finding } from '../../diagnostics/codes';
import { SELECTOR_OPERATORS, labelKeyProblems, plainText } from '../../rules/kubernetes';

const OPERATORS: readonly string[] = SELECTOR_OPERATORS;

/** Why a label key is invalid, in plain words (the first problem Kubernetes reports), or undefined. */
export function qualifiedNameProblem(key: string): string | undefined {
  const first = labelKeyProblems(key)[0];
  return first && plainText(first);
}

export function checkLabelSelector({ what, at, labels, expressions }: SelectorFields): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  if (!isObj(at.value)) return out;
  // Selectors of generators inside a matrix may be templated by the first child's parameters.
  const templated = (s: string) => s.includes('{{');
  for (const { key, at: keyAt } of labels) {
    const problem = templated(key) ? undefined : qualifiedNameProblem(key);
    if (problem) out.push(finding('appset/selector-key', `${what} key "${key}" is not a valid label key: ${problem}`, keyAt.keySpan));
  }
  for (const e of expressions) {
    const key = e.key.value;
    const op = e.operator.value;
    const values = e.values.value;
    if (typeof key === 'string' && !templated(key)) {
      const problem = qualifiedNameProblem(key);
      if (problem) out.push(finding('appset/selector-key', `${what} key "${key}" is not a valid label key: ${problem}`, e.key));
    }
    if (typeof op !== 'string') continue;
    if (!OPERATORS.includes(op)) {
      const hint = suggest(op, OPERATORS);
      out.push(
        finding(
          'appset/selector-operator',
          `"${op}" is not a valid ${what} operator; use In, NotIn, Exists or DoesNotExist${hint ? ` (did you mean "${hint}"?)` : ''}`,
          e.operator,
          {
            data: hint ? { replacement: hint } : undefined,
          },
        ),
      );
      continue;
    }
    const count = Array.isArray(values) ? values.length : 0;
    if ((op === 'In' || op === 'NotIn') && count === 0) {
      out.push(
        finding('appset/selector-values', `the ${op} operator needs at least one value`, Array.isArray(values) ? e.values : e.operator),
      );
    }
    if ((op === 'Exists' || op === 'DoesNotExist') && count > 0) {
      out.push(finding('appset/selector-values', `the ${op} operator takes no values; remove "values"`, e.values.keySpan));
    }
  }
  return out;
}
