/**
 * What feature modules receive. One `FileContext` per analysed text, one `AppSetContext` per
 * ApplicationSet document in it. Expensive results (the expansion, the rollout plan) are computed
 * lazily and cached by the language service across keystrokes (keyed by the ApplicationSet's
 * content and the workspace index version).
 */
import type { EngineHost, EngineSettings } from '../host';
import type { CodeAction, CodeLens, CompletionItem, EngineDiagnostic, Hover, Span } from '../types';
import type { AppSetDoc, ParsedFile } from '../yaml/document';
import type { WorkspaceIndex } from '../workspace/index';
import type { Expansion } from '../render/types';

export interface FileContext {
  /** Document URI (LSP) or file path (CLI). */
  uri: string;
  /** Absolute file path when the document is a file, used for workspace-relative lookups. */
  path?: string;
  text: string;
  parsed: ParsedFile;
  host: EngineHost;
  settings: EngineSettings;
  workspace: WorkspaceIndex;
}

export interface AppSetContext {
  file: FileContext;
  doc: AppSetDoc;
  /** The generated Applications (cached). */
  expansion(): Expansion;
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
  completions?(ctx: AppSetContext, offset: number): CompletionItem[];
}
