/**
 * Label selector checks: the generators' post-selector (`selector`, Argo CD `applicationset/utils/selector.go`,
 * a copy of the Kubernetes label selector), the cluster generator's `selector` and the
 * clusterDecisionResource `labelSelector` (Kubernetes `LabelSelectorAsSelector`). Invalid ones fail the generator.
 */
import type { EngineDiagnostic, Json } from '../../types';
import { spanAt, type AppSetDoc, type JsonPath } from '../../yaml';
import { suggest } from '../../didYouMean';
import { isObj as isObject, own } from '../../objects';
import { diag } from './util';
import { SELECTOR_OPERATORS, labelKeyProblems, plainText } from '../../rules/kubernetes';

const OPERATORS: readonly string[] = SELECTOR_OPERATORS;
const MAX_EXPRESSIONS = 1000;

/** Why a label key is invalid, in plain words (the first problem Kubernetes reports), or undefined. */
export function qualifiedNameProblem(key: string): string | undefined {
  const first = labelKeyProblems(key)[0];
  return first && plainText(first);
}

export function checkLabelSelector(doc: AppSetDoc, path: JsonPath, selector: Json | undefined, what: string): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  if (!isObject(selector)) return out;
  // Selectors of generators inside a matrix may be templated by the first child's parameters.
  const templated = (s: string) => s.includes('{{');
  const labels = own(selector, 'matchLabels');
  if (isObject(labels)) {
    for (const key of Object.keys(labels)) {
      const problem = templated(key) ? undefined : qualifiedNameProblem(key);
      if (problem)
        out.push(
          diag(
            'appset/selector-key',
            `${what} key "${key}" is not a valid label key: ${problem}`,
            spanAt(doc.doc, [...path, 'matchLabels', key], 'key'),
          ),
        );
    }
  }
  const exprs = own(selector, 'matchExpressions');
  if (!Array.isArray(exprs)) return out;
  exprs.slice(0, MAX_EXPRESSIONS).forEach((e: Json, i: number) => {
    if (!isObject(e)) return;
    const ePath = [...path, 'matchExpressions', i];
    const key = own(e, 'key');
    const op = own(e, 'operator');
    const values = own(e, 'values');
    if (typeof key === 'string' && !templated(key)) {
      const problem = qualifiedNameProblem(key);
      if (problem)
        out.push(
          diag('appset/selector-key', `${what} key "${key}" is not a valid label key: ${problem}`, spanAt(doc.doc, [...ePath, 'key'])),
        );
    }
    if (typeof op !== 'string') return;
    if (!OPERATORS.includes(op)) {
      const hint = suggest(op, OPERATORS);
      out.push(
        diag(
          'appset/selector-operator',
          `"${op}" is not a valid ${what} operator; use In, NotIn, Exists or DoesNotExist${hint ? ` (did you mean "${hint}"?)` : ''}`,
          spanAt(doc.doc, [...ePath, 'operator']),
          {
            data: hint ? { replacement: hint } : undefined,
          },
        ),
      );
      return;
    }
    const count = Array.isArray(values) ? values.length : 0;
    if ((op === 'In' || op === 'NotIn') && count === 0) {
      out.push(
        diag(
          'appset/selector-values',
          `the ${op} operator needs at least one value`,
          spanAt(doc.doc, Array.isArray(values) ? [...ePath, 'values'] : [...ePath, 'operator']),
        ),
      );
    }
    if ((op === 'Exists' || op === 'DoesNotExist') && count > 0) {
      out.push(
        diag('appset/selector-values', `the ${op} operator takes no values; remove "values"`, spanAt(doc.doc, [...ePath, 'values'], 'key')),
      );
    }
  });
  return out;
}
