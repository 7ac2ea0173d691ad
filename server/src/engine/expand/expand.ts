/**
 * Expands one ApplicationSet into the Applications the controller would create
 * (Argo CD `applicationset/controllers/template/template.go` GenerateApplications and
 * `applicationset_controller.go` validateGeneratedApplications): for every top-level generator
 * entry and every kind in it, parameter sets → rendered Application → templatePatch → namespace
 * override → validation.
 */
import type { SourceText } from '../inputs';
import { runSteps } from '../steps';
import {
  renderString,
  renderFields,
  TemplateError,
  fromJSON,
  totalBudget,
  totalSpent,
  chargeTotal,
  type GoMap,
  type RenderOptions,
} from '@appset-tools/gotemplate';
import { ownStrings, ownTemplate } from './ownStrings';
import { paramsKey } from './memoKeys';
import {
  carryParts,
  keptString,
  MAY_MODIFY,
  pruneMemo,
  templateMemo,
  type FieldRenders,
  type KeptRender,
  type RenderMemo,
  type Shown,
  type TemplateMemo,
} from './renderMemo';
import { walkFields } from './renderWalk';
import { templateErrorCode, templateErrorData } from './templateCodes';
import { isDnsSubdomain } from '../rules/kubernetes';
import type { Json, Span } from '../types';
import type { JsonPath } from '../yaml';
import type { AppSetDoc } from '../kinds';
import { fieldsOf } from '../fields/appset';
import { below } from '../fields/generatorFields';
import { sub, subPath, type Field } from '../fields/place';
import { kindsOf, runWithSelectorSteps } from '../generators/index';
import { displayParams, goString, has, put, type ParamSet } from '../generators/params';
import { isObj } from '../objects';
import { memoized } from '../memoized';
import { knownClusters, type KnownClusters } from '../generators/inventory';
import { knownProjects } from '../validate/projects';
import { GeneratorError, type GenContext } from '../generators/types';
import { mergeTemplate } from '../generators/mergeTemplate';
import { applyPatch, parsePatch, PatchError } from './patch';
import { describeGenerator } from './describe';
import { valueSpan } from '../yaml';
import { sourceResolver } from './provenance';
import type { AppInvalid, AppInvalidKind, Expansion, ExpansionProblem, GeneratedApp } from './types';
import { targetVersion, type TargetVersion } from '../install/target';
import { has as hasBehaviour, templateBehaviour, versionCause } from '../versions/behaviours';
import { prunedForTarget } from '../validate/fieldCheck';
import { finding } from '../diagnostics/codes';
import { besideYieldingSiblings, previewStopped, whyEmpty } from '../generators/emptyFindings';

export const DEFAULT_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

export function expandAppSet(doc: AppSetDoc, file: SourceText, previous?: RenderMemo): Expansion {
  return runSteps(expandAppSetSteps(doc, file, previous));
}

/**
 * A patch of an ApplicationSet (validate/partial.ts) is not expanded on its own: the ApplicationSet
 * it patches is. Its preview says so instead of showing "0 Applications" with no reason.
 */
export function partialExpansion(reason: string): Expansion {
  return {
    apps: [],
    problems: [],
    generators: [],
    notes: [`this document is ${reason}: it changes an ApplicationSet defined elsewhere and is not expanded on its own`],
    exact: true,
    capped: false,
    clusters: [],
    paramSets: 0,
  };
}

/**
 * The same expansion in steps: it yields after each Application rendered (and after every few re-used),
 * so that a caller can pause between steps (the language server answers other requests meanwhile) or
 * drop it (a newer text arrived).
 * With `previous` (the `renders` of an earlier expansion of the same ApplicationSet), Applications
 * rendered from the same template and parameter set are re-used (renderMemo.ts).
 */
export function* expandAppSetSteps(doc: AppSetDoc, file: SourceText, previous?: RenderMemo): Generator<void, Expansion> {
  // Every template of every Application (templatePatch included) shares one work budget (gotemplate/budget.ts).
  const budget = totalBudget();
  const steps = expandBudgeted(doc, file, previous);
  const next = () => steps.next();
  for (;;) {
    const r = budget.run(next);
    if (r.done) return r.value;
    yield;
  }
}

/** What one expansion reads (the target release, the spec, the generator context) and what it gathers. */
interface Run {
  doc: AppSetDoc;
  file: SourceText;
  previous: RenderMemo | undefined;
  target: TargetVersion;
  spec: Record<string, unknown>;
  renderOpts: RenderOptions;
  max: number;
  ctx: GenContext;
  sourcesOf: ReturnType<typeof sourceResolver>;
  paramSets: number;
  capped: boolean;
  unrendered: NonNullable<Expansion['unrendered']>;
  problems: ExpansionProblem[];
  /** The field each `ctx.findings` entry names, walked from its generator entry's field while that generator ran. */
  findingAt: Map<object, Field>;
  apps: GeneratedApp[];
  summaries: Expansion['generators'];
  nonDeterministic: Set<string>;
  renders: RenderMemo;
  /** The workspace's `heldReads` when the run started (see Expansion.held). */
  heldAt: number;
  /** Applications re-used since the last pause (see REUSED_PER_STEP). */
  reusedSincePause: number;
  /** This run, among all runs (`KeptRender.seen`). */
  id: number;
}

let runs = 0;

/**
 * Re-used Applications between two pauses: a re-used one costs a few microseconds, and a pause each
 * (a step of the scheduler, its generator results and clock reads) cost more than the re-use itself
 * on a keystroke in a 540-element list. A rendered one still pauses after each.
 */
const REUSED_PER_STEP = 32;

function* expandBudgeted(doc: AppSetDoc, file: SourceText, previous?: RenderMemo): Generator<void, Expansion> {
  const run = startRun(doc, file, previous);
  const generators = Array.isArray(run.spec.generators) ? run.spec.generators : [];
  for (let gi = 0; gi < generators.length; gi++) {
    const entry = generators[gi];
    if (run.capped || !isObj(entry)) continue;
    for (const kind of kindsOf(entry)) yield* expandGenerator(run, gi, entry, kind);
  }
  yield* validateApps(run.apps, doc, file, run.target);
  return finishRun(run);
}

function startRun(doc: AppSetDoc, file: SourceText, previous: RenderMemo | undefined): Run {
  const target = targetVersion(file, doc);
  // What the controller of the target release reads: the API server has pruned newer fields.
  const value = prunedForTarget(doc, target);
  const spec = isObj(value.spec) ? value.spec : {};
  const goTemplate = spec.goTemplate === true;
  const options = Array.isArray(spec.goTemplateOptions) ? spec.goTemplateOptions.filter((o): o is string => typeof o === 'string') : [];
  const max = file.settings.maxApplications;
  const renderOpts = { goTemplate, options, ...templateBehaviour(target) };
  const dropNestedSelectors = !hasBehaviour(target, 'nestedSelectorsAlways') && spec.applyNestedSelectors !== true;
  const ctx: GenContext = {
    file,
    goTemplate,
    options,
    version: target.line,
    renderOpts,
    dropNestedSelectors,
    // An own copy: the metadata kept across keystrokes (finalMetadata) must not hold the document's text.
    namespace: ownStrings(doc.namespace) as string,
    notes: new Set(),
    inexact: { value: false },
    findings: [],
    maxParams: max,
    counts: new Map(),
    capped: { value: false },
    origins: new Map(),
    originFiles: new Map(),
    empties: [],
    runTimeClusters: { value: 0 },
  };
  // Every result that depends on the release says which one was assumed (the preview shows notes).
  ctx.notes.add(`checked against ${target.why}`);
  return {
    doc,
    file,
    previous,
    target,
    spec,
    renderOpts,
    max,
    ctx,
    sourcesOf: sourceResolver(doc, file, ctx.originFiles!),
    paramSets: 0,
    capped: false,
    unrendered: [],
    problems: [],
    findingAt: new Map(),
    apps: [],
    summaries: [],
    nonDeterministic: new Set<string>(),
    renders: new Map(),
    heldAt: file.workspace.heldReads,
    reusedSincePause: 0,
    id: ++runs,
  };
}

/** A template field a render error is placed on: its path in the document and its place (from the located fields). */
interface TemplateSource {
  path: JsonPath;
  at: Field;
}

/** One kind of one top-level generator entry: its parameter sets, each rendered into an Application. */
function* expandGenerator(run: Run, gi: number, entry: Record<string, unknown>, kind: string): Generator<void> {
  const { doc, spec, ctx } = run;
  const gpath: JsonPath = ['spec', 'generators', gi];
  // The generators run on values and name places by JSON paths below `gpath`; each is walked from the
  // entry's field in the located fields (`fields/generatorFields.ts` `below`), never looked up from the document's root.
  const view = fieldsOf(doc);
  const entryAt = view.generatorList[gi];
  const placeOf = (p: JsonPath) => below(entryAt, gpath, p) ?? entryAt;
  const firstFinding = ctx.findings.length;
  let params: ParamSet[];
  try {
    params = yield* runWithSelectorSteps(entry, kind, ctx, gpath);
  } catch (e) {
    if (!(e instanceof GeneratorError)) throw e;
    const cap = e.code === 'generator/too-many-applications';
    run.problems.push(
      finding(e.code, e.message, placeOf(e.path), { path: e.path, ...(e.structural ? { structural: true as const } : {}) }),
    );
    if (cap) run.capped = true;
    return;
  } finally {
    for (let i = firstFinding; i < ctx.findings.length; i++) run.findingAt.set(ctx.findings[i], placeOf(ctx.findings[i].path));
  }
  if (ctx.capped.value) run.capped = true;
  if (!params.length) run.problems.push(...whyEmpty(ctx, gpath, kind, placeOf));
  run.summaries.push({
    index: gi,
    kind,
    paramSets: params.length,
    description: describeGenerator(entry, kind, params.length, (p) => ctx.counts.get(['spec', 'generators', gi, kind, ...p].join('/'))),
  });
  const genTemplate = isObj(entry[kind]) ? (entry[kind] as Record<string, unknown>).template : undefined;
  // A missing or null template is Go's zero-value struct: Applications with empty fields, which the
  // controller then rejects (the schema check reports the missing template itself).
  const merged = mergeTemplate(genTemplate, spec.template);
  // Renders kept across keystrokes must not hold the document's text through the template's strings (ownStrings.ts).
  const template = isObj(merged) ? ownTemplate(merged) : {};
  const memo = templateMemo(run, template);
  // The render walk names a failing field by its path in the merged template: it is placed below the
  // template field it came from (the generator's own when it writes that field), read from the located fields.
  // (Placed only for an error: most generators render without one.)
  const sourceOf = (p: JsonPath): TemplateSource => {
    const own = genTemplate !== undefined ? subPath(sub(sub(entryAt, kind), 'template'), p) : undefined;
    return own?.exact
      ? { path: [...gpath, kind, 'template', ...p], at: own }
      : { path: ['spec', 'template', ...p], at: subPath(view.template, p) };
  };
  for (let pi = 0; pi < params.length; pi++) {
    if (run.apps.length >= run.max) {
      if (run.capped && ctx.capped.value) break; // the generator already said so
      run.capped = true;
      run.problems.push(previewStopped(run.max, view.generators.keySpan));
      break;
    }
    if (reuseParamSet(run, gi, params[pi], memo)) {
      if (++run.reusedSincePause >= REUSED_PER_STEP) {
        run.reusedSincePause = 0;
        yield;
      }
      continue;
    }
    run.reusedSincePause = 0;
    renderParamSet(run, gi, params[pi], template, memo, sourceOf);
    yield;
  }
}

/**
 * One parameter set whose Application the previous expansion rendered: re-used (true), or false when
 * it must be rendered (expandParamSet). A plain function, not a step of its own: a generator object
 * per parameter set was most of what a keystroke's re-use allocated; the caller pauses every
 * REUSED_PER_STEP of them.
 */
function reuseParamSet(run: Run, gi: number, p: ParamSet, { before, kept, carry }: TemplateMemo): boolean {
  const { ctx, apps, sourcesOf } = run;
  const pkey = kept ? paramsKey(p) : undefined;
  const again = pkey === undefined ? undefined : before?.get(pkey);
  if (!again || !chargeTotal(again.units)) return false;
  run.paramSets++;
  again.seen = run.id;
  kept?.set(pkey as string, again);
  carryParts(again, carry, pkey as string);
  again.shown = pushApp(apps, again.value as Record<string, unknown>, gi, p, ctx, sourcesOf, again.shown);
  return true;
}

/**
 * One parameter set rendered into its Application (the caller pauses after it). A plain function, not
 * a step of its own: a generator object per rendered Application was garbage of every template keystroke.
 */
function renderParamSet(
  run: Run,
  gi: number,
  p: ParamSet,
  template: Record<string, unknown>,
  { kept, fieldMemo, stringMemo, carry, modifies }: TemplateMemo,
  sourceOf: (p: JsonPath) => TemplateSource,
): void {
  const { doc, spec, ctx, apps, sourcesOf } = run;
  run.paramSets++;
  const pkey = kept ? paramsKey(p) : undefined;
  run.reusedSincePause = 0;
  const spent = totalSpent();
  // One set for every Application's render (a render never renders another Application), emptied before each.
  const used = appUsed;
  used.clear();
  const fields = pkey === undefined || modifies ? undefined : { key: pkey, at: fieldMemo, str: stringMemo, carry, kept: [], id: run.id };
  const out = renderApp(template, p, spec, doc, ctx, used, fields);
  let rendered: Record<string, unknown> | undefined;
  if (out instanceof PathError) run.problems.push(templateProblem(run, template, p, sourceOf, out.path, out.err));
  else rendered = out;
  for (const f of used) run.nonDeterministic.add(f);
  const keep: KeptRender | undefined =
    rendered && !used.size && pkey !== undefined
      ? { value: rendered, units: totalSpent() - spent, seen: run.id, fields: fields?.kept }
      : undefined;
  if (keep) kept?.set(pkey as string, keep);
  if (!rendered) {
    if (run.unrendered.length < UNRENDERED_KEPT)
      run.unrendered.push({ params: displayParams(p), origins: ctx.origins?.get(p), generatorIndex: gi });
    return;
  }
  const shown = pushApp(apps, rendered, gi, p, ctx, sourcesOf);
  if (keep) keep.shown = shown;
}

/** A template that failed to render for one parameter set, at the place in the text it came from. */
function templateProblem(
  run: Run,
  template: Record<string, unknown>,
  p: ParamSet,
  sourceOf: (p: JsonPath) => TemplateSource,
  path: JsonPath,
  err: TemplateError,
): ExpansionProblem {
  const { doc, file, ctx, target, sourcesOf } = run;
  const src: TemplateSource =
    path[0] === 'templatePatch' ? { path: ['spec', 'templatePatch'], at: fieldsOf(doc).templatePatch } : sourceOf(path);
  const code = templateErrorCode(err.kind, err.reason);
  if (code === 'template/preview-skipped' || code === 'template/limit') ctx.inexact.value = true;
  // An error only the target release makes says which release that is and why it was assumed.
  const cause = versionCause(err.reason, target);
  return finding(
    code,
    `${cause ? `${err.message} (${cause})` : err.message}${PARSE_FAILURES.has(code) ? ' — so no Application is generated from this template' : ''}`,
    templateSpan(src.at, file.text, err),
    {
      path: src.path,
      // A template that does not parse fails the same way for every parameter set: no set to name.
      who: PARSE_FAILURES.has(code)
        ? undefined
        : { name: nameFor(template, p, ctx) || describeParams(p), sources: sourcesOf(ctx.origins?.get(p)) },
      ...dataOf(templateErrorData(err.reason)),
    },
  );
}

/** A finding's `data` when there is any (a finding without it has no `data` key at all). */
function dataOf(data: unknown): { data?: unknown } {
  return data === undefined ? {} : { data };
}

function finishRun(run: Run): Expansion {
  const { doc, ctx, problems, apps, capped, nonDeterministic, findingAt } = run;
  // Every finding is pushed while a generator runs, so its place was walked from that entry then.
  for (const f of ctx.findings) {
    const { code, message, ...rest } = f;
    problems.push(finding(code, message, findingAt.get(f) ?? fieldsOf(doc).generators, rest));
  }
  besideYieldingSiblings(run.problems, run.summaries);
  pruneMemo(run.renders, run.paramSets, run.id);
  if (nonDeterministic.size) {
    ctx.inexact.value = true;
    ctx.notes.add(`the templates use ${[...nonDeterministic].sort().join(', ')}, whose results differ on every render`);
  }
  const clusters = [...new Set(apps.map((a) => destinationOf(a.app)).filter((d) => d !== ''))].sort();
  return {
    apps,
    problems,
    generators: run.summaries,
    notes: [...ctx.notes],
    exact: !ctx.inexact.value && !capped,
    capped,
    clusters,
    paramSets: run.paramSets,
    empties: ctx.empties ?? [],
    paramSetCounts: Object.fromEntries(ctx.counts),
    renders: run.renders,
    unrendered: run.unrendered,
    // Another run's read between this run's steps counts too: it only holds more.
    held: run.file.workspace.heldReads !== run.heldAt,
  };
}

/** Codes of a template that fails before any parameter is read (Go's parser): the same for every parameter set. */
const PARSE_FAILURES: ReadonlySet<string> = new Set(['template/parse-error', 'template/unknown-function']);

/** Parameter sets kept from failed renders (`Expansion.unrendered`): as many as completion scans. */
const UNRENDERED_KEPT = 200;

function pushApp(
  apps: GeneratedApp[],
  rendered: Record<string, unknown>,
  gi: number,
  p: ParamSet,
  ctx: GenContext,
  sourcesOf: (origins: readonly string[] | undefined) => GeneratedApp['sources'],
  shown: Shown = { name: nameOf(rendered), labels: labelsOf(rendered), params: shownParams(p) },
): Shown {
  apps.push(new Generated(rendered as { [key: string]: Json }, shown, gi, ctx.origins?.get(p), sourcesOf));
  return shown;
}

/**
 * The parameters an Application shows, per parameter set: a template keystroke renders every
 * Application again from the same parameter sets (the list generator hands the same set for an element
 * it did not change), and their shown copy was most of what `pushApp` cost. Parameter sets are never
 * modified once made, and a re-used Application already shares its shown parameters the same way.
 */
const shownOfParams = new WeakMap<ParamSet, Record<string, unknown>>();
function shownParams(p: ParamSet): Record<string, unknown> {
  return memoized(shownOfParams, p, displayParams);
}

/**
 * A generated Application. Where its parameter set came from is resolved when first read (findings of
 * this Application, the preview, a hover): a keystroke re-expands hundreds of Applications that none of
 * them reads. `sources` is an own, enumerable property as a plain object's would be, defined with one
 * shared getter: an object literal's own getter (a new function each) made every Application a
 * dictionary-mode object of about 800 bytes, garbage of every keystroke.
 */
class Generated implements GeneratedApp {
  readonly #sourcesOf: (origins: readonly string[] | undefined) => GeneratedApp['sources'];
  #sources: GeneratedApp['sources'];
  declare sources?: GeneratedApp['sources'];
  app: { [key: string]: Json };
  name: string;
  labels: Record<string, string>;
  generatorIndex: number;
  params: { [key: string]: unknown };
  origins: string[] | undefined;
  constructor(
    app: { [key: string]: Json },
    shown: Shown,
    gi: number,
    origins: string[] | undefined,
    sourcesOf: (origins: readonly string[] | undefined) => GeneratedApp['sources'],
  ) {
    this.app = app;
    this.name = shown.name;
    this.labels = shown.labels;
    this.generatorIndex = gi;
    this.params = shown.params;
    this.origins = origins;
    this.#sourcesOf = sourcesOf;
    Object.defineProperty(this, 'sources', Generated.SOURCES);
  }

  private static readonly SOURCES: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: Generated) {
      return (this.#sources ??= this.#sourcesOf(this.origins));
    },
  };
}

/**
 * One Application rendered from the template for parameter set `p`, or the error that stopped it (the
 * template field it came from by its path in the merged template, or `templatePatch`).
 */
function renderApp(
  template: Record<string, unknown>,
  p: ParamSet,
  spec: Record<string, unknown>,
  doc: AppSetDoc,
  ctx: GenContext,
  nonDet: Set<string>,
  fields: FieldRenders | undefined,
): Record<string, unknown> | PathError {
  const a = under;
  a.p = p;
  a.converted = undefined;
  a.shared = false;
  a.opts = ctx.renderOpts;
  a.report.nonDeterministic = nonDet;
  a.fields = fields;
  try {
    return renderUnder(template, p, spec, ctx);
  } finally {
    // Nothing of this Application is held past its render (a parameter set holds slices of the document's text).
    a.p = undefined;
    a.converted = undefined;
    a.fields = undefined;
  }
}

/**
 * The Application under way (renderApp): its parameter set, their Go values once made, the render options,
 * the report and the kept field renders. A render never renders another Application, so one object serves
 * every render through goParamsOf, renderOne and renderField, module functions: they were three closures
 * and their context made for each Application (and a fourth for its error), in a document's first
 * expansion, which runs before V8 has compiled any of it.
 */
const under: {
  p: ParamSet | undefined;
  converted: GoMap | undefined;
  shared: boolean;
  opts: RenderOptions | undefined;
  report: { nonDeterministic: Set<string> };
  fields: FieldRenders | undefined;
} = { p: undefined, converted: undefined, shared: false, opts: undefined, report: { nonDeterministic: new Set() }, fields: undefined };

/**
 * The Go values `template` renders with. Converted once per parameter set, not once per string (the hot
 * path of a large expansion). Like the controller's single params map, it is shared by every field and
 * the patch. A template that cannot modify it reads the copy kept with the parameter set
 * (sharedGoValues); the first one that could gets a fresh copy, which this Application's later renders
 * then share.
 */
function goParamsOf(template: string): GoMap {
  const a = under;
  const modifies = MAY_MODIFY.test(template);
  if (a.converted && !(a.shared && modifies)) return a.converted;
  a.shared = !modifies;
  a.converted = a.shared ? sharedGoValues(a.p as ParamSet) : (fromJSON(a.p) as GoMap);
  return a.converted;
}

/** One template string of the Application under way rendered (its place in the template, for an error). */
function renderOne(s: string, path: JsonPath): string {
  const a = under;
  try {
    // Until this Application's Go values are made (so none can have been modified), a template of text and
    // `{{ .key }}` actions over string parameters is rendered from the parameter set itself (renderFields):
    // an Application whose strings are all such templates makes no Go values at all.
    if (a.converted === undefined) {
      const out = renderFields(s, a.p as ParamSet, a.opts as RenderOptions);
      if (out !== undefined) return out;
    }
    return renderString(s, goParamsOf(s), a.opts as RenderOptions, a.report);
  } catch (e) {
    if (e instanceof TemplateError) throw new PathError(path.slice(), e);
    throw e;
  }
}

/** The same, its render re-used where it is kept (keptString); a string without an action renders to itself in both modes. */
function renderField(s: string, path: JsonPath): string {
  if (!s.includes('{{')) return s;
  const fields = under.fields;
  return fields ? keptString(fields, s, path, renderOne, under.report) : renderOne(s, path);
}

function renderUnder(
  template: Record<string, unknown>,
  p: ParamSet,
  spec: Record<string, unknown>,
  ctx: GenContext,
): Record<string, unknown> | PathError {
  const base = baseOf(template);
  const { opts, report, fields } = under as {
    opts: RenderOptions;
    report: { nonDeterministic: Set<string> };
    fields: FieldRenders | undefined;
  };
  let app: Record<string, unknown>;
  /** The rendered metadata (never modified), and whether the default finalizer is added to it. */
  let walked: Record<string, unknown> | undefined;
  let addFinalizer = false;
  if (noKeys(p)) {
    // Argo CD skips rendering (and the default finalizer) for an empty parameter set.
    app = { ...base }; // base is shared by every Application of the template
  } else {
    try {
      app = {
        apiVersion: base.apiVersion,
        kind: base.kind,
        metadata: walkFields(base.metadata, renderField, 'metadata', fields, report),
        spec: walkFields(base.spec, renderField, 'spec', fields, report),
      };
    } catch (e) {
      if (e instanceof PathError) return e;
      throw e;
    }
    walked = app.metadata as Record<string, unknown>;
    const fins = Array.isArray(walked.finalizers) ? walked.finalizers : [];
    const sp = isObj(spec.syncPolicy) ? spec.syncPolicy : undefined;
    addFinalizer = !fins.length && (!sp || sp.preserveResourcesOnDeletion !== true);
    // The patch sees the default finalizer (a copy: the walk's output may be a kept render).
    if (addFinalizer && typeof spec.templatePatch === 'string') app.metadata = withFinalizer(walked);
  }
  // Unlike the template, the patch is rendered even for an empty parameter set (template.go GenerateApplications).
  if (typeof spec.templatePatch === 'string') {
    try {
      const rendered = renderString(spec.templatePatch, goParamsOf(spec.templatePatch), opts, report);
      app = applyPatch(app, parsePatch(rendered));
    } catch (e) {
      if (e instanceof TemplateError)
        return new PathError(
          ['templatePatch'],
          new TemplateError(`error replacing values in templatePatch: ${e.message}`, e.kind, e.template, e.offset, e.length, e.reason),
        );
      if (e instanceof PatchError) return new PathError(['templatePatch'], new TemplateError(e.message, 'exec', spec.templatePatch));
      throw e;
    }
  }
  if (walked && typeof spec.templatePatch !== 'string') {
    put(app, 'metadata', finalMetadata(walked, ctx.namespace, addFinalizer));
    return app;
  }
  put(app, 'metadata', ordered(isObj(app.metadata) ? app.metadata : {}, ctx.namespace));
  return app;
}

/**
 * The Go values of a parameter set, made once and kept with it for the templates that cannot modify
 * them (MAY_MODIFY): a template keystroke renders 540 Applications again from the same parameter sets.
 * Parameter sets are never modified once made.
 */
const goValues = new WeakMap<ParamSet, GoMap>();
function sharedGoValues(p: ParamSet): GoMap {
  return memoized(goValues, p, goMapOf);
}
function goMapOf(p: ParamSet): GoMap {
  return fromJSON(p) as GoMap;
}

/** A copy of rendered metadata with the default finalizer (where `put` on it would set it). */
function withFinalizer(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(meta);
  for (let i = 0; i < keys.length; i++) put(out, keys[i], meta[keys[i]]);
  put(out, 'finalizers', [DEFAULT_FINALIZER]);
  return out;
}

/**
 * The namespace is always the ApplicationSet's own (template.go GenerateApplications), after the name.
 * With `finalizer`, the copy is `ordered(withFinalizer(meta), namespace)` made at once (one object per
 * Application, not two): the default finalizer where `withFinalizer` puts it.
 */
function ordered(meta: Record<string, unknown>, namespace: string | undefined, finalizer = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (has(meta, 'name')) put(out, 'name', meta.name);
  if (namespace) put(out, 'namespace', namespace);
  const keys = Object.keys(meta);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k !== 'name' && k !== 'namespace') put(out, k, finalizer && k === 'finalizers' ? [DEFAULT_FINALIZER] : meta[k]);
  }
  if (finalizer && !has(meta, 'finalizers')) put(out, 'finalizers', [DEFAULT_FINALIZER]);
  return out;
}

/**
 * An Application's metadata from its rendered metadata without a patch, kept per rendered object: a
 * template edit in the spec re-uses each Application's rendered metadata (walkFields), and with it this
 * object (Applications are never modified once made).
 */
const finals = new WeakMap<object, { namespace: string | undefined; addFinalizer: boolean; meta: Record<string, unknown> }>();
function finalMetadata(walked: Record<string, unknown>, namespace: string | undefined, addFinalizer: boolean): Record<string, unknown> {
  const kept = finals.get(walked);
  if (kept && kept.namespace === namespace && kept.addFinalizer === addFinalizer) return kept.meta;
  const meta = ordered(walked, namespace, addFinalizer);
  finals.set(walked, { namespace, addFinalizer, meta });
  return meta;
}

class PathError extends Error {
  constructor(
    readonly path: JsonPath,
    readonly err: TemplateError,
  ) {
    super(err.message);
  }
}

/** The functions with changing results that one Application's render used (see renderParamSet). */
const appUsed = new Set<string>();

const bases = new WeakMap<object, Record<string, unknown>>();

/** What a template renders from: the metadata fields an Application keeps, and the spec (once per template). */
function baseOf(template: Record<string, unknown>): Record<string, unknown> {
  return memoized(bases, template, makeBase);
}
function makeBase(template: Record<string, unknown>): Record<string, unknown> {
  const md = isObj(template.metadata) ? template.metadata : {};
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: pick(md, ['name', 'namespace', 'labels', 'annotations', 'finalizers']),
    spec: template.spec ?? {},
  };
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) put(out, k, o[k]);
  return out;
}

function nameOf(app: Record<string, unknown>): string {
  const md = app.metadata;
  return isObj(md) && typeof md.name === 'string' ? md.name : '';
}

/** An object without keys, without listing them. */
function noKeys(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/**
 * The labels an Application shows, kept per rendered labels object: a re-used `labels` field (renderMemo.ts)
 * is the same object for every render of its parameter set, and the shown copy is never modified.
 */
const shownLabels = new WeakMap<object, Record<string, string>>();
function labelsOf(app: Record<string, unknown>): Record<string, string> {
  const md = app.metadata;
  if (!isObj(md) || !isObj(md.labels)) return {};
  return memoized(shownLabels, md.labels, labelStrings);
}
function labelStrings(labels: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const keys = Object.keys(labels);
  for (let i = 0; i < keys.length; i++) put(out, keys[i], goString(labels[keys[i]]));
  return out;
}

export function destinationOf(app: Record<string, unknown>): string {
  const d = isObj(app.spec) && isObj(app.spec.destination) ? app.spec.destination : {};
  return typeof d.server === 'string' && d.server ? d.server : typeof d.name === 'string' ? d.name : '';
}

/**
 * The name a parameter set's Application would have, for a render that failed elsewhere in the
 * template: findings name Applications, not "parameter set 7". '' when the name itself fails.
 */
function nameFor(template: Record<string, unknown>, p: ParamSet, ctx: GenContext): string {
  const md = isObj(template.metadata) ? template.metadata : {};
  if (typeof md.name !== 'string') return '';
  if (!md.name.includes('{{')) return md.name;
  try {
    return renderString(md.name, fromJSON(p) as GoMap, ctx.renderOpts);
  } catch {
    return '';
  }
}

/** A parameter set in a few words (`{service=cart, name=prod-0}`) when it renders no name. */
function describeParams(p: ParamSet): string {
  const parts: string[] = [];
  for (const k of Object.keys(p)) {
    const v = p[k];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') parts.push(`${k}=${String(v)}`);
    if (parts.length >= 3) break;
  }
  return `{${parts.length ? parts.join(', ') : '…'}}`;
}

/** The span of the failing action inside the YAML scalar, when it can be found in the source. */
function templateSpan(at: Field, source: string, err: TemplateError): Span {
  const whole = at.valueRange ?? at.keyRange ?? at.span;
  if (err.offset === undefined || !at.valueRange) return whole;
  // Only the value's own text can be placed (a key that fails is underlined whole).
  const node = at.node;
  if (node?.kind !== 'scalar' || node.value !== err.template) return whole;
  return valueSpan(source, at.valueRange, err.template, err.offset, err.length ?? 1) ?? whole;
}

function* validateApps(apps: GeneratedApp[], doc: AppSetDoc, file: SourceText, target: TargetVersion): Generator<void, void> {
  const appset = doc.name;
  const counts = new Map<string, number>();
  for (let i = 0; i < apps.length; i++) counts.set(apps[i].name, (counts.get(apps[i].name) ?? 0) + 1);
  // The cluster list is only needed for destinations given by name (read from the workspace then).
  let known: KnownClusters | undefined;
  // The repository's AppProjects, when they are known (nothing is called unknown otherwise).
  let projects: { names: ReadonlyMap<string, unknown>; certain: boolean } | undefined;
  const unknownProject = (name: string) => {
    if (!projects) {
      const index = knownProjects(file);
      projects = { names: index.projects, certain: !index.uncertain };
    }
    return projects.certain && !projects.names.has(name);
  };
  let n = 0;
  // One list and one closure for all Applications (a new list is started once one is given away).
  let issues: AppInvalid[] = [];
  const add = (kind: AppInvalidKind, message: string) => issues.push({ kind, message });
  for (let i = 0; i < apps.length; i++) {
    const a = apps[i];
    // A pause every few hundred Applications (the language server answers other requests meanwhile).
    if (++n % 250 === 0) yield;
    if (!a.name) {
      add(
        'no-name',
        hasBehaviour(target, 'emptyNameRejected')
          ? `ApplicationSet ${appset} contains an application with no name; a name must be set in the template's metadata.name or via a templatePatch (generateName is not supported)`
          : `the Application has no name: creating it fails at the API server ("resource name may not be empty"), so it is skipped (checked against ${target.why}; from Argo CD master on, the ApplicationSet reports it as "contains an application with no name")`,
      );
    } else {
      if ((counts.get(a.name) ?? 0) > 1)
        add('duplicate-name', `ApplicationSet ${appset} contains applications with duplicate name: ${a.name}`);
      if (!isDnsSubdomain(a.name)) {
        add(
          'bad-name',
          `metadata.name: Invalid value: "${a.name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
        );
      }
    }
    const d = isObj(a.app.spec) && isObj(a.app.spec.destination) ? a.app.spec.destination : {};
    const name = typeof d.name === 'string' ? d.name : '';
    const server = typeof d.server === 'string' ? d.server : '';
    if (name && server)
      add(
        'destination-both',
        `application destination spec is invalid: application destination can't have both name and server defined: ${name} ${server}`,
      );
    else if (!name && !server)
      add('destination-missing', 'application destination spec is invalid: Destination server missing from app spec');
    else if (name && (known ??= knownClusters(file)).declared && !known.byName.has(name))
      add('destination-unknown', `application destination spec is invalid: there are no clusters with this name: ${name}`);
    // An AppProject the repository does not define: the controller looks the project up and skips the
    // Application when it is not found (applicationset_controller.go validateGeneratedApplications; an
    // empty project is "default"). Only where the repository's projects are known (validate/projects.ts).
    const project = isObj(a.app.spec) && typeof a.app.spec.project === 'string' ? a.app.spec.project : '';
    if (project && unknownProject(project)) add('unknown-project', `${UNKNOWN_PROJECT}: ${project}`);
    if (issues.length) {
      a.invalid = issues;
      issues = [];
    }
  }
}

/** The start of the reason an Application with an unknown project is skipped (features/projects reports it). */
const UNKNOWN_PROJECT = 'the Application references an AppProject that does not exist';
