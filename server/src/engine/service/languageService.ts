/**
 * The engine's single facade, in the style of vscode-json-languageservice's getLanguageService():
 * it wires the feature modules (validation, preview, rollout) to one cache and one host.
 * Everything is synchronous and pure apart from reads through the host.
 *
 * The parts: analyses.ts (documents parsed and prepared, and their caches), expansions.ts (the
 * Applications of each ApplicationSet, one LRU), dispatch.ts (the editor features, asked of the
 * feature modules), lintRun.ts (the findings) and views.ts (preview, plan, status).
 */
import type { EngineHost, EngineSettings } from '../host';
import type { CodeAction, CodeLens, CompletionItem, EngineDiagnostic, Hover, Location, Span } from '../types';
import { runSteps } from '../steps';
import { WorkspaceIndex, type ProbeCache } from '../workspace/index';
import type { AppSetContext, FeatureContributor } from '../features/context';
import type { RenameResult } from '../features/editor/navigation';
import type { DocumentSymbol, FoldingRange } from '../features/editor/structure';
import type { InlayHint, SemanticToken } from '../features/editor/decorations';
import type { FileInfo, PreviewResult, RolloutPlan } from '@appset-tools/protocol';
import { configFor, parseConfig } from '../config/load';
import { isIgnored, type Finding } from '../config/apply';
import type { RepoConfig } from '../config/types';
import type { InstallReport } from '../install/report';
import { parseInstallFilesAhead } from '../install/model';
import { defaultContributors } from './contributors';
import { OpenDocuments } from './openDocuments';
import { Expansions } from './expansions';
import { Analyses, type Analysis } from './analyses';
import { appsetAt, Dispatch } from './dispatch';
import { LintRun, outsideAppSets, unsuppressed } from './lintRun';
import { Views } from './views';
import { registeredClusters } from '../generators/inventory';
import type { AppSetSummary, Applications, DocumentAnalysis, OpenDocumentsOf, RolloutSites, WorkspaceState } from './results';
import type { EffectivePolicy } from '../rules/applicationsSync';

export type { Analysis } from './analyses';
export { looksLikeAppSet } from './lintRun';

export interface LanguageServiceParams {
  host: EngineHost;
  /** Defaults to every built-in feature module. */
  contributors?: FeatureContributor[];
  /** Workspace index test results kept between runs (the CLI's cache folder). */
  workspaceCache?: ProbeCache;
  /**
   * The language server: first answers do not wait for the whole workspace to be read (the Argo CD
   * version is detected from the files read so far until `workspace.warm()` has read them all; see
   * WorkspaceIndexOptions.defer). The CLI leaves it off: every answer is final.
   */
  deferWorkspaceScan?: boolean;
  /**
   * `false`: the workspace index keeps and parses every YAML file, not only the ones an interest's
   * cheap text test passes (workspace/interests.ts). Slower, and every answer must be the same: the
   * tests compare the two (test/unit/workspace-index.test.ts). Default true.
   */
  prefilter?: boolean;
}

/**
 * The facade's answers, over an analysis of type `A`: the engine's own `A` inside the engine
 * (`LanguageService`), an opaque handle for the fronts (`FrontLanguageService`, what engine/index.ts hands out).
 * Every answer is plain data.
 */
export interface LanguageServiceOf<A> {
  readonly workspace: WorkspaceState;
  /** Parses and prepares a document; cached by uri and text. */
  analyze(uri: string, text: string, path?: string): A;
  /**
   * The first analysis of a very long file: only its `---` parts that can hold more than syntax
   * findings are parsed (firstPass.ts); undefined when the file was analysed before or the first
   * pass would not save much. `analyze` of the text gives the whole answer after it.
   */
  quickAnalysis(uri: string, text: string, path?: string): A | undefined;
  /** `analyze` in steps (the YAML parse pauses between them; see `prepare`). */
  analyzeSteps(uri: string, text: string, path?: string): Generator<void, A>;
  /** The findings an editor or CI reports: repository config applied (severities, `off`, ignored paths), suppressed ones left out. */
  diagnostics(a: A): EngineDiagnostic[];
  /** Like `diagnostics`, but suppressed findings are kept, marked with `suppressed` (the CLI reports them in SARIF). */
  lint(a: A): Finding[];
  /** The repository configuration (`.appset-tools.yaml`) that applies to a file. */
  configFor(path: string): RepoConfig;
  /** True when the repository configuration's `ignore` list names the file. */
  isIgnored(path: string): boolean;
  /** Problems in a configuration file itself (`config/invalid`). */
  configDiagnostics(configPath: string): EngineDiagnostic[];
  hover(a: A, offset: number): Hover | undefined;
  codeLenses(a: A): CodeLens[];
  codeActions(a: A, span: Span, diagnostics: EngineDiagnostic[]): CodeAction[];
  completions(a: A, offset: number): CompletionItem[];
  /** The file's ApplicationSets. */
  appsets(a: A): AppSetSummary[];
  /** The Applications of the ApplicationSet containing `offset` (or the first one); null when there is none. */
  applications(a: A, offset?: number): Applications | null;
  /** The effective settings for the file: the editor's or the CLI's, under the repository configuration. */
  settings(a: A): EngineSettings;
  /** The workspace roots of the service's host. */
  roots(): readonly string[];
  /** The applications-sync policy the controller applies to the ApplicationSet containing `offset` (or the first one). */
  syncPolicy(a: A, offset?: number): EffectivePolicy | null;
  /** The clusters the workspace registers (cluster Secrets, inventories); undefined when it declares none. */
  registeredClusters(a: A): { names: string[]; servers: string[] } | undefined;
  /** Where the ApplicationSet containing `offset` (or the first one) writes its generators and rollout steps. */
  rolloutSites(a: A, offset?: number): RolloutSites | null;
  /** The first YAML syntax error in the document of the ApplicationSet containing `offset` (`line 12: …`): what is read of it is not what was meant. */
  syntaxError(a: A, offset?: number): string | undefined;
  /**
   * What an editor shows for the file: every finding of ApplicationSet files; for other YAML files
   * only file-level findings (e.g. an ignored progressive-sync setting), never YAML syntax errors,
   * which the editor's YAML support reports already.
   */
  diagnosticsToShow(a: A): EngineDiagnostic[];
  /** The preview of the ApplicationSet containing `offset` (or the first one); null when there is none. */
  preview(a: A, offset?: number, opts?: { lineSafe?: boolean }): PreviewResult | null;
  /**
   * For a Helm chart template with its chart's values.yaml in the workspace: the analysis of the text
   * Helm renders (yaml/helmRender.ts), or why it cannot be rendered here; undefined for other files.
   */
  helmRendered(a: A): { analysis: A; text: string; values: string } | { cannot: string } | undefined;
  /** The rollout plan of the ApplicationSet containing `offset` (or the first one); null when there is none. */
  rolloutPlan(a: A, offset?: number, opts?: { view?: boolean }): RolloutPlan | null;
  /** The preview and the plan as text with a one-line summary, for the server's commands (editors without views). */
  previewText(a: A, offset?: number): { text: string; summary: string } | null;
  planText(a: A, offset?: number): { text: string; summary: string } | null;
  /** Where the parameter under the cursor is defined (list element keys, values entries, cluster Secrets, git files). */
  definition(a: A, offset: number): Location[];
  /** Where the parameter under the cursor is used (and defined, with `includeDeclaration`). */
  references(a: A, offset: number, includeDeclaration: boolean): Location[];
  /** The span rename would change and its current name, or why it cannot rename there. */
  prepareRename(a: A, offset: number): { span: Span; placeholder: string } | { error: string } | undefined;
  /** Renames a list-element key and its uses. */
  rename(a: A, offset: number, newName: string): RenameResult | undefined;
  /** One symbol per ApplicationSet: generators (kind, parameter sets), template, templatePatch, strategy steps. */
  documentSymbols(a: A): DocumentSymbol[];
  /** Multi-line mappings, lists and block scalars of every document in the file. */
  foldingRanges(a: A): FoldingRange[];
  /** Tokens of the `{{ }}` actions inside YAML strings. */
  semanticTokens(a: A): SemanticToken[];
  /** A template string's value for the first Application, after the string. */
  inlayHints(a: A, range?: Span): InlayHint[];
  /** The document's ApplicationSets and their controller's progressive-sync state (status bar, context keys). */
  fileInfo(a: A): FileInfo;
  /** One line per Argo CD install found (and the override): what decides progressive syncs, for the server log. */
  enablementSummary(): string[];
  /** `enablementSummary` in steps: the files it reads are read ahead a few KiB a step, the large ones in steps (views.ts). */
  enablementSummarySteps(): Generator<void, string[]>;
  /**
   * Parses about `chars` characters of the files `enablementSummary` reads, not parsed yet (files of 16 KiB
   * or more are left to WorkspaceIndex.inSteps); true when all are. One step of `enablementSummarySteps`.
   */
  enablementSummaryAhead(chars: number): boolean;
  /** The install model as a report: every Argo CD install, its version, settings, evidence and which of `appsets` it runs (`appset instances`). */
  installReport(appsets: readonly { path: string; namespace?: string }[]): InstallReport;
  /** Open editor documents as overlays of the workspace index (see openDocuments.ts). */
  readonly openDocuments: OpenDocumentsOf<A>;
  /**
   * The expensive part of answering for `a` (expanding its ApplicationSets), in steps: the caller
   * runs it to the end before asking for answers, pausing between steps to serve other work, or
   * drops it when its text is outdated. Answers for `a` then reuse the result.
   */
  prepare(a: A): Generator<void, void>;
  /** Like `prepare`, for the findings of `a` (`lint`, `diagnostics`): computed in steps between feature modules. */
  prepareDiagnostics(a: A): Generator<void, void>;
  /** Like `prepare`, for the preview text of the ApplicationSet at `offset` (`preview`, `previewText`): a few Applications a step. */
  preparePreview(a: A, offset?: number): Generator<void, void>;
  /** Releases what is kept for a document that was closed. */
  forget(uri: string): void;
  /** Forget cached analyses (e.g. settings changed). */
  reset(): void;
}

/** The facade inside the engine (and the tests of its parts): analyses with their contexts. */
export interface LanguageService extends LanguageServiceOf<Analysis> {
  readonly workspace: WorkspaceIndex;
  readonly openDocuments: OpenDocuments;
  /** The context of the ApplicationSet document containing `offset` (or the first one). */
  appsetAt(a: Analysis, offset?: number): AppSetContext | undefined;
}

/** The facade as the fronts see it (engine/index.ts): an analysis is an opaque handle, every answer plain data. */
export type FrontLanguageService = LanguageServiceOf<DocumentAnalysis>;

/** `getLanguageService` for the fronts: the same service, typed as `FrontLanguageService`. */
export const getFrontLanguageService = getLanguageService as unknown as (params: LanguageServiceParams) => FrontLanguageService;

export function getLanguageService(params: LanguageServiceParams): LanguageService {
  const host = params.host;
  const workspace = new WorkspaceIndex(host, {
    cache: params.workspaceCache,
    defer: params.deferWorkspaceScan,
    prefilter: params.prefilter,
  });
  const expansions = new Expansions(workspace);
  const analyses = new Analyses(host, workspace, expansions);
  const dispatch = new Dispatch(params.contributors ?? defaultContributors(), host);
  const lint = new LintRun(host, workspace, dispatch);
  const views = new Views(host, workspace, analyses);

  const service: LanguageService = {
    workspace,
    analyze: (uri, text, path) => analyses.analyze(uri, text, path),
    analyzeSteps: (uri, text, path) => analyses.analyzeSteps(uri, text, path),
    quickAnalysis: (uri, text, path) => analyses.quickAnalysis(uri, text, path),
    diagnostics: (a) => unsuppressed(service.lint(a)),
    lint: (a) => [...runSteps(lint.lintSteps(a))],
    configFor: (path) => configFor(path, host, workspace),
    isIgnored: (path) => isIgnored(path, configFor(path, host, workspace)),
    configDiagnostics(configPath) {
      const text = workspace.file(configPath)?.text ?? host.readFile(configPath);
      return text === undefined ? [] : parseConfig(text, configPath).diagnostics;
    },
    hover: (a, offset) => dispatch.hover(a, offset),
    codeLenses: (a) => dispatch.codeLenses(a),
    codeActions: (a, span, diagnostics) => dispatch.codeActions(a, span, diagnostics),
    completions: (a, offset) => dispatch.completions(a, offset),
    diagnosticsToShow: (a) => outsideAppSets(a, service.diagnostics(a)),
    helmRendered: (a) => views.helmRendered(a),
    preview: (a, offset, opts) => views.preview(a, offset, opts),
    rolloutPlan: (a, offset, opts) => views.rolloutPlan(a, offset, opts),
    appsets: (a) => views.appsets(a),
    applications: (a, offset) => views.applications(a, offset),
    settings: (a) => a.file.settings,
    roots: () => host.roots(),
    syncPolicy: (a, offset) => views.syncPolicy(a, offset),
    registeredClusters: (a) => registeredClusters(a.file),
    rolloutSites: (a, offset) => views.rolloutSites(a, offset),
    syntaxError: (a, offset) => views.syntaxError(a, offset),
    previewText: (a, offset) => views.previewText(a, offset),
    planText: (a, offset) => views.planText(a, offset),
    definition: (a, offset) => dispatch.definition(a, offset),
    references: (a, offset, includeDeclaration) => dispatch.references(a, offset, includeDeclaration),
    prepareRename: (a, offset) => dispatch.prepareRename(a, offset),
    rename: (a, offset, newName) => dispatch.rename(a, offset, newName),
    documentSymbols: (a) => dispatch.documentSymbols(a),
    foldingRanges: (a) => dispatch.foldingRanges(a),
    semanticTokens: (a) => dispatch.semanticTokens(a),
    inlayHints: (a, range) => dispatch.inlayHints(a, range),
    fileInfo: (a) => views.fileInfo(a),
    installReport: (appsets) => views.installReport(appsets),
    enablementSummary: () => views.enablementSummary(),
    enablementSummarySteps: () => views.enablementSummarySteps(),
    enablementSummaryAhead: (chars) => parseInstallFilesAhead(workspace, host.roots(), chars),
    prepare: (a) => analyses.prepare(a),
    *prepareDiagnostics(a) {
      // The expansions first, in steps: `a` may be a newer analysis than the one its caller prepared (the
      // workspace changed in between), and a feature module asking for an expansion would otherwise
      // compute it in one go (10,000 Applications: over 100 ms with every render re-used).
      yield* analyses.prepare(a);
      yield* lint.lintSteps(a);
    },
    preparePreview: (a, offset) => views.preparePreview(a, offset),
    forget: (uri) => analyses.forget(uri),
    openDocuments: new OpenDocuments(workspace),
    appsetAt,
    reset() {
      analyses.clear();
      expansions.clear();
      workspace.invalidate();
    },
  };
  return service;
}
