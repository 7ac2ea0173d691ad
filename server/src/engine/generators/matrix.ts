/**
 * The matrix generator (Argo CD `applicationset/generators/matrix.go`): exactly two children; the
 * second is interpolated with each parameter set of the first; sets are combined with Go `%v`
 * stringification and a conflict check (fasttemplate, `utils/map.go` CombineStringMaps) or a deep
 * merge where the first child wins (goTemplate, mergo WithOverride). Error texts are wrapped the
 * way the controller wraps them, so the message matches the ApplicationSet's status condition.
 */
import { goString, deepMergeOverride, has, put, tagOrigin, type ParamSet } from './params';
import { childParamsSteps, type RunEntrySteps } from './children';
import { GeneratorError, markCapped, SETS_PER_STEP, type GenerateSteps } from './types';
import type { JsonPath } from '../yaml';

const FIRST = 'error failed to get params for first generator in matrix generator: ';
const SECOND = 'failed to get params for second generator in the matrix generator: ';
/**
 * The matrix in steps: the second child runs once per set of the first, and sets are merged a hundred
 * a step. `run` runs a child entry (the dispatcher of `index.ts`, handed in so matrix never imports it).
 */
export const generateMatrixSteps = (run: RunEntrySteps): GenerateSteps =>
  function* (spec, ctx, path) {
    const children = Array.isArray(spec.generators) ? spec.generators : [];
    if (children.length < 2)
      throw new GeneratorError('found less than two generators, Matrix support only two', [...path, 'generators'], 'generator/error', true);
    if (children.length > 2)
      throw new GeneratorError('found more than two generators, Matrix support only two', [...path, 'generators'], 'generator/error', true);
    const first = yield* childParamsSteps(run, children[0], ctx, [...path, 'generators', 0], undefined, FIRST);
    const out: ParamSet[] = [];
    for (const a of first) {
      yield;
      const second = yield* childParamsSteps(run, children[1], ctx, [...path, 'generators', 1], a, SECOND);
      for (const b of second) {
        // At the cap the preview keeps the first sets (and says so) rather than showing nothing.
        if (out.length >= ctx.maxParams) {
          markCapped(ctx, path, 'the matrix');
          return out;
        }
        const merged = ctx.goTemplate ? deepMergeOverride(b, a) : combineStrings(a, b, [...path, 'generators']);
        out.push(tagOrigin(ctx.origins, merged, a, b));
        if (out.length % SETS_PER_STEP === 0) yield;
      }
    }
    return out;
  };

/** CombineStringMaps (`applicationset/utils/map.go`): union of %v-stringified maps, conflicts fail. */
function combineStrings(a: ParamSet, b: ParamSet, path: JsonPath): ParamSet {
  const out: ParamSet = {};
  for (const k of Object.keys(a)) put(out, k, goString(a[k]));
  for (const k of Object.keys(b)) {
    const vb = goString(b[k]);
    if (has(out, k) && out[k] !== vb)
      throw new GeneratorError(
        `failed to combine string maps with merging params for the matrix generator: found duplicate key ${k} with different value, a: ${out[k]} ,b: ${vb}`,
        path,
      );
    put(out, k, vb);
  }
  return out;
}
