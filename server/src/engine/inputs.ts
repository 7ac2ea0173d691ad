/**
 * What the model stages (generators, expansion, enablement) read: the text being analysed and the
 * outside world (host, settings, workspace index). Narrower than the features' contexts
 * (`features/context.ts`), so the stages stand below the features and the facade.
 */
import type { EngineHost, EngineSettings } from './host';
import type { WorkspaceIndex } from './workspace/index';

/** The outside world a stage may read. */
export interface EngineInputs {
  host: EngineHost;
  settings: EngineSettings;
  workspace: WorkspaceIndex;
}

/** One analysed text with the outside world. */
export interface SourceText extends EngineInputs {
  /** Document URI (LSP) or file path (CLI). */
  uri: string;
  /** Absolute file path when the document is a file, used for workspace-relative lookups. */
  path?: string;
  text: string;
}
