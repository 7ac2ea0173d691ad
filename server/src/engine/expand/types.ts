/**
 * What the generator + render pipeline produces for one ApplicationSet.
 * CONTRACT used by the preview, the rollout planner and the language features. Fields may be added; none renamed.
 */
import type { Json, Source, Span } from '../types';
import type { JsonPath } from '../yaml';
import type { AppInvalidKind, EmptyGenerator } from '../generators/types';
import type { DiagnosticCode } from '../diagnostics/codes';
import type { Severity } from '../types';
import type { RenderMemo } from './renderMemo';

export type { AppInvalidKind, EmptyGenerator };

export interface GeneratedApp {
  /** The Application exactly as the controller would create it (apiVersion, kind, metadata, spec). */
  app: { [key: string]: Json };
  /** metadata.name (may be '' when the template renders none). */
  name: string;
  /** metadata.labels as rendered (after templatePatch). */
  labels: Record<string, string>;
  /** Index of the top-level generator in spec.generators that produced this Application. */
  generatorIndex: number;
  /** The parameter set the Application was rendered from (flat keys in fasttemplate mode). */
  params: { [key: string]: unknown };
  /** Controller validation problems; a non-empty list means the controller skips this Application. */
  invalid?: AppInvalid[];
  /**
   * Where its parameter set came from: JSON paths of list elements (`spec/generators/0/list/elements/2`),
   * `cluster:<name>`, `git:<repo-relative path>`, `sample:<kind>/<n>`. Used by hovers.
   */
  origins?: string[];
  /** The same provenance resolved to places a user can open (file + span), in plain words (render/provenance.ts). */
  sources?: Source[];
}

/** One reason the controller refuses a generated Application (its kinds: generators/types.ts `AppInvalidKind`). */
export interface AppInvalid {
  kind: AppInvalidKind;
  message: string;
}

export interface ExpansionProblem {
  /** Diagnostic code (registered in codeLists/). */
  code: DiagnosticCode;
  /** The registry's severity for the code (made by `finding()`), never chosen here. */
  severity: Severity;
  /** Message; Argo CD's own error text where the controller would fail. */
  message: string;
  /** Where in the ApplicationSet document the problem is (JSON path from the document root). */
  path: JsonPath;
  /**
   * Where the finding underlines, set where the problem is made (the template action inside a string
   * when it can be placed); the fronts take it as it is, never from `path` again.
   */
  span: Span;
  /**
   * The parameter set the problem happened for (render errors): the name its Application would
   * have (or a description of its values) and where the set came from. Problems with the same code
   * and span are one finding (diagnostics/findings.ts).
   */
  who?: { name: string; sources: Source[] };
  /** What a quick fix needs (the finding's `data`). */
  data?: unknown;
  /** A mistake in the generators' structure that validation already explains (GeneratorError `structural`). */
  structural?: true;
}

export interface GeneratorSummary {
  /** Index in spec.generators. */
  index: number;
  /** Generator kind, e.g. 'list', 'clusters', 'matrix'. */
  kind: string;
  /** Number of parameter sets (before rendering). */
  paramSets?: number;
  /** Human description, e.g. `12 clusters × 45 services`. */
  description: string;
}

export interface Expansion {
  apps: GeneratedApp[];
  problems: ExpansionProblem[];
  generators: GeneratorSummary[];
  /** Things the user should know about the preview (working tree used, live-data generators, samples). */
  notes: string[];
  /** False when the preview cannot be exact (live-data generators, non-deterministic functions, cap hit). */
  exact: boolean;
  /** True when settings.maxApplications stopped the expansion. */
  capped: boolean;
  /**
   * True when it used cluster data read while the language server still reads the workspace
   * (generators/inventory.ts `held`): its findings wait for the re-validation (service/lintRun.ts).
   */
  held?: boolean;
  /**
   * Parameter sets each generator entry yielded (after its post-selector), keyed by the entry's JSON
   * path joined with '/' (`spec/generators/0`, `spec/generators/0/matrix/generators/1`), for the Outline.
   */
  paramSetCounts?: Record<string, number>;
  /** Distinct destination clusters (server URL or name) among the Applications. */
  clusters: string[];
  /** Parameter sets rendered (Applications plus renders that failed): the "of" in "in 3 of 24 Applications". */
  paramSets?: number;
  /** Generators that yielded nothing, with the reason (render/why.ts words it). */
  empties?: EmptyGenerator[];
  /** The renders the next expansion of the same ApplicationSet may re-use (renderMemo.ts). */
  renders?: RenderMemo;
  /**
   * The first parameter sets whose render failed (no Application): under missingkey=error one misspelt
   * reference fails every render, and completion and "did you mean" still need the parameters.
   */
  unrendered?: Pick<GeneratedApp, 'params' | 'origins' | 'generatorIndex'>[];
}
