/**
 * A matrix/merge child (getParams of Argo CD `applicationset/generators/matrix.go`/`merge.go`): its
 * kinds, and its parameter sets, interpolated when `with_` is non-empty, with the controller's error
 * wrapping. The entry runner is handed in by `index.ts`, which owns the kind table, so that
 * matrix and merge never import it back.
 */
import { COMBINING_KINDS, kindsOf } from '../rules/generatorKinds';
import { interpolateChild } from './interpolate';
import type { ParamSet } from './params';
import { GeneratorError, type GenContext } from './types';
import type { JsonPath } from '../yaml';

/** Runs one generator entry's kind with its post-selector, in steps (`runWithSelectorSteps` of `index.ts`). */
export type RunEntrySteps = (entry: Record<string, unknown>, kind: string, ctx: GenContext, path: JsonPath) => Generator<void, ParamSet[]>;

export const CHILD_ERROR = 'child generator returned an error on parameter generation: ';

/**
 * The kinds of a matrix/merge child. Inside a matrix/merge that is itself nested, children are
 * decoded as terminal generators, so their matrix/merge fields vanish.
 */
export function childKinds(child: unknown, ctx: GenContext): string[] {
  const kinds = kindsOf(child);
  return (ctx.depth ?? 0) >= 1 ? kinds.filter((k) => !COMBINING_KINDS.includes(k)) : kinds;
}

/** getParams of matrix.go/merge.go in steps (see GenerateSteps): one child, interpolated when `with_` is non-empty, wrapped errors. */
export function* childParamsSteps(
  run: RunEntrySteps,
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
        results.push(yield* run(entry, kind, ctx, path));
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
