/**
 * Label selectors: the cluster generator's `selector` over cluster Secret labels (standard
 * Kubernetes selector) and the post-`selector` of any generator over the flattened parameters
 * (Argo CD `applicationset/utils/selector.go`, a copy of the Kubernetes selector without label
 * value validation). `NotIn` and `DoesNotExist` match when the key is absent.
 */
import { has } from './params';
import { isObj } from '../objects';
import { SELECTOR_OPERATORS, controllerText, labelKeyProblems, labelValueProblems } from '../rules/kubernetes';

export class SelectorError extends Error {}

export interface LabelSelector {
  matchLabels?: Record<string, unknown>;
  matchExpressions?: { key?: unknown; operator?: unknown; values?: unknown }[];
}

export function isEmptySelector(sel: unknown): boolean {
  if (!isObj(sel)) return true;
  const ml = sel.matchLabels;
  const me = sel.matchExpressions;
  return (!isObj(ml) || Object.keys(ml).length === 0) && (!Array.isArray(me) || me.length === 0);
}

/** Kubernetes IsQualifiedName messages (k8s.io/apimachinery validation), for a label key. */
function keyErrors(key: string): string[] {
  return labelKeyProblems(key).map(controllerText);
}

const goQuote = (s: string) => JSON.stringify(s);
/**
 * A selector value as text: a string as it is, anything else (a mapping or list where the CRD wants a
 * string, which the API server rejects) as the JSON the user wrote, never "[object Object]".
 */
const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const goStrings = (v: string[]) => (v.length ? `[]string{${v.map(goQuote).join(', ')}}` : '[]string(nil)');

/**
 * The controller's selector parsing errors (`applicationset/utils/selector.go` newRequirement; the
 * cluster generator uses the standard Kubernetes parser `metav1.LabelSelectorAsSelector`, which also
 * validates label values and names the operator error "label selector" instead of "pod selector").
 * Returns the first failing requirement's aggregated message, or undefined.
 */
export function selectorError(sel: unknown, validateValues: boolean): string | undefined {
  if (!isObj(sel)) return undefined;
  const reqs: { key: string; op: string; values: string[] }[] = [];
  if (isObj(sel.matchLabels)) for (const [k, v] of Object.entries(sel.matchLabels)) reqs.push({ key: k, op: '=', values: [text(v)] });
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions) {
      if (!isObj(e)) continue;
      const op = text(e.operator);
      if (!(SELECTOR_OPERATORS as readonly string[]).includes(op))
        return `${goQuote(op)} is not a valid ${validateValues ? 'label' : 'pod'} selector operator`;
      reqs.push({ key: text(e.key), op, values: Array.isArray(e.values) ? e.values.map(text) : [] });
    }
  }
  for (const r of reqs) {
    const errs = keyErrors(r.key).map((m) => `key: Invalid value: ${goQuote(r.key)}: ${m}`);
    if ((r.op === 'In' || r.op === 'NotIn') && !r.values.length)
      errs.push(`values: Invalid value: ${goStrings(r.values)}: for 'in', 'notin' operators, values set can't be empty`);
    if ((r.op === 'Exists' || r.op === 'DoesNotExist') && r.values.length)
      errs.push(`values: Invalid value: ${goStrings(r.values)}: values set must be empty for exists and does not exist`);
    if (validateValues) {
      r.values.forEach((v, i) => {
        const m = labelValueProblems(v).map(controllerText);
        if (m.length) errs.push(`values[${i}]: Invalid value: ${goQuote(v)}: ${m.join('; ')}`);
      });
    }
    if (errs.length) return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
  }
  return undefined;
}

export function matchesSelector(sel: unknown, labels: Record<string, string>): boolean {
  if (!isObj(sel)) return true;
  const get = (k: string) => (has(labels, k) ? labels[k] : undefined);
  if (isObj(sel.matchLabels)) {
    for (const [k, v] of Object.entries(sel.matchLabels)) if (get(k) !== text(v)) return false;
  }
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions) {
      if (!isObj(e)) continue;
      const key = text(e.key);
      const values = Array.isArray(e.values) ? e.values.map(text) : [];
      const v = get(key);
      switch (e.operator) {
        case 'In':
          if (!values.length)
            throw new SelectorError(`values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty`);
          if (v === undefined || !values.includes(v)) return false;
          break;
        case 'NotIn':
          if (!values.length)
            throw new SelectorError(`values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty`);
          if (v !== undefined && values.includes(v)) return false;
          break;
        case 'Exists':
          if (v === undefined) return false;
          break;
        case 'DoesNotExist':
          if (v !== undefined) return false;
          break;
        default:
          throw new SelectorError(`"${text(e.operator)}" is not a valid pod selector operator`);
      }
    }
  }
  return true;
}
