/**
 * The matrix generator (Argo CD `applicationset/generators/matrix.go`): exactly two children; the
 * second is interpolated with each parameter set of the first; sets are combined with Go `%v`
 * stringification and a conflict check (fasttemplate, `utils/map.go` CombineStringMaps) or a deep
 * merge where the first child wins (goTemplate, mergo WithOverride). Error texts are wrapped the
 * way the controller wraps them, so the message matches the ApplicationSet's status condition.
 */
import { goString, deepMergeOverride, has, put, tagOrigin, type ParamSet } from './params';
import { interpolateChild } from './interpolate';
import { childKinds, runWithSelectorSteps } from './index';
import { GeneratorError, markCapped, SETS_PER_STEP, type GenContext, type Generate, type GenerateSteps } from './types';
import { runSteps } from '../steps';
import type { JsonPath } from '../yaml';

const FIRST = 'error failed to get params for first generator in matrix generator: ';
const SECOND = 'failed to get params for second generator in the matrix generator: ';
export const CHILD_ERROR = 'child generator returned an error on parameter generation: ';

export const generateMatrix: Generate = (spec, ctx, path) => runSteps(generateMatrixSteps(spec, ctx, path));

/** The matrix in steps: the second child runs once per set of the first, and sets are merged a hundred a step. */
export const generateMatrixSteps: GenerateSteps = function* (spec, ctx, path) {
  const children = Array.isArray(spec.generators) ? spec.generators : [];
  if (children.length < 2)
    throw new GeneratorError('found less than two generators, Matrix support only two', [...path, 'generators'], 'generator/error', true);
  if (children.length > 2)
    throw new GeneratorError('found more than two generators, Matrix support only two', [...path, 'generators'], 'generator/error', true);
  const first = yield* childParamsSteps(children[0], ctx, [...path, 'generators', 0], undefined, FIRST);
  const out: ParamSet[] = [];
  for (const a of first) {
    yield;
    const second = yield* childParamsSteps(children[1], ctx, [...path, 'generators', 1], a, SECOND);
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

/** getParams of matrix.go/merge.go: one child, interpolated when `with_` is non-empty, wrapped errors. */
export function childParams(child: unknown, ctx: GenContext, path: JsonPath, with_: ParamSet | undefined, prefix: string): ParamSet[] {
  return runSteps(childParamsSteps(child, ctx, path, with_, prefix));
}

/** `childParams` in steps (see GenerateSteps). */
export function* childParamsSteps(
  child: unknown,
  ctx: GenContext,
  path: JsonPath,
  with_: ParamSet | undefined,
  prefix: string,
): Generator<void, ParamSet[]> {
  const kinds = childKinds(child, ctx);
  if (kinds.length === 0) throw new GeneratorError(`${prefix}child generator generated no parameters`, path, 'generator/error', true);
  const depth = ctx.depth ?? 0;
  ctx.depth = depth + 1;
  const results: ParamSet[][] = [];
  try {
    for (const kind of kinds) {
      let entry = child as Record<string, unknown>;
      try {
        if (with_ && Object.keys(with_).length) entry = interpolateChild(entry, kind, with_, ctx, path);
        results.push(yield* runWithSelectorSteps(entry, kind, ctx, path));
      } catch (e) {
        if (e instanceof GeneratorError && e.code === 'generator/error')
          throw new GeneratorError(`${prefix}${CHILD_ERROR}${e.message}`, e.path, e.code, e.structural);
        throw e;
      }
    }
  } finally {
    ctx.depth = depth;
  }
  if (results.length > 1)
    throw new GeneratorError(`${prefix}found more than one generator in matrix.Generators`, path, 'generator/error', true);
  return results[0];
}

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
