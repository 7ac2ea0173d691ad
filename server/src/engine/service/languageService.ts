/**
 * The engine's single facade, in the style of vscode-json-languageservice's getLanguageService():
 * it wires the feature modules (validation, preview, rollout) to one cache and one host.
 * Everything is synchronous and pure apart from reads through the host.
 */
import type { EngineHost } from '../host';
import type { CodeAction, CodeLens, CompletionItem, EngineDiagnostic, Hover, Location, Span } from '../types';
import { parseFileSteps, spanAt, type AppSetDoc, type ParsedFile, astSteps, commentStarts } from '../yaml';
import { runSteps } from '../steps';
import { WorkspaceIndex, type ProbeCache } from '../workspace/index';
import { partialReason } from '../validate/partial';
import type { Expansion, ExpansionProblem } from '../expand/types';
import type { RenderMemo } from '../expand/renderMemo';
import { lineOf } from '../expand/provenance';
import type { AppSetContext, FeatureContributor, FileContext } from '../features/context';
import { targetVersion, type TargetVersion } from '../install/target';
import { defaultContributors } from './contributors';
import { fieldHover } from '../features/validation/assist';
import { dropAfterYamlErrors, dropSuperseded } from '../diagnostics/findings';
import { OpenDocuments } from './openDocuments';
import { previewTextSteps } from '../expand/preview';
import { planSummary, planText, previewSummary } from '../features/editor/commandText';
import { definitionsAt, prepareRenameAt, referencesAt, renameAt, type RenameResult } from '../features/editor/navigation';
import { documentSymbols, foldingRanges, type DocumentSymbol, type FoldingRange } from '../features/editor/structure';
import { inlayHints, semanticTokens, type InlayHint, type SemanticToken } from '../features/editor/decorations';
import type { RolloutPlan } from '../../protocol';
import { configFor, parseConfig } from '../config/load';
import { applyConfig, effectiveSettings, isIgnored, type Finding } from '../config/apply';
import { CONFIG_FILE, type RepoConfig } from '../config/types';
import { SUPERSEDES } from '../features/policy/gates';
import { codeInfo } from '../diagnostics/codes';
import { mayDeclareClusters } from '../generators/placeholders';
import type { FileInfo, PreviewResult } from '../../protocol';
import { enablementFor, getRolloutPlan, getStrategy } from '../features/rollout/plan';
import { describeInstances } from '../rollout/enablement';
import { installReport, installReportLines, type InstallReport } from '../install/report';
import { decidedWhere, enabledSentence, offSentence, shownInstanceName } from '../rollout/describe';
import { rollingSyncWithSteps } from '../rollout/spec';
import { rolloutViewDetails } from '../features/rollout/viewDetails';
import { chartTemplateOf, chartTemplateFile } from '../kinds/helmChart';
import { renderChartTemplate } from './helmRender';
import { declaresAppSet } from '../kinds/appset';
import { firstPassParts } from './firstPass';
import { mayHaveArgocdAppsValues } from '../kinds/argocdApps';
import { earlyShown, withoutExpansion, unlessExpansion } from './earlyFindings';
import { BoundedCache } from './boundedCache';
import { Expansions } from './expansions';

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
}

export interface Analysis {
  file: FileContext;
  appsets: AppSetContext[];
}

export interface LanguageService {
  readonly workspace: WorkspaceIndex;
  /** Parses and prepares a document; cached by uri and text. */
  analyze(uri: string, text: string, path?: string): Analysis;
  /**
   * The first analysis of a very long file: only its `---` parts that can hold more than syntax
   * findings are parsed (firstPass.ts); undefined when the file was analysed before or the first
   * pass would not save much. `analyze` of the text gives the whole answer after it.
   */
  quickAnalysis(uri: string, text: string, path?: string): Analysis | undefined;
  /** `analyze` in steps (the YAML parse pauses between them; see `prepare`). */
  analyzeSteps(uri: string, text: string, path?: string): Generator<void, Analysis>;
  /** The findings an editor or CI reports: repository config applied (severities, `off`, ignored paths), suppressed ones left out. */
  diagnostics(a: Analysis): EngineDiagnostic[];
  /** Like `diagnostics`, but suppressed findings are kept, marked with `suppressed` (the CLI reports them in SARIF). */
  lint(a: Analysis): Finding[];
  /** The repository configuration (`.appset-tools.yaml`) that applies to a file. */
  configFor(path: string): RepoConfig;
  /** True when the repository configuration's `ignore` list names the file. */
  isIgnored(path: string): boolean;
  /** Problems in a configuration file itself (`config/invalid`). */
  configDiagnostics(configPath: string): EngineDiagnostic[];
  hover(a: Analysis, offset: number): Hover | undefined;
  codeLenses(a: Analysis): CodeLens[];
  codeActions(a: Analysis, span: Span, diagnostics: EngineDiagnostic[]): CodeAction[];
  completions(a: Analysis, offset: number): CompletionItem[];
  /** The expansion of the ApplicationSet document containing `offset` (or the first one). */
  appsetAt(a: Analysis, offset?: number): AppSetContext | undefined;
  /**
   * What an editor shows for the file: every finding of ApplicationSet files; for other YAML files
   * only file-level findings (e.g. an ignored progressive-sync setting), never YAML syntax errors,
   * which the editor's YAML support reports already.
   */
  diagnosticsToShow(a: Analysis): EngineDiagnostic[];
  /** The preview of the ApplicationSet containing `offset` (or the first one); null when there is none. */
  preview(a: Analysis, offset?: number, opts?: { lineSafe?: boolean }): PreviewResult | null;
  /**
   * For a Helm chart template with its chart's values.yaml in the workspace: the analysis of the text
   * Helm renders (yaml/helmRender.ts), or why it cannot be rendered here; undefined for other files.
   */
  helmRendered(a: Analysis): { analysis: Analysis; text: string; values: string } | { cannot: string } | undefined;
  /** The rollout plan of the ApplicationSet containing `offset` (or the first one); null when there is none. */
  rolloutPlan(a: Analysis, offset?: number): RolloutPlan | null;
  /** The preview and the plan as text with a one-line summary, for the server's commands (editors without views). */
  previewText(a: Analysis, offset?: number): { text: string; summary: string } | null;
  planText(a: Analysis, offset?: number): { text: string; summary: string } | null;
  /** Where the parameter under the cursor is defined (list element keys, values entries, cluster Secrets, git files). */
  definition(a: Analysis, offset: number): Location[];
  /** Where the parameter under the cursor is used (and defined, with `includeDeclaration`). */
  references(a: Analysis, offset: number, includeDeclaration: boolean): Location[];
  /** The span rename would change and its current name, or why it cannot rename there. */
  prepareRename(a: Analysis, offset: number): { span: Span; placeholder: string } | { error: string } | undefined;
  /** Renames a list-element key and its uses. */
  rename(a: Analysis, offset: number, newName: string): RenameResult | undefined;
  /** One symbol per ApplicationSet: generators (kind, parameter sets), template, templatePatch, strategy steps. */
  documentSymbols(a: Analysis): DocumentSymbol[];
  /** Multi-line mappings, lists and block scalars of every document in the file. */
  foldingRanges(a: Analysis): FoldingRange[];
  /** Tokens of the `{{ }}` actions inside YAML strings. */
  semanticTokens(a: Analysis): SemanticToken[];
  /** A template string's value for the first Application, after the string. */
  inlayHints(a: Analysis, range?: Span): InlayHint[];
  /** The document's ApplicationSets and their controller's progressive-sync state (status bar, context keys). */
  fileInfo(a: Analysis): FileInfo;
  /** One line per Argo CD install found (and the override): what decides progressive syncs, for the server log. */
  enablementSummary(): string[];
  /** The install model as a report: every Argo CD install, its version, settings, evidence and which of `appsets` it runs (`appset instances`). */
  installReport(appsets: readonly { path: string; namespace?: string }[]): InstallReport;
  /** Open editor documents as overlays of the workspace index (see openDocuments.ts). */
  readonly openDocuments: OpenDocuments;
  /**
   * The expensive part of answering for `a` (expanding its ApplicationSets), in steps: the caller
   * runs it to the end before asking for answers, pausing between steps to serve other work, or
   * drops it when its text is outdated. Answers for `a` then reuse the result.
   */
  prepare(a: Analysis): Generator<void, void>;
  /** Like `prepare`, for the findings of `a` (`lint`, `diagnostics`): computed in steps between feature modules. */
  prepareDiagnostics(a: Analysis): Generator<void, void>;
  /**
   * What an editor can show of `a` before its ApplicationSets are expanded (as tsserver sends syntactic
   * diagnostics before semantic ones): YAML syntax, the schema and every check that needs no generated
   * Application — always a subset of `diagnosticsToShow(a)` (see earlyFindings.ts). In steps, like
   * `prepareDiagnostics`, whose run then re-uses the feature modules' memos.
   */
  earlyDiagnosticsSteps(a: Analysis): Generator<void, EngineDiagnostic[]>;
  /** Like `prepare`, for the preview text of the ApplicationSet at `offset` (`preview`, `previewText`): a few Applications a step. */
  preparePreview(a: Analysis, offset?: number): Generator<void, void>;
  /** Releases what is kept for a document that was closed. */
  forget(uri: string): void;
  /** Forget cached analyses (e.g. settings changed). */
  reset(): void;
}

/** Where an expansion problem is written, for the preview header: `apps/appset.yaml:14`. */
function problemSite(ctx: AppSetContext): (p: ExpansionProblem) => string | undefined {
  const file = ctx.file.path ?? ctx.file.uri;
  const roots = [...ctx.file.host.roots()].sort((a, b) => b.length - a.length);
  const root = roots.find((r) => file.startsWith(r.endsWith('/') ? r : r + '/'));
  const name = root ? file.slice(root.length).replace(/^\/+/, '') : file.slice(file.lastIndexOf('/') + 1);
  return (p) => {
    const span = p.span ?? spanAt(ctx.doc.doc, p.path);
    return `${name}:${lineOf(ctx.file.text, span.start)}`;
  };
}

const ANALYSES_KEPT = 256;
const ANALYSES_CHARS = 16 * 1024 * 1024;

/** The install model's lines for the install(s) that run this ApplicationSet (status bar tooltip). */
function installLinesFor(ctx: AppSetContext): { install?: string[] } {
  const path = ctx.file.path;
  if (!path) return {};
  const meta = (ctx.doc.value as { metadata?: { namespace?: unknown } } | null)?.metadata;
  const namespace = typeof meta?.namespace === 'string' && meta.namespace ? meta.namespace : undefined;
  const r = installReport(ctx.file, [{ path, namespace }]);
  const lines = installReportLines({ installs: r.installs.filter((i) => i.governs.length), others: r.others });
  return lines.length ? { install: lines } : {};
}

export function getLanguageService(params: LanguageServiceParams): LanguageService {
  const host = params.host;
  const contributors = params.contributors ?? defaultContributors();
  const workspace = new WorkspaceIndex(host, { cache: params.workspaceCache, defer: params.deferWorkspaceScan });
  /**
   * Analyses kept, newest last: at most ANALYSES_KEPT, and at most ANALYSES_CHARS characters of text
   * in all (a parsed document holds many times its text), never dropping the one just made.
   */
  const analyses = new BoundedCache<string, Analysis>({
    maxEntries: ANALYSES_KEPT,
    maxWeight: ANALYSES_CHARS,
    weight: (a) => a.file.text.length,
  });
  const expansions = new Expansions(workspace);

  /** The parts `quickAnalysis` parses (see firstPass.ts); undefined: all. */
  let partFilter: ((part: string) => boolean) | undefined;

  function analyze(uri: string, text: string, path?: string): Analysis {
    return runSteps(analyzeSteps(uri, text, path));
  }

  function* analyzeSteps(uri: string, text: string, path?: string): Generator<void, Analysis> {
    const only = partFilter;
    const prev = analyses.peek(uri);
    if (prev && prev.file.text === text && prev.file.workspace === workspace && (prev as AnalysisWithVersion).version === workspace.version)
      return prev;
    const chart = chartTemplateOf(text, path, host);
    // Only the `---` documents whose text changed since the last analysis of this uri are parsed; the
    // same text (the workspace changed: an open document pushed to the index) keeps its whole parse,
    // without even the limits pre-scan (a long file's analysis again in one go held the server).
    const same = !chart && !only && prev?.file.text === text && wholeParses.has(prev.file.parsed);
    const parsed: ParsedFile = chart
      ? chartTemplateFile(text, chart)
      : same
        ? prev.file.parsed
        : yield* parseFileSteps(text, prev?.file.parsed, only);
    if (!chart && !only) wholeParses.add(parsed);
    const config = configFor(path, host, workspace);
    const file: FileContext = { uri, path, text, parsed, host, settings: effectiveSettings(host.settings(), config), workspace, config };
    // The located tree of each ApplicationSet, which every later stage reads: built here in steps (a
    // long document's tree in one go held the server for tens of milliseconds at its first lookup).
    for (const doc of parsed.appsets) yield* astSteps(doc.doc);
    // Whether a document is a kustomize patch asks the workspace: after it changed (a document opened),
    // its files are looked at again a hundred a step first, not all at once inside that question.
    if (parsed.appsets.length && path) while (!workspace.recheck(100)) yield;
    for (const doc of parsed.appsets) {
      yield;
      doc.partial = partialReason(doc, file);
    }
    // An ApplicationSet whose document is the same parsed document as before (same text at the same
    // offset, same position in the file) with the same workspace, settings and configuration keeps
    // what was computed for it: expansion, target version, validation and every other memo.
    const unchanged =
      prev &&
      prev.file.workspace === workspace &&
      (prev as AnalysisWithVersion).version === workspace.version &&
      prev.file.config === config &&
      JSON.stringify(prev.file.settings) === JSON.stringify(file.settings);
    const before = new Map<unknown, AppSetContext>();
    if (unchanged) for (const c of prev.appsets) before.set(c.doc.doc, c);
    const appsets = parsed.appsets.map((doc, i) => {
      const old = before.get(doc.doc);
      const ctx = makeContext(
        file,
        doc,
        old && old.doc.index === doc.index && old.doc.helmValues === doc.helmValues && old.doc.partial === doc.partial ? old : undefined,
      );
      // An edited ApplicationSet (the one at the same place in the file before) lends its renders: an
      // Application of the same template and parameter set is not rendered again (expand/renderMemo.ts).
      const was = prev?.appsets[i];
      if (!states.get(ctx)?.exp && was && was.doc.index === doc.index && !doc.partial) {
        const renders = (states.get(was)?.exp ?? prepared.get(was))?.renders;
        if (renders) lent.set(ctx, renders);
      }
      return ctx;
    });
    const a: AnalysisWithVersion = { file, appsets, version: workspace.version };
    analyses.set(uri, a);
    return a;
  }

  /** Parses of a whole file by parseFileSteps (not a chart template's, not a first pass's). */
  const wholeParses = new WeakSet<ParsedFile>();

  /** State of a context, kept when the next analysis re-uses its document (see `analyze`). */
  const states = new WeakMap<AppSetContext, { exp?: Expansion; target?: TargetVersion; memos: Map<string, unknown> }>();

  // Expansions computed in steps by `prepare`, for the contexts they belong to.
  const prepared = new WeakMap<AppSetContext, Expansion>();
  // The previous version's renders, until the context's own expansion is made (then dropped: no chain of versions is kept).
  const lent = new WeakMap<AppSetContext, RenderMemo>();

  function makeContext(file: FileContext, doc: AppSetDoc, reuse?: AppSetContext): AppSetContext {
    const kept = reuse && states.get(reuse);
    let exp: Expansion | undefined = kept?.exp;
    let target: TargetVersion | undefined = kept?.target;
    const memos = kept?.memos ?? new Map<string, unknown>();
    const ctx: AppSetContext = {
      file,
      doc,
      expansion: () => {
        exp ??= prepared.get(ctx) ?? expansions.of(doc, file, lent.get(ctx));
        lent.delete(ctx);
        state.exp = exp;
        return exp;
      },
      target: () => {
        target ??= targetVersion(file, doc);
        state.target = target;
        return target;
      },
      memo<T>(key: string, compute: () => T): T {
        if (!memos.has(key)) memos.set(key, compute());
        return memos.get(key) as T;
      },
    };
    const state = { exp, target, memos };
    states.set(ctx, state);
    return ctx;
  }

  function each<T>(fn: (c: FeatureContributor) => T | undefined): T[] {
    const out: T[] = [];
    for (const c of contributors) {
      const r = one(c, fn);
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** One feature module's answer; its failure is logged and leaves the others' answers. */
  function one<T>(c: FeatureContributor, fn: (c: FeatureContributor) => T | undefined): T | undefined {
    try {
      return fn(c);
    } catch (e) {
      host.log?.(`feature "${c.name}" failed: ${(e as Error).stack ?? e}`);
      return undefined;
    }
  }

  /** One ApplicationSet's failure in a feature leaves the others' answers. */
  function guarded<T>(what: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      host.log?.(`${what} failed: ${(e as Error).stack ?? e}`);
      return undefined;
    }
  }

  // Findings kept per analysis: the diagnostics run computes them in steps (`prepareDiagnostics`), the
  // answers that follow read them.
  const linted = new WeakMap<Analysis, Finding[]>();
  function* lintSteps(a: Analysis, early = false): Generator<void, Finding[]> {
    const done = linted.get(a);
    if (done) return done;
    const cfg = a.file.config ?? configFor(a.file.path, host, workspace);
    let result: Finding[];
    if (isIgnored(a.file.path, cfg)) result = [];
    // The configuration file itself: its own problems (it holds no ApplicationSet).
    else if (a.file.path && a.file.path.endsWith('/' + CONFIG_FILE)) result = parseConfig(a.file.text, a.file.path).diagnostics;
    else {
      const out: EngineDiagnostic[] = [...a.file.parsed.diagnostics];
      // The file's findings, computed once per analysis (an early answer computed them already).
      let files = fileFindings.get(a);
      if (!files) {
        files = [];
        for (const c of contributors) {
          files.push(...(one(c, (x) => x.fileDiagnostics?.(a.file)) ?? []));
          yield;
        }
        fileFindings.set(a, files);
      }
      out.push(...files);
      for (const ctx of a.appsets) {
        // Early: the modules that ask for the expansion give nothing now (they answer in the whole run).
        const c2 = early ? withoutExpansion(ctx) : ctx;
        for (const c of contributors) {
          out.push(...(one(c, (x) => (early ? unlessExpansion(() => x.diagnostics?.(c2)) : x.diagnostics?.(c2))) ?? []));
          yield;
        }
      }
      const broken = a.file.parsed.docs.filter((d) => d.doc.errors.length).map((d) => d.span);
      result = applyConfig(
        superseded(dropSuperseded(dropAfterYamlErrors(out, broken))),
        a.file.text,
        cfg,
        (c) => codeInfo(c) !== undefined,
        commentStarts,
      );
    }
    if (!early) linted.set(a, result);
    return result;
  }
  const fileFindings = new WeakMap<Analysis, EngineDiagnostic[]>();

  /** The preview text of one ApplicationSet, kept with its context (see `preparePreview`). */
  function* previewYamlSteps(ctx: AppSetContext, lineSafe = false): Generator<void, string> {
    const kept = ctx.memo(lineSafe ? 'preview-yaml-line-safe' : 'preview-yaml', () => ({ text: undefined as string | undefined }));
    if (kept.text === undefined) {
      // Show what the controller writes: under an active RollingSync, auto-sync is turned off.
      const rollingSync = !!getRolloutPlan(ctx).effective;
      yield;
      kept.text = yield* previewTextSteps(ctx.doc.name, ctx.expansion(), { rollingSync, siteOf: problemSite(ctx), lineSafe });
    }
    return kept.text;
  }

  const inDoc = (ctx: AppSetContext, offset: number) => offset >= ctx.doc.span.start && offset <= ctx.doc.span.end;

  const service: LanguageService = {
    workspace,
    analyze,
    analyzeSteps,
    quickAnalysis(uri, text, path) {
      if (analyses.has(uri)) return undefined;
      const only = firstPassParts(text, path);
      if (!only) return undefined;
      // Not kept: the next `analyze` of the uri parses the whole text (expansions are found in their cache).
      partFilter = only;
      try {
        return analyze(uri, text, path);
      } finally {
        partFilter = undefined;
        service.forget(uri);
      }
    },
    diagnostics(a) {
      return service.lint(a).flatMap((f) => {
        if (f.suppressed) return [];
        const { suppressed: _, ...d } = f;
        return [d];
      });
    },
    lint(a) {
      return [...runSteps(lintSteps(a))];
    },
    configFor: (path) => configFor(path, host, workspace),
    isIgnored: (path) => isIgnored(path, configFor(path, host, workspace)),
    configDiagnostics(configPath) {
      const text = workspace.file(configPath)?.text ?? host.readFile(configPath);
      return text === undefined ? [] : parseConfig(text, configPath).diagnostics;
    },
    hover(a, offset) {
      const ctx = a.appsets.find((x) => inDoc(x, offset));
      if (!ctx) return undefined;
      const all = each((c) => c.hover?.(ctx, offset));
      if (!all.length) return undefined;
      // This ApplicationSet's data first (generators, rollout), then what the schema says of the field;
      // a field's general warning is left out when a hover already says what happens here.
      const trapAnswered = all.some((h) => h.answersTrap);
      const hovers = [
        ...all.filter((h) => !h.fieldDocs),
        ...all.filter((h) => h.fieldDocs).map((h) => (trapAnswered ? (fieldHover(ctx, offset, false) ?? h) : h)),
      ];
      return { span: all[0].span, markdown: hovers.map((h) => h.markdown).join('\n\n---\n\n') };
    },
    codeLenses(a) {
      return a.appsets.flatMap((ctx) => each((c) => c.codeLenses?.(ctx)).flat());
    },
    codeActions(a, span, diagnostics) {
      const fileFixes = each((c) => c.fileCodeActions?.(a.file, span, diagnostics)).flat();
      const ctx = a.appsets.find((x) => inDoc(x, span.start));
      if (!ctx) return fileFixes;
      return [...fileFixes, ...each((c) => c.codeActions?.(ctx, span, diagnostics)).flat()];
    },
    completions(a, offset) {
      const ctx = a.appsets.find((x) => inDoc(x, offset));
      if (!ctx) return [];
      return each((c) => c.completions?.(ctx, offset)).flat();
    },
    diagnosticsToShow(a) {
      const all = service.diagnostics(a);
      return outsideAppSets(a, all);
    },
    helmRendered(a) {
      const { text, path } = a.file;
      const chart = path ? chartTemplateOf(text, path, host) : undefined;
      if (!path || !chart?.chart || chart.tool) return undefined;
      const r = renderChartTemplate(text, path, chart.chart, host);
      if ('cannot' in r) return r;
      // A path beside the chart (not under templates/), so that the rendered text is read as plain YAML.
      const rendered = `${chart.chart}/.helm-rendered/${path.slice(path.lastIndexOf('/') + 1)}`;
      return { analysis: analyze(`${a.file.uri}#helm-rendered`, r.text, rendered), text: r.text, values: r.values };
    },
    preview(a, offset, opts) {
      // A chart template: the ApplicationSets Helm renders from the chart's values.yaml, said as such.
      const helm = a.appsets.length ? undefined : service.helmRendered(a);
      if (helm && 'analysis' in helm && helm.analysis.appsets.length) {
        const p = service.preview(helm.analysis, undefined, opts);
        return (
          p && {
            ...p,
            yaml: `# rendered as \`helm template\` renders this chart template, with ${helm.values} alone (release name release-name)\n${p.yaml}`,
          }
        );
      }
      const ctx = a.appsets.length ? service.appsetAt(a, offset) : undefined;
      if (!ctx) return null;
      const exp = ctx.expansion();
      return {
        name: ctx.doc.name,
        yaml: runSteps(previewYamlSteps(ctx, opts?.lineSafe)),
        apps: exp.apps.length,
        notes: exp.notes,
        exact: exp.exact,
      };
    },
    rolloutPlan(a, offset) {
      const ctx = a.appsets.length ? service.appsetAt(a, offset) : undefined;
      return ctx ? { ...getRolloutPlan(ctx), ...rolloutViewDetails(ctx, offset) } : null;
    },
    previewText(a, offset) {
      const ctx = a.appsets.length ? service.appsetAt(a, offset) : undefined;
      if (!ctx) return null;
      return {
        text: runSteps(previewYamlSteps(ctx)),
        summary: previewSummary(ctx.doc.name, ctx.expansion()),
      };
    },
    planText(a, offset) {
      const ctx = a.appsets.length ? service.appsetAt(a, offset) : undefined;
      if (!ctx) return null;
      const plan = getRolloutPlan(ctx);
      return { text: planText(plan), summary: planSummary(plan) };
    },
    definition(a, offset) {
      const ctx = a.appsets.find((x) => inDoc(x, offset));
      return ctx ? definitionsAt(ctx, offset).map((d) => ({ file: d.file, span: d.span })) : [];
    },
    references(a, offset, includeDeclaration) {
      const ctx = a.appsets.find((x) => inDoc(x, offset));
      return ctx ? referencesAt(ctx, offset, includeDeclaration) : [];
    },
    prepareRename(a, offset) {
      const ctx = a.appsets.find((x) => inDoc(x, offset));
      return ctx ? prepareRenameAt(ctx, offset) : undefined;
    },
    rename(a, offset, newName) {
      const ctx = a.appsets.find((x) => inDoc(x, offset));
      return ctx ? renameAt(ctx, offset, newName) : undefined;
    },
    documentSymbols(a) {
      return a.appsets.map((ctx) => guarded('document symbols', () => documentSymbols(ctx))).filter((x): x is DocumentSymbol => !!x);
    },
    foldingRanges(a) {
      return foldingRanges(a.file.text, a.file.parsed.docs);
    },
    semanticTokens(a) {
      return a.appsets.flatMap((ctx) => guarded('semantic tokens', () => semanticTokens(ctx)) ?? []);
    },
    inlayHints(a, range) {
      return a.appsets.flatMap((ctx) => guarded('inlay hints', () => inlayHints(ctx, range)) ?? []);
    },
    fileInfo(a) {
      return {
        appsets: a.appsets.map((ctx) => {
          const en = enablementFor(ctx);
          const d = en.decidedBy;
          const valid = ctx.expansion().apps.filter((x) => !x.invalid?.length).length;
          const text =
            en.state === 'enabled' ? enabledSentence(en) : `${offSentence(en, valid)}${decidedWhere(en) ? ` (${decidedWhere(en)})` : ''}`;
          return {
            name: ctx.doc.name,
            start: ctx.doc.span.start,
            end: ctx.doc.span.end,
            rollingSync: rollingSyncWithSteps(getStrategy(ctx)),
            enablement: {
              state: en.state,
              text,
              instance: en.instance
                ? shownInstanceName(en.instance.name)
                  ? `${en.instance.name} (${en.instance.why})`
                  : en.instance.why
                : undefined,
              ...(d && d.file !== 'setting' ? { file: d.file, offset: d.span?.start } : {}),
              ...installLinesFor(ctx),
            },
          };
        }),
      };
    },
    installReport(appsets) {
      const root = host.roots()[0];
      const settings = root
        ? effectiveSettings(host.settings(), configFor(`${root}/.appset-tools.yaml`, host, workspace))
        : host.settings();
      return installReport({ host, settings, workspace }, appsets);
    },
    enablementSummary() {
      // The root's .appset-tools.yaml counts too (its instances mapping, its progressiveSyncs).
      const root = host.roots()[0];
      const settings = root
        ? effectiveSettings(host.settings(), configFor(`${root}/.appset-tools.yaml`, host, workspace))
        : host.settings();
      return describeInstances({ host, settings, workspace });
    },
    *prepare(a) {
      for (const ctx of a.appsets) {
        // Already computed, or kept from the previous analysis of the same document (see `analyze`).
        if (prepared.has(ctx) || states.get(ctx)?.exp) continue;
        const exp = yield* expansions.ofSteps(ctx.doc, ctx.file, lent.get(ctx));
        lent.delete(ctx);
        prepared.set(ctx, exp);
      }
    },
    *prepareDiagnostics(a) {
      // The expansions first, in steps: `a` may be a newer analysis than the one its caller prepared (the
      // workspace changed in between), and a feature module asking for an expansion would otherwise
      // compute it in one go (10,000 Applications: over 100 ms with every render re-used).
      yield* service.prepare(a);
      yield* lintSteps(a);
    },
    *earlyDiagnosticsSteps(a) {
      // Once the whole answer is known, it is the early answer too.
      if (linted.has(a)) return service.diagnosticsToShow(a);
      const findings = yield* lintSteps(a, true);
      const shown = findings.flatMap((f) => {
        if (f.suppressed) return [];
        const { suppressed: _, ...d } = f;
        return [d];
      });
      return earlyShown(a, outsideAppSets(a, shown));
    },
    *preparePreview(a, offset) {
      const ctx = a.appsets.length ? service.appsetAt(a, offset) : undefined;
      if (ctx) yield* previewYamlSteps(ctx);
    },
    forget(uri) {
      analyses.delete(uri);
    },
    openDocuments: new OpenDocuments(workspace),
    appsetAt(a, offset) {
      if (offset === undefined) return a.appsets[0];
      return a.appsets.find((x) => inDoc(x, offset)) ?? a.appsets[0];
    },
    reset() {
      analyses.clear();
      expansions.clear();
      workspace.invalidate();
    },
  };
  return service;
}

/** Drops findings a louder one at the same place replaces (e.g. a policy error over the rollout warning). */
function superseded(ds: EngineDiagnostic[]): EngineDiagnostic[] {
  const drop = new Set<string>();
  for (const d of ds) for (const c of SUPERSEDES[d.code] ?? []) drop.add(`${c}@${d.span.start}`);
  return drop.size ? ds.filter((d) => !drop.has(`${d.code}@${d.span.start}`)) : ds;
}

/** A text that declares an ApplicationSet (also as argocd-apps chart values), even if it does not parse as one. */
export function looksLikeAppSet(text: string): boolean {
  return declaresAppSet(text) || mayHaveArgocdAppsValues(text);
}

interface AnalysisWithVersion extends Analysis {
  version: number;
}

/**
 * In a YAML file that holds no ApplicationSet, YAML findings are left to the editor's YAML tools,
 * except a limit that left a cluster Secret unread (an alias bomb): the cluster generators miss that
 * cluster, so its file says so.
 */
function outsideAppSets<D extends { code: string }>(a: Analysis, ds: D[]): D[] {
  if (a.appsets.length || looksLikeAppSet(a.file.text)) return ds;
  const clusters = mayDeclareClusters(a.file.text);
  return ds.filter((d) => !d.code.startsWith('yaml/') || (clusters && codeInfo(d.code)?.unchecked));
}
