/**
 * Dispatch: the facade's editor features, each asked of the feature modules (contributors) for the
 * ApplicationSet at a place, or of the one feature that answers it. A module's or an ApplicationSet's
 * failure is logged and leaves the other answers.
 */
import type { EngineHost } from '../host';
import type { CodeAction, CodeLens, CompletionItem, EngineDiagnostic, Hover, Location, Span } from '../types';
import type { AppSetContext, FeatureContributor } from '../features/context';
import { fieldHover } from '../features/validation/assist';
import { definitionsAt, prepareRenameAt, referencesAt, renameAt, type RenameResult } from '../features/editor/navigation';
import { documentSymbols, foldingRanges, type DocumentSymbol, type FoldingRange } from '../features/editor/structure';
import { inlayHints, semanticTokens, type InlayHint, type SemanticToken } from '../features/editor/decorations';
import type { Analysis } from './analyses';

export const inDoc = (ctx: AppSetContext, offset: number) => offset >= ctx.doc.span.start && offset <= ctx.doc.span.end;

/** The ApplicationSet document containing `offset` (or the first one). */
export function appsetAt(a: Analysis, offset?: number): AppSetContext | undefined {
  if (offset === undefined) return a.appsets[0];
  return a.appsets.find((x) => inDoc(x, offset)) ?? a.appsets[0];
}

export class Dispatch {
  constructor(
    readonly contributors: FeatureContributor[],
    private readonly host: EngineHost,
  ) {}

  each<T>(fn: (c: FeatureContributor) => T | undefined): T[] {
    const out: T[] = [];
    for (const c of this.contributors) {
      const r = this.one(c, fn);
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** One feature module's answer; its failure is logged and leaves the others' answers. */
  one<T>(c: FeatureContributor, fn: (c: FeatureContributor) => T | undefined): T | undefined {
    try {
      return fn(c);
    } catch (e) {
      this.host.log?.(`feature "${c.name}" failed: ${(e as Error).stack ?? e}`);
      return undefined;
    }
  }

  /** One ApplicationSet's failure in a feature leaves the others' answers. */
  guarded<T>(what: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      this.host.log?.(`${what} failed: ${(e as Error).stack ?? e}`);
      return undefined;
    }
  }

  hover(a: Analysis, offset: number): Hover | undefined {
    const ctx = a.appsets.find((x) => inDoc(x, offset));
    if (!ctx) return undefined;
    const all = this.each((c) => c.hover?.(ctx, offset));
    if (!all.length) return undefined;
    // This ApplicationSet's data first (generators, rollout), then what the schema says of the field;
    // a field's general warning is left out when a hover already says what happens here.
    const trapAnswered = all.some((h) => h.answersTrap);
    const hovers = [
      ...all.filter((h) => !h.fieldDocs),
      ...all.filter((h) => h.fieldDocs).map((h) => (trapAnswered ? (fieldHover(ctx, offset, false) ?? h) : h)),
    ];
    return { span: all[0].span, markdown: hovers.map((h) => h.markdown).join('\n\n---\n\n') };
  }

  codeLenses(a: Analysis): CodeLens[] {
    return a.appsets.flatMap((ctx) => this.each((c) => c.codeLenses?.(ctx)).flat());
  }

  codeActions(a: Analysis, span: Span, diagnostics: EngineDiagnostic[]): CodeAction[] {
    const fileFixes = this.each((c) => c.fileCodeActions?.(a.file, span, diagnostics)).flat();
    const ctx = a.appsets.find((x) => inDoc(x, span.start));
    if (!ctx) return fileFixes;
    return [...fileFixes, ...this.each((c) => c.codeActions?.(ctx, span, diagnostics)).flat()];
  }

  completions(a: Analysis, offset: number): CompletionItem[] {
    const ctx = a.appsets.find((x) => inDoc(x, offset));
    if (!ctx) return [];
    return this.each((c) => c.completions?.(ctx, offset)).flat();
  }

  definition(a: Analysis, offset: number): Location[] {
    const ctx = a.appsets.find((x) => inDoc(x, offset));
    return ctx ? definitionsAt(ctx, offset).map((d) => ({ file: d.file, span: d.span })) : [];
  }

  references(a: Analysis, offset: number, includeDeclaration: boolean): Location[] {
    const ctx = a.appsets.find((x) => inDoc(x, offset));
    return ctx ? referencesAt(ctx, offset, includeDeclaration) : [];
  }

  prepareRename(a: Analysis, offset: number): { span: Span; placeholder: string } | { error: string } | undefined {
    const ctx = a.appsets.find((x) => inDoc(x, offset));
    return ctx ? prepareRenameAt(ctx, offset) : undefined;
  }

  rename(a: Analysis, offset: number, newName: string): RenameResult | undefined {
    const ctx = a.appsets.find((x) => inDoc(x, offset));
    return ctx ? renameAt(ctx, offset, newName) : undefined;
  }

  documentSymbols(a: Analysis): DocumentSymbol[] {
    return a.appsets.map((ctx) => this.guarded('document symbols', () => documentSymbols(ctx))).filter((x): x is DocumentSymbol => !!x);
  }

  foldingRanges(a: Analysis): FoldingRange[] {
    return foldingRanges(a.file.text, a.file.parsed.docs);
  }

  semanticTokens(a: Analysis): SemanticToken[] {
    return a.appsets.flatMap((ctx) => this.guarded('semantic tokens', () => semanticTokens(ctx)) ?? []);
  }

  inlayHints(a: Analysis, range?: Span): InlayHint[] {
    return a.appsets.flatMap((ctx) => this.guarded('inlay hints', () => inlayHints(ctx, range)) ?? []);
  }
}
