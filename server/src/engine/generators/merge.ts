/**
 * The merge generator (Argo CD `applicationset/generators/merge.go`): the first child is the base;
 * each later child overrides the base sets that have the same merge-key values (shallow in
 * fasttemplate mode, deep merge in goTemplate mode); unmatched sets of later children are dropped.
 * Merge keys are top-level keys only. All children run before the merge keys are checked, as in
 * the controller. The controller's output order is Go map order (unspecified); the preview keeps
 * the base order.
 */
import { deepMergeOverride, has, put, tagOrigin, type ParamSet } from './params';
import { childParamsSteps, type RunEntrySteps } from './children';
import { goJSON } from './goJson';
import { GeneratorError, SETS_PER_STEP, type GenerateSteps } from './types';

const KEY_ERROR = 'error getting param sets by merge key: ';

/**
 * The merge in steps: a step per child, and keys indexed and sets merged a hundred a step. `run` runs
 * a child entry (the dispatcher of `index.ts`, handed in so merge never imports it).
 */
export const generateMergeSteps = (run: RunEntrySteps): GenerateSteps =>
  function* (spec, ctx, path) {
    const children = Array.isArray(spec.generators) ? spec.generators : [];
    if (children.length < 2)
      throw new GeneratorError(
        'found less than two generators, Merge requires two or more',
        [...path, 'generators'],
        'generator/error',
        true,
      );
    const sets: ParamSet[][] = [];
    for (let i = 0; i < children.length; i++) {
      sets.push(
        yield* childParamsSteps(
          run,
          children[i],
          ctx,
          [...path, 'generators', i],
          undefined,
          `error getting param sets from generators: error getting params from generator ${i + 1} of ${children.length}: `,
        ),
      );
      yield;
    }
    const keys = [
      ...new Set((Array.isArray(spec.mergeKeys) ? spec.mergeKeys : []).map((k) => (typeof k === 'string' ? k : String(k)))),
    ].sort();
    if (!keys.length)
      throw new GeneratorError(
        `${KEY_ERROR}no merge keys were specified, Merge requires at least one`,
        [...path, 'mergeKeys'],
        'generator/error',
        true,
      );
    // json.Marshal of map[string]any: keys sorted, missing keys are null.
    const keyOf = (p: ParamSet) => `{${keys.map((k) => `${goJSON(k)}:${goJSON(has(p, k) ? p[k] : null)}`).join(',')}}`;
    function* index(list: ParamSet[], at: (string | number)[]): Generator<void, Map<string, ParamSet>> {
      const m = new Map<string, ParamSet>();
      for (const [i, p] of list.entries()) {
        if ((i + 1) % SETS_PER_STEP === 0) yield;
        const k = keyOf(p);
        if (m.has(k))
          throw new GeneratorError(
            `${KEY_ERROR}the parameters from a generator were not unique by the given mergeKeys, Merge requires all param sets to be unique. Duplicate key was ${k}`,
            at,
          );
        m.set(k, p);
      }
      return m;
    }
    const base = yield* index(sets[0], [...path, 'generators', 0]);
    for (let i = 0; i < sets.length - 1; i++) {
      let n = 0;
      for (const [k, p] of yield* index(sets[i + 1], [...path, 'generators', i + 1])) {
        if (++n % SETS_PER_STEP === 0) yield;
        const b = base.get(k);
        if (!b) continue;
        base.set(k, tagOrigin(ctx.origins, ctx.goTemplate ? deepMergeOverride(b, p) : shallow(b, p), b, p));
      }
    }
    return [...base.values()];
  };

function shallow(b: ParamSet, p: ParamSet): ParamSet {
  const o: ParamSet = {};
  for (const k of Object.keys(b)) put(o, k, b[k]);
  for (const k of Object.keys(p)) put(o, k, p[k]);
  return o;
}
