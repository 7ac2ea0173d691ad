/**
 * The analyses of the language service: a document parsed and prepared (its file context and one
 * context per ApplicationSet), kept by uri, and what each ApplicationSet's context keeps across
 * analyses of the same document (expansion, target version, memos, the renders lent by its last
 * version). The expansions themselves are computed and kept by expansions.ts.
 */
import type { EngineHost } from '../host';
import { astSteps } from '../yaml';
import { parseFileSteps, type AppSetDoc, type ParsedFile } from '../kinds';
import { runSteps } from '../steps';
import type { WorkspaceIndex } from '../workspace/index';
import { generatorsReplaced, partialReason } from '../validate/partial';
import type { Expansion } from '../expand/types';
import type { RenderMemo } from '../expand/renderMemo';
import type { AppSetContext, FileContext } from '../features/context';
import { targetVersion, type TargetVersion } from '../install/target';
import { configFor } from '../config/load';
import { effectiveSettings } from '../config/apply';
import { chartTemplateOf, chartTemplateFile } from '../kinds/helmChart';
import { chartValues } from './helmRender';
import { firstPassParts } from './firstPass';
import { BoundedCache } from './boundedCache';
import type { Expansions } from './expansions';

export interface Analysis {
  file: FileContext;
  appsets: AppSetContext[];
}

interface AnalysisWithVersion extends Analysis {
  version: number;
}

const ANALYSES_KEPT = 256;
const ANALYSES_CHARS = 16 * 1024 * 1024;

export class Analyses {
  /**
   * Analyses kept, newest last: at most ANALYSES_KEPT, and at most ANALYSES_CHARS characters of text
   * in all (a parsed document holds many times its text), never dropping the one just made.
   */
  private readonly analyses = new BoundedCache<string, Analysis>({
    maxEntries: ANALYSES_KEPT,
    maxWeight: ANALYSES_CHARS,
    weight: (a) => a.file.text.length,
  });

  /** The parts `quickAnalysis` parses (see firstPass.ts); undefined: all. */
  private partFilter: ((part: string) => boolean) | undefined;

  /** Parses of a whole file by parseFileSteps (not a chart template's, not a first pass's). */
  private readonly wholeParses = new WeakSet<ParsedFile>();

  /** State of a context, kept when the next analysis re-uses its document (see `analyze`). */
  private readonly states = new WeakMap<AppSetContext, { exp?: Expansion; target?: TargetVersion; memos: Map<string, unknown> }>();

  // Expansions computed in steps by `prepare`, for the contexts they belong to.
  private readonly prepared = new WeakMap<AppSetContext, Expansion>();
  // The previous version's renders, until the context's own expansion is made (then dropped: no chain of versions is kept).
  private readonly lent = new WeakMap<AppSetContext, RenderMemo>();

  constructor(
    private readonly host: EngineHost,
    private readonly workspace: WorkspaceIndex,
    private readonly expansions: Expansions,
  ) {}

  analyze(uri: string, text: string, path?: string): Analysis {
    return runSteps(this.analyzeSteps(uri, text, path));
  }

  *analyzeSteps(uri: string, text: string, path?: string): Generator<void, Analysis> {
    const { host, workspace, analyses, wholeParses, states, prepared, lent } = this;
    const only = this.partFilter;
    const prev = analyses.peek(uri);
    if (prev && prev.file.text === text && prev.file.workspace === workspace && (prev as AnalysisWithVersion).version === workspace.version)
      return prev;
    const chart = chartTemplateOf(text, path, host);
    // Only the `---` documents whose text changed since the last analysis of this uri are parsed; the
    // same text (the workspace changed: an open document pushed to the index) keeps its whole parse,
    // without even the limits pre-scan (a long file's analysis again in one go held the server).
    const same = !chart && !only && prev?.file.text === text && wholeParses.has(prev.file.parsed);
    const parsed: ParsedFile = chart
      ? chartTemplateFile(text, chart, chart.chart ? chartValues(chart.chart, host) : undefined)
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
      if (doc.partial !== undefined && generatorsReplaced(file)) doc.generatorsReplaced = true;
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
      const ctx = this.makeContext(
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

  /**
   * The first analysis of a very long file: only its `---` parts that can hold more than syntax
   * findings are parsed (firstPass.ts); undefined when the file was analysed before or the first
   * pass would not save much.
   */
  quickAnalysis(uri: string, text: string, path?: string): Analysis | undefined {
    if (this.analyses.has(uri)) return undefined;
    const only = firstPassParts(text, path);
    if (!only) return undefined;
    // Not kept: the next `analyze` of the uri parses the whole text (expansions are found in their cache).
    this.partFilter = only;
    try {
      return this.analyze(uri, text, path);
    } finally {
      this.partFilter = undefined;
      this.forget(uri);
    }
  }

  /** The expansions of `a`'s ApplicationSets, in steps; answers for `a` then reuse them. */
  *prepare(a: Analysis): Generator<void, void> {
    for (const ctx of a.appsets) {
      // Already computed, or kept from the previous analysis of the same document (see `analyze`).
      if (this.prepared.has(ctx) || this.states.get(ctx)?.exp) continue;
      const exp = yield* this.expansions.ofSteps(ctx.doc, ctx.file, this.lent.get(ctx));
      this.lent.delete(ctx);
      this.prepared.set(ctx, exp);
    }
  }

  forget(uri: string): void {
    this.analyses.delete(uri);
  }

  clear(): void {
    this.analyses.clear();
  }

  private makeContext(file: FileContext, doc: AppSetDoc, reuse?: AppSetContext): AppSetContext {
    const { states, prepared, lent, expansions } = this;
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
}
