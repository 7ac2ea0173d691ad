/** What every generator receives and returns. */
import type { SourceText } from '../inputs';
import type { DiagnosticCode } from '../diagnostics/codes';
import type { JsonPath } from '../yaml';
import type { ParamSet } from './params';
import type { RenderOptions } from '@appset-tools/gotemplate';
import type { ReleaseLine } from '../versions/releases';

export interface GenContext {
  file: SourceText;
  goTemplate: boolean;
  options: string[];
  /** The Argo CD release line the expansion models (see versions/behaviours.ts). */
  version: ReleaseLine;
  /** goTemplate, options and the release's template behaviour, for every render of this ApplicationSet. */
  renderOpts: RenderOptions;
  /** Selectors of generators inside a nested matrix/merge are dropped (before Argo CD 3.0, without applyNestedSelectors). */
  dropNestedSelectors?: boolean;
  /** Namespace of the ApplicationSet (cluster Secrets are looked up there). */
  namespace: string;
  /** Notes for the preview header (working tree used, samples used, …), de-duplicated. */
  notes: Set<string>;
  /** Set when the preview cannot be exact. */
  inexact: { value: boolean };
  /** Non-fatal findings (information/warnings) with their path. */
  findings: { code: DiagnosticCode; message: string; path: JsonPath }[];
  /** Upper bound on parameter sets any one generator may produce. */
  maxParams: number;
  /** Parameter sets produced per generator entry (JSON path joined with '/'), for descriptions. */
  counts: Map<string, number>;
  /** Set when a generator cut its output at `maxParams`, so the preview shows only the first sets. */
  capped: { value: boolean };
  /**
   * How many matrix/merge generators enclose the one running now. A matrix/merge nested in another
   * may only hold terminal generators: deeper matrix/merge children are dropped by the JSON decoding
   * of `ApplicationSetTerminalGenerator`, so they look empty.
   */
  depth?: number;
  /** Where each parameter set came from (list elements, clusters, git paths), for hovers. */
  origins?: Map<object, string[]>;
  /** Files behind `git:` origins (absolute paths in the checkout), so findings can point at them. */
  originFiles?: Map<string, { path: string; directory: boolean }>;
  /** Generators that yielded nothing and why (the "why is this empty?" notes). */
  empties?: EmptyGenerator[];
  /**
   * How many times a cluster generator ran over clusters known only at run time (the repository
   * registers none and no inventory is given): a result that depends on them is not certain offline.
   */
  runTimeClusters?: { value: number };
}

/** A generator (top-level or a matrix/merge child) that yielded 0 parameter sets, and why. */
export interface EmptyGenerator {
  /** JSON path of the generator's kind (e.g. `spec/generators/0/matrix/generators/1/clusters`). */
  path: JsonPath;
  /** Plain words: why nothing came out, and what to do. */
  reason: string;
  /** Information, not a warning (the registry's milder variant of generator/empty): no offline data to judge by, data that lives outside the repository (clusters), or empty as written; otherwise the data contradicts the generator. */
  noData?: boolean;
  /** Another finding at this generator already says why (no git checkout, live data): only the preview notes it. */
  covered?: boolean;
  /** What a quick fix needs (the finding's `data`): `postSelector`, see postSelectorWhy.ts. */
  data?: unknown;
}

/** Records why a generator yielded nothing (the innermost reason wins when matrices nest). */
export function noteEmpty(ctx: GenContext, path: JsonPath, reason: string, noData = false, covered = false, data?: unknown): void {
  const list = (ctx.empties ??= []);
  const key = path.join('/');
  // A matrix runs its second child once per parameter set of the first: say it once.
  if (list.some((e) => e.path.join('/') === key && e.reason === reason)) return;
  list.push({ path, reason, ...(noData ? { noData } : {}), ...(covered ? { covered } : {}), ...(data !== undefined ? { data } : {}) });
}

/**
 * A generator whose source (a git checkout, an OCI artifact) has no local copy: the preview is inexact,
 * the note and the finding `code` say why at `repoURL`, and the generator yields nothing. The git and
 * oci generators' one way of saying it.
 */
export function noLocalSource(ctx: GenContext, path: JsonPath, code: DiagnosticCode, message: string): [] {
  ctx.notes.add(message);
  ctx.inexact.value = true;
  ctx.findings.push({ code, message, path: [...path, 'repoURL'] });
  noteEmpty(ctx, [...path, 'repoURL'], message, true, true);
  return [];
}

/**
 * Cuts a generator's output at the cap, so a huge fleet still previews its first Applications
 * instead of nothing (or a frozen editor); the finding explains why the rest is missing.
 */
export function capParams<T>(out: T[], ctx: GenContext, path: JsonPath, what: string): T[] {
  if (out.length <= ctx.maxParams) return out;
  markCapped(ctx, path, what);
  return out.slice(0, ctx.maxParams);
}

export function markCapped(ctx: GenContext, path: JsonPath, what: string): void {
  ctx.capped.value = true;
  ctx.inexact.value = true;
  ctx.findings.push({
    code: 'generator/too-many-applications',
    message: `${what} produces more than appsetTools.maxApplications (${ctx.maxParams}) parameter sets; the preview shows only the first ${ctx.maxParams}`,
    path,
  });
}

/** A failure the controller would report, with Argo CD's error text. */
export class GeneratorError extends Error {
  /**
   * `structural`: the generators' structure is wrong (a matrix or merge without two children, a child
   * with no generator, no merge keys): validation explains it in its own words (appset/matrix-children,
   * appset/merge-keys, appset/child-generator-kinds), so the preview does not repeat the controller's.
   */
  constructor(
    message: string,
    readonly path: JsonPath,
    readonly code: DiagnosticCode = 'generator/error',
    readonly structural = false,
  ) {
    super(message);
  }
}

export type Generate = (spec: Record<string, unknown>, ctx: GenContext, path: JsonPath) => ParamSet[];

/**
 * A generator in steps: it yields every few parameter sets, so that the language server can answer
 * other requests between steps (lsp/scheduler.ts); run to its end it gives exactly what the
 * one-go form gives (the one-go form is this run to its end).
 */
export type GenerateSteps = (spec: Record<string, unknown>, ctx: GenContext, path: JsonPath) => Generator<void, ParamSet[]>;

/** Parameter sets made (merged, copied, filtered) between two steps of a stepwise generator. */
export const SETS_PER_STEP = 100;

/** Runs `fn`, prefixing the message of a controller error the way a Go caller wraps it (`%s: %w`). */
export function wrapErrors<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof GeneratorError && e.code === 'generator/error')
      throw new GeneratorError(prefix + e.message, e.path, e.code, e.structural);
    throw e;
  }
}

/**
 * Why the controller refuses to create a generated Application (applicationset_controller.go
 * validateGeneratedApplications and the API server's name check). Readers decide by `kind`; `message` is the
 * text shown to the user (the controller's own words where it has some).
 */
export type AppInvalidKind =
  'no-name' | 'duplicate-name' | 'bad-name' | 'destination-both' | 'destination-missing' | 'destination-unknown' | 'unknown-project';
