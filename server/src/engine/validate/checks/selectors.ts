/**
 * Label selector checks: the generators' post-selector (`selector`, Argo CD `applicationset/utils/selector.go`,
 * a copy of the Kubernetes label selector; research §2.7), the cluster generator's `selector` and the
 * clusterDecisionResource `labelSelector` (Kubernetes `LabelSelectorAsSelector`). Invalid ones fail the generator.
 */
import type { EngineDiagnostic, Json } from '../../types';
import { spanAt, type AppSetDoc, type JsonPath } from '../../yaml/document';
import { isObject, own, suggest } from '../describe';
import { diag } from './util';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];
const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_EXPRESSIONS = 1000;

/** Kubernetes `IsQualifiedName`: `[prefix/]name`, prefix a DNS subdomain, name ≤ 63 characters. */
export function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return 'it has more than one "/"';
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (!prefix) return 'the prefix before "/" is empty';
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) return `the prefix "${prefix}" is not a lowercase DNS subdomain`;
  }
  if (!name) return 'the name is empty';
  if (name.length > 63) return 'the name is longer than 63 characters';
  if (!NAME.test(name)) return 'it may only contain letters, digits, "-", "_" and "." and must start and end with a letter or digit';
  return undefined;
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
      if (problem) out.push(diag('appset/selector-key', `${what} key "${key}" is not a valid label key: ${problem}`, spanAt(doc.doc, [...path, 'matchLabels', key], 'key')));
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
      if (problem) out.push(diag('appset/selector-key', `${what} key "${key}" is not a valid label key: ${problem}`, spanAt(doc.doc, [...ePath, 'key'])));
    }
    if (typeof op !== 'string') return;
    if (!OPERATORS.includes(op)) {
      const hint = suggest(op, OPERATORS);
      out.push(
        diag('appset/selector-operator', `"${op}" is not a valid ${what} operator; use In, NotIn, Exists or DoesNotExist${hint ? ` (did you mean "${hint}"?)` : ''}`, spanAt(doc.doc, [...ePath, 'operator']), {
          data: hint ? { replacement: hint } : undefined,
        }),
      );
      return;
    }
    const count = Array.isArray(values) ? values.length : 0;
    if ((op === 'In' || op === 'NotIn') && count === 0) {
      out.push(diag('appset/selector-values', `the ${op} operator needs at least one value`, spanAt(doc.doc, Array.isArray(values) ? [...ePath, 'values'] : [...ePath, 'operator'])));
    }
    if ((op === 'Exists' || op === 'DoesNotExist') && count > 0) {
      out.push(diag('appset/selector-values', `the ${op} operator takes no values; remove "values"`, spanAt(doc.doc, [...ePath, 'values'], 'key')));
    }
  });
  return out;
}
