/**
 * What feature modules receive. One `FileContext` per analysed text, one `AppSetContext` per
 * ApplicationSet document in it. Expensive results (the expansion, the rollout plan) are computed
 * lazily and cached by the language service across keystrokes (keyed by the ApplicationSet's
 * content and the workspace index version).
 */
import type { SourceText } from '../inputs';
import type { CodeAction, CodeLens, CompletionItem, EngineDiagnostic, Hover, Span } from '../types';
import type { AppSetDoc, ParsedFile } from '../kinds';
import type { Expansion } from '../expand/types';
import type { TargetVersion } from '../install/target';
import type { RepoConfig } from '../config/types';

export interface FileContext extends SourceText {
  parsed: ParsedFile;
  /** The nearest `.appset-tools.yaml` above the file (an empty config when there is none); its settings are merged into `settings`. */
  config?: RepoConfig;
}

export interface AppSetContext {
  file: FileContext;
  doc: AppSetDoc;
  /** The generated Applications (cached). */
  expansion(): Expansion;
  /** The Argo CD version this ApplicationSet is checked against, and why (cached). */
  target(): TargetVersion;
  /** Per-context memo for feature modules (e.g. the rollout plan), keyed by a module-chosen name. */
  memo<T>(key: string, compute: () => T): T;
}

/**
 * A feature module. The language service asks every registered contributor and concatenates the
 * answers; a contributor that throws is isolated (its error is logged, the others still answer).
 */
export interface FeatureContributor {
  name: string;
  fileDiagnostics?(file: FileContext): EngineDiagnostic[];
  diagnostics?(ctx: AppSetContext): EngineDiagnostic[];
  hover?(ctx: AppSetContext, offset: number): Hover | undefined;
  codeLenses?(ctx: AppSetContext): CodeLens[];
  codeActions?(ctx: AppSetContext, span: Span, diagnostics: EngineDiagnostic[]): CodeAction[];
  /** Fixes for file diagnostics, where the document may not even parse as an ApplicationSet. */
  fileCodeActions?(file: FileContext, span: Span, diagnostics: EngineDiagnostic[]): CodeAction[];
  completions?(ctx: AppSetContext, offset: number): CompletionItem[];
}
