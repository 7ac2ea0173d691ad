/**
 * Why a generator's post-selector (`selector:` beside the generator, argo-cd
 * applicationset/generators/generator_spec_processor.go: the parameter sets are flattened and held
 * against the selector) kept no parameter set, in plain words, and the one-value change that would
 * keep some: the requirement no parameter set meets, the values the parameter sets do have, and the
 * nearest of them (a misspelt value is the usual cause).
 */
import type { JsonPath } from '../yaml';
import { isObj } from '../objects';
import { matchesSelector } from './selector';
import { distance } from './why';

/** What a quick fix needs: a value to replace (with how many sets it would keep), and the selector's path for removing it. */
export interface PostSelectorFix {
  selector: JsonPath;
  total: number;
  replace?: { path: JsonPath; key: string; value: string; keeps: number };
}

const MAX_SHOWN = 5;

function keeps(sel: unknown, sets: readonly Record<string, string>[]): number {
  let n = 0;
  for (const s of sets) {
    try {
      if (matchesSelector(sel, s)) n++;
    } catch {
      return 0;
    }
  }
  return n;
}

/** One equality requirement the selector writes (a matchLabels entry, or an `In` expression's value). */
interface Requirement {
  key: string;
  value: string;
  path: JsonPath;
  /** The selector with this requirement's value swapped. */
  with: (v: string) => unknown;
}

function requirements(sel: Record<string, unknown>, at: JsonPath): Requirement[] {
  const out: Requirement[] = [];
  if (isObj(sel.matchLabels)) {
    for (const [k, v] of Object.entries(sel.matchLabels)) {
      if (typeof v !== 'string') continue;
      out.push({
        key: k,
        value: v,
        path: [...at, 'matchLabels', k],
        with: (x) => ({ ...sel, matchLabels: { ...(sel.matchLabels as object), [k]: x } }),
      });
    }
  }
  if (Array.isArray(sel.matchExpressions)) {
    sel.matchExpressions.forEach((e, i) => {
      if (!isObj(e) || e.operator !== 'In' || typeof e.key !== 'string' || !Array.isArray(e.values) || e.values.length !== 1) return;
      const v = e.values[0];
      if (typeof v !== 'string') return;
      const exprs = sel.matchExpressions as unknown[];
      out.push({
        key: e.key,
        value: v,
        path: [...at, 'matchExpressions', i, 'values', 0],
        with: (x) => ({ ...sel, matchExpressions: exprs.map((o, j) => (j === i ? { ...e, values: [x] } : o)) }),
      });
    });
  }
  return out;
}

/**
 * `the selector keeps none of the 3 parameter sets the list generator produces: none has service=carts
 * (they have cart, checkout, catalog)`, and the fix data.
 */
export function emptyPostSelectorReason(
  sel: Record<string, unknown>,
  sets: readonly Record<string, string>[],
  kind: string,
  at: JsonPath,
): { reason: string; fix: PostSelectorFix } {
  const n = sets.length;
  const head =
    n === 1
      ? `the selector leaves out the one parameter set the ${kind} generator produces`
      : `the selector keeps none of the ${n} parameter sets the ${kind} generator produces`;
  const fix: PostSelectorFix = { selector: at, total: n };
  for (const r of requirements(sel, at)) {
    if (sets.some((s) => Object.prototype.hasOwnProperty.call(s, r.key) && s[r.key] === r.value)) continue;
    const present = [...new Set(sets.map((s) => (Object.prototype.hasOwnProperty.call(s, r.key) ? s[r.key] : undefined)))].filter(
      (v): v is string => v !== undefined,
    );
    if (!present.length)
      return { reason: `${head}: no parameter set has "${r.key}" (the selector matches the parameters, flattened)`, fix };
    const shown = present.slice(0, MAX_SHOWN).join(', ') + (present.length > MAX_SHOWN ? `, … (${present.length})` : '');
    let best: { value: string; keeps: number; d: number } | undefined;
    for (const v of present.slice(0, 500)) {
      const d = distance(r.value, v);
      if (best && d >= best.d) continue;
      const k = keeps(r.with(v), sets);
      if (k) best = { value: v, keeps: k, d };
    }
    // A near value is a likely typo: offered as the fix; a far one is only listed.
    if (best && best.d <= Math.max(2, Math.floor(r.value.length / 3))) {
      fix.replace = { path: r.path, key: r.key, value: best.value, keeps: best.keeps };
      return { reason: `${head}: none has ${r.key}=${r.value}; did you mean ${best.value}? (the values are ${shown})`, fix };
    }
    return { reason: `${head}: none has ${r.key}=${r.value} (the values are ${shown})`, fix };
  }
  return { reason: `${head}: no parameter set meets all of its requirements together`, fix };
}
