/**
 * The engine's one door. The fronts (the language server in `lsp/`, the CLI in `cli/`) and the Node
 * host adapter (`host/`) import the engine only through this module (test/unit/architecture.test.ts
 * enforces it), so what the engine offers is visible here, and everything behind it may move.
 *
 * Start at `getLanguageService()`: a facade over the feature modules (validation, preview, rollout)
 * with one cache and one `EngineHost`.
 */
// What it hands out is plain data: an analysis is an opaque handle the fronts give back
// (service/results.ts), never an engine context.
export { getFrontLanguageService as getLanguageService, looksLikeAppSet } from './service/languageService';
export type { FrontLanguageService as LanguageService, LanguageServiceParams } from './service/languageService';
export type {
  DocumentAnalysis as Analysis,
  AppSetSummary,
  Applications,
  RolloutSites,
  WorkspaceState,
  OpenDocumentsOf,
} from './service/results';
export type { ProbeCache } from './workspace/index';
export { INTERESTS } from './workspace/interests';
export { mayDeclareClusters } from './generators/placeholders';
export { isObj, own } from './objects';
// A stepwise computation (`*Steps`) run to its end in one go.
export { runSteps } from './steps';
// The length from which a long file's first answer covers its first `---` parts only (the whole answer follows).
export { FIRST_PASS_MIN_CHARS } from './service/firstPass';
export { notRenderedHere } from './service/helmRender';
// One ApplicationSet's expansion as `expand()` returns it: its Applications, problems and generators.
export type { Expansion, ExpansionProblem, GeneratedApp, GeneratorSummary } from './expand/types';

// The outside world, as the engine sees it.
export { DEFAULT_SETTINGS, emptyHost } from './host';
export type { EngineHost, EngineSettings, FileStat, GitRemote, InstanceMapping, ProgressiveSyncOverride } from './host';

// The engine's vocabulary: spans are character offsets; fronts convert to lines and columns (the CLI with this line table).
export type * from './types';
export { lineStarts, lineOfOffset } from './yaml';
export { declaresAppSet } from './kinds/appset';

// Argo CD versions: the supported release lines and the `argocdVersion` setting's accepted values.
export { SUPPORTED as SUPPORTED_ARGOCD_VERSIONS } from './versions/releases';
export { isVersionSetting } from './versions/releases';

// Controller rules the fronts share (folders no scan reads, Go's string order).
export { SKIPPED_FOLDERS, inSkippedFolder } from './rules/folders';
export { compareGoStrings } from './rules/order';

// Diagnostic codes (README's code table and the CLI read the registry).
export { ALL_CODES, codeInfo, isDiagnosticCode, type CodeInfo, type DiagnosticCode } from './diagnostics/codes';
export { README_URL, codeAnchor, codeHelpUri } from './diagnostics/help';

// The rollout plan's words, shared by lenses and `appset plan`.
export { planTitle, enablementLine, rollingSyncLines, skippedLine, verdictOf } from './rollout/describe';
// The rollout timeline (order, duration at an assumed time per sync, stops), shown by plan, the rollout view and diff.
export { timelineLines, timelineMarkdown, minutesText, clockText } from './rollout/timeline';
export type { RolloutTimeline, TimelineStep, TimelineStop } from './rollout/timeline';
export { installReportLines, type InstallReport, type InstallReportEntry } from './install/report';
export type { RolloutPlan, PlanStep, PlanWave, Enablement } from '@appset-tools/protocol';

// The Go template library, as `appset template` and the language server's cost budget use it.
export { renderString, renderValue, TemplateError, limitExpensiveFunctions, setTemplateLimits } from '@appset-tools/gotemplate';

// Editor features' shapes (symbols, folding, semantic tokens, inlay hints, rename).
export type { DocumentSymbol, SymbolKind, FoldingRange } from './features/editor/structure';
export type { SemanticToken, InlayHint } from './features/editor/decorations';
export type { RenameResult } from './features/editor/navigation';
export type { TokenKind } from '@appset-tools/gotemplate';

// Repository configuration (`.appset-tools.yaml`), inline suppressions and finding fingerprints (CI outputs).
export { CONFIG_FILE, type RepoConfig } from './config/types';
export { CONFIG_KEYS } from './config/keys';
export type { Finding } from './config/apply';
export { fingerprints } from './diagnostics/fingerprint';
// The policy gates' reading of a rollout plan.
export { largestSyncAtOnce } from './features/policy/gates';
// A change's impact, one engine for `appset diff` and the editor's "this change" lens: the sides, their comparison.
export { appSetSides, type SideOptions } from './service/impactSides';
export { diffReport, diffAppSet, diffJson, pairAppSets } from './features/impact/diff';
export { changeImpact, changeSummary, type ChangeImpact } from './features/impact/summary';
export { impactLensTitle, impactMarkdown } from './features/impact/words';
export { changeGateFinding, changeGateMessage } from './features/policy/changeGate';
export { appsYaml } from './features/impact/texts';
export type {
  AppChange,
  AppSetDiff,
  AppSetSites,
  Deletion,
  DiffReport,
  FieldChange,
  DiffPlan,
  RolloutDiff,
  SideApp,
  SideAppSet,
  StepSize,
} from './features/impact/diff';
// The applications-sync policy the controller applies (the ApplicationSet's own, the install's --policy and override).
export type { EffectivePolicy, SyncPolicyName } from './rules/applicationsSync';
