/**
 * The merge generator (Argo CD `applicationset/generators/merge.go`): the first child is the base;
 * each later child overrides the base sets that have the same merge-key values (shallow in
 * fasttemplate mode, deep merge in goTemplate mode); unmatched sets of later children are dropped.
 * Merge keys are top-level keys only. The controller's output order is Go map order (unspecified);
 * the preview keeps the base order.
 */
import { deepMergeOverride, has, put, type ParamSet } from './params';
import { kindsOf, runWithSelector } from './index';
import { GeneratorError, type Generate } from './types';

export const generateMerge: Generate = (spec, ctx, path) => {
  const children = Array.isArray(spec.generators) ? spec.generators : [];
  if (children.length < 2) throw new GeneratorError('found less than two generators, Merge requires two or more', [...path, 'generators']);
  const keys = [...new Set((Array.isArray(spec.mergeKeys) ? spec.mergeKeys : []).map(String))];
  if (!keys.length) throw new GeneratorError('no merge keys were specified, Merge requires at least one', [...path, 'mergeKeys']);
  const sets = children.map((c, i) => {
    const at = [...path, 'generators', i];
    const kinds = kindsOf(c);
    if (kinds.length > 1) throw new GeneratorError('found more than one generator in matrix.Generators', at);
    if (kinds.length === 0) throw new GeneratorError('child generator generated no parameters', at);
    return runWithSelector(c as Record<string, unknown>, kinds[0], ctx, at);
  });
  const keyOf = (p: ParamSet) => {
    const o: Record<string, unknown> = {};
    for (const k of [...keys].sort()) put(o, k, has(p, k) ? p[k] : null);
    return JSON.stringify(o);
  };
  const index = (list: ParamSet[]) => {
    const m = new Map<string, ParamSet>();
    for (const p of list) {
      const k = keyOf(p);
      if (m.has(k)) throw new GeneratorError(`the parameters from a generator were not unique by the given mergeKeys, Merge requires all param sets to be unique. Duplicate key was ${k}`, path);
      m.set(k, p);
    }
    return m;
  };
  const base = index(sets[0]);
  for (const later of sets.slice(1)) {
    for (const [k, p] of index(later)) {
      const b = base.get(k);
      if (!b) continue;
      base.set(k, ctx.goTemplate ? deepMergeOverride(b, p) : { ...b, ...shallow(p) });
    }
  }
  return [...base.values()];
};

function shallow(p: ParamSet): ParamSet {
  const o: ParamSet = {};
  for (const k of Object.keys(p)) put(o, k, p[k]);
  return o;
}
