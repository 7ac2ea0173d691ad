/**
 * The matrix generator (Argo CD `applicationset/generators/matrix.go`): exactly two children; the
 * second is interpolated with each parameter set of the first; sets are combined with Go `%v`
 * stringification and a conflict check (fasttemplate) or a deep merge where the first child wins
 * (goTemplate).
 */
import { goString, deepMergeOverride, has, put, type ParamSet } from './params';
import { interpolateChild } from './interpolate';
import { kindsOf, runWithSelector } from './index';
import { GeneratorError, type Generate } from './types';

export const generateMatrix: Generate = (spec, ctx, path) => {
  const children = Array.isArray(spec.generators) ? spec.generators : [];
  if (children.length < 2) throw new GeneratorError('found less than two generators, Matrix support only two', [...path, 'generators']);
  if (children.length > 2) throw new GeneratorError('found more than two generators, Matrix support only two', [...path, 'generators']);
  const first = childParams(children[0], ctx, [...path, 'generators', 0], undefined, 'error failed to get params for first generator in matrix generator: ');
  const out: ParamSet[] = [];
  for (const a of first) {
    const second = childParams(children[1], ctx, [...path, 'generators', 1], a, 'failed to get params for second generator in the matrix generator: ');
    for (const b of second) {
      out.push(ctx.goTemplate ? deepMergeOverride(b, a) : combineStrings(a, b, [...path, 'generators']));
      if (out.length > ctx.maxParams) throw new GeneratorError(`the matrix produces more than appsetTools.maxApplications (${ctx.maxParams}) parameter sets`, path, 'generator/too-many-applications');
    }
  }
  return out;
};

function childParams(child: unknown, ctx: Parameters<Generate>[1], path: (string | number)[], with_: ParamSet | undefined, prefix: string): ParamSet[] {
  const kinds = kindsOf(child);
  if (kinds.length > 1) throw new GeneratorError(`${prefix}found more than one generator in matrix.Generators`, path);
  if (kinds.length === 0) throw new GeneratorError(`${prefix}child generator generated no parameters`, path);
  const entry = with_ && Object.keys(with_).length ? interpolateChild(child as Record<string, unknown>, kinds[0], with_, ctx, path) : (child as Record<string, unknown>);
  try {
    return runWithSelector(entry, kinds[0], ctx, path);
  } catch (e) {
    if (e instanceof GeneratorError && e.code === 'generator/error' && !e.message.startsWith(prefix)) throw new GeneratorError(`${prefix}child generator returned an error on parameter generation: ${e.message}`, e.path);
    throw e;
  }
}

/** CombineStringMaps (`applicationset/utils/map.go`): union of %v-stringified maps, conflicts fail. */
function combineStrings(a: ParamSet, b: ParamSet, path: (string | number)[]): ParamSet {
  const out: ParamSet = {};
  for (const k of Object.keys(a)) put(out, k, goString(a[k]));
  for (const k of Object.keys(b)) {
    const vb = goString(b[k]);
    if (has(out, k) && out[k] !== vb) throw new GeneratorError(`found duplicate key ${k} with different value, a: ${out[k]} ,b: ${vb}`, path);
    put(out, k, vb);
  }
  return out;
}
