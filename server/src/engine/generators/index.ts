/**
 * Runs one generator kind. Terminal generators are looked up here; matrix and merge are handed
 * `runWithSelectorSteps` to run their children (so they never import this module). Post-selectors are applied by `runWithSelector`.
 */
import type { JsonPath } from '../yaml';
import { generateClusters } from './clusters';
import { generateGit } from './git';
import { generateOci } from './oci';
import { generateListSteps } from './list';
import { generateLive } from './live';
import { generateMatrixSteps } from './matrix';
import { generateMergeSteps } from './merge';
import { flatten, type ParamSet } from './params';
import { isObj } from '../objects';
import { matchesSelector, selectorError, SelectorError } from './selector';
import { has } from '../versions/behaviours';
import { GeneratorError, noteEmpty, SETS_PER_STEP, type GenContext, type Generate, type GenerateSteps } from './types';
import { runSteps } from '../steps';
import { emptyPostSelectorReason } from './postSelectorWhy';
import { isGeneratorKind, type GeneratorKind } from '../rules/generatorKinds';

/** One go: a generator whose output is bounded by files it reads (clusters, git) or by nothing at all (live). */
const oneGo = (gen: Generate): GenerateSteps =>
  function* (spec, ctx, path) {
    return gen(spec, ctx, path);
  };

const TABLE: Record<GeneratorKind, GenerateSteps> = {
  list: generateListSteps,
  clusters: oneGo(generateClusters),
  git: oneGo(generateGit),
  scmProvider: oneGo(generateLive),
  clusterDecisionResource: oneGo(generateLive),
  pullRequest: oneGo(generateLive),
  plugin: oneGo(generateLive),
  oci: oneGo(generateOci),
  // runWithSelectorSteps is a hoisted function declaration, so it exists when the table is built.
  matrix: generateMatrixSteps(runWithSelectorSteps),
  merge: generateMergeSteps(runWithSelectorSteps),
};

export { GENERATOR_KINDS, kindsOf } from '../rules/generatorKinds';

function* runGeneratorSteps(kind: string, spec: unknown, ctx: GenContext, path: JsonPath): Generator<void, ParamSet[]> {
  const gen = isGeneratorKind(kind) ? TABLE[kind] : undefined;
  if (!gen) throw new GeneratorError(`unknown generator ${kind}`, path);
  return yield* gen(isObj(spec) ? spec : {}, ctx, path);
}

/**
 * Runs a generator entry's one kind and applies the entry's post-selector. As in Transform
 * (`generator_spec_processor.go`), the selector is parsed before the generator runs.
 */
export function runWithSelector(entry: Record<string, unknown>, kind: string, ctx: GenContext, path: JsonPath): ParamSet[] {
  return runSteps(runWithSelectorSteps(entry, kind, ctx, path));
}

/** `runWithSelector` in steps (see GenerateSteps). */
export function* runWithSelectorSteps(
  entry: Record<string, unknown>,
  kind: string,
  ctx: GenContext,
  path: JsonPath,
): Generator<void, ParamSet[]> {
  // Before Argo CD 3.0 the selectors of a nested matrix/merge's generators are dropped unless
  // spec.applyNestedSelectors (v2.x matrix.go/merge.go dropDisabledNestedSelectors).
  const sel = ctx.dropNestedSelectors && (ctx.depth ?? 0) >= 2 ? undefined : entry.selector;
  const bad = selectorError(sel, false);
  if (bad) throw new GeneratorError(`error parsing label selector: ${bad}`, [...path, 'selector']);
  const runTimeBefore = ctx.runTimeClusters?.value ?? 0;
  const params = yield* runGeneratorSteps(kind, entry[kind], ctx, [...path, kind]);
  if (!isObj(sel)) {
    ctx.counts.set(path.join('/'), params.length);
    return params;
  }
  try {
    // Before Argo CD 3.4 the flattening left Go map[string]string values (cluster labels, values) whole.
    const stringMapsWhole = !has(ctx.version, 'postSelectorStringMaps');
    const kept: ParamSet[] = [];
    const flat: Record<string, string>[] = [];
    for (let i = 0; i < params.length; i++) {
      const f = flatten(params[i], false, stringMapsWhole);
      if (matchesSelector(sel, f)) kept.push(params[i]);
      else if (!kept.length) flat.push(f);
      if ((i + 1) % SETS_PER_STEP === 0) yield;
    }
    ctx.counts.set(path.join('/'), kept.length);
    if (params.length && !kept.length) {
      const why = emptyPostSelectorReason(sel, flat, kind, [...path, 'selector']);
      // Parameter sets that come (in part) from clusters registered outside the repository: offline only
      // the in-cluster entry exists, so which sets the selector keeps at run time is not known here.
      // Information, as for a cluster selector that matches none of the repository's clusters (clusters.ts).
      const runTime = (ctx.runTimeClusters?.value ?? 0) > runTimeBefore;
      const reason = runTime
        ? `${why.reason}; the parameter sets come in part from a cluster generator, and no cluster Secret in the repository registers a cluster (they are added outside it, argocd cluster add or Terraform): at run time the registered clusters may give the sets the selector keeps`
        : why.reason;
      noteEmpty(ctx, [...path, 'selector'], reason, runTime, false, { postSelector: why.fix });
    }
    return kept;
  } catch (e) {
    if (e instanceof SelectorError) throw new GeneratorError(`error parsing label selector: ${e.message}`, [...path, 'selector']);
    throw e;
  }
}
