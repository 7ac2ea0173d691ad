/**
 * Label selectors: the cluster generator's `selector` over cluster Secret labels (standard
 * Kubernetes selector) and the post-`selector` of any generator over the flattened parameters
 * (Argo CD `applicationset/utils/selector.go`, a copy of the Kubernetes selector without label
 * value validation). `NotIn` and `DoesNotExist` match when the key is absent.
 */
import { has, isObject } from './params';

export class SelectorError extends Error {}

export interface LabelSelector {
  matchLabels?: Record<string, unknown>;
  matchExpressions?: { key?: unknown; operator?: unknown; values?: unknown }[];
}

export function isEmptySelector(sel: unknown): boolean {
  if (!isObject(sel)) return true;
  const ml = sel.matchLabels;
  const me = sel.matchExpressions;
  return (!isObject(ml) || Object.keys(ml).length === 0) && (!Array.isArray(me) || me.length === 0);
}

export function matchesSelector(sel: unknown, labels: Record<string, string>): boolean {
  if (!isObject(sel)) return true;
  const get = (k: string) => (has(labels, k) ? labels[k] : undefined);
  if (isObject(sel.matchLabels)) {
    for (const [k, v] of Object.entries(sel.matchLabels)) if (get(k) !== String(v ?? '')) return false;
  }
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions) {
      if (!isObject(e)) continue;
      const key = String(e.key ?? '');
      const values = Array.isArray(e.values) ? e.values.map((x) => String(x)) : [];
      const v = get(key);
      switch (e.operator) {
        case 'In':
          if (!values.length) throw new SelectorError(`values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty`);
          if (v === undefined || !values.includes(v)) return false;
          break;
        case 'NotIn':
          if (!values.length) throw new SelectorError(`values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty`);
          if (v !== undefined && values.includes(v)) return false;
          break;
        case 'Exists':
          if (v === undefined) return false;
          break;
        case 'DoesNotExist':
          if (v !== undefined) return false;
          break;
        default:
          throw new SelectorError(`"${String(e.operator)}" is not a valid pod selector operator`);
      }
    }
  }
  return true;
}
