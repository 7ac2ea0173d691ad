/**
 * Runs one generator kind. Terminal generators are looked up here; matrix and merge call back into
 * `runGenerator` for their children. Post-selectors are applied by `runWithSelector`.
 */
import type { JsonPath } from '../yaml/document';
import { generateClusters } from './clusters';
import { generateGit } from './git';
import { generateList } from './list';
import { generateLive } from './live';
import { generateMatrix } from './matrix';
import { generateMerge } from './merge';
import { flatten, isObject, type ParamSet } from './params';
import { matchesSelector, selectorError, SelectorError } from './selector';
import { has } from '../versions/gates';
import { GeneratorError, noteEmpty, type GenContext, type Generate } from './types';
import { COMBINING_KINDS, isGeneratorKind, kindsOf, type GeneratorKind } from '../rules/generators';

const TABLE: Record<GeneratorKind, Generate> = {
  list: generateList,
  clusters: generateClusters,
  git: generateGit,
  scmProvider: generateLive,
  clusterDecisionResource: generateLive,
  pullRequest: generateLive,
  plugin: generateLive,
  matrix: generateMatrix,
  merge: generateMerge,
};

export { GENERATOR_KINDS, kindsOf } from '../rules/generators';

/**
 * The kinds of a matrix/merge child. Inside a matrix/merge that is itself nested, children are
 * decoded as terminal generators, so their matrix/merge fields vanish.
 */
export function childKinds(child: unknown, ctx: GenContext): string[] {
  const kinds = kindsOf(child);
  return (ctx.depth ?? 0) >= 1 ? kinds.filter((k) => !COMBINING_KINDS.includes(k)) : kinds;
}

export function runGenerator(kind: string, spec: unknown, ctx: GenContext, path: JsonPath): ParamSet[] {
  const gen = isGeneratorKind(kind) ? TABLE[kind] : undefined;
  if (!gen) throw new GeneratorError(`unknown generator ${kind}`, path);
  return gen(isObject(spec) ? spec : {}, ctx, path);
}

/**
 * Runs a generator entry's one kind and applies the entry's post-selector. As in Transform
 * (`generator_spec_processor.go`), the selector is parsed before the generator runs.
 */
export function runWithSelector(entry: Record<string, unknown>, kind: string, ctx: GenContext, path: JsonPath): ParamSet[] {
  // Before Argo CD 3.0 the selectors of a nested matrix/merge's generators are dropped unless
  // spec.applyNestedSelectors (v2.x matrix.go/merge.go dropDisabledNestedSelectors).
  const sel = ctx.dropNestedSelectors && (ctx.depth ?? 0) >= 2 ? undefined : entry.selector;
  const bad = selectorError(sel, false);
  if (bad) throw new GeneratorError(`error parsing label selector: ${bad}`, [...path, 'selector']);
  const params = runGenerator(kind, entry[kind], ctx, [...path, kind]);
  if (!isObject(sel)) {
    ctx.counts.set(path.join('/'), params.length);
    return params;
  }
  try {
    // Before Argo CD 3.4 the flattening left Go map[string]string values (cluster labels, values) whole.
    const stringMapsWhole = !has(ctx.version, 'postSelectorStringMaps');
    const kept = params.filter((p) => matchesSelector(sel, flatten(p, false, stringMapsWhole)));
    ctx.counts.set(path.join('/'), kept.length);
    if (params.length && !kept.length)
      noteEmpty(
        ctx,
        [...path, 'selector'],
        `the selector keeps 0 of the ${params.length} parameter set${params.length === 1 ? '' : 's'} the ${kind} generator produces`,
      );
    return kept;
  } catch (e) {
    if (e instanceof SelectorError) throw new GeneratorError(`error parsing label selector: ${e.message}`, [...path, 'selector']);
    throw e;
  }
}
