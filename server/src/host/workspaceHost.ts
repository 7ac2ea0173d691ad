/**
 * The host the language server keeps for its workspace: the engine's `EngineHost`, plus the two
 * changes the editor makes while it runs (new settings, new workspace folders). The Node server
 * implements it over the file system (nodeHost.ts), the web worker over the files its client read
 * through VS Code's file system API (memoryHost.ts).
 */
import type { EngineHost, EngineSettings } from '@appset-tools/engine';

export interface WorkspaceHost extends EngineHost {
  /** Replaces the settings (e.g. after a configuration change in the editor). */
  updateSettings(settings: Partial<EngineSettings>): void;
  /** Replaces the workspace roots. */
  updateRoots(roots: string[]): void;
}
