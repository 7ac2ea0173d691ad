/**
 * What differs between the places the language server runs: a Node process (any editor; VS Code on
 * the desktop or in a remote workspace) and a browser's web worker (VS Code for the Web: github.dev,
 * vscode.dev). The handlers ask the platform and never import a host, so the web worker's bundle
 * carries no Node file system code (server/src/web/server.ts).
 */
import type { EngineSettings, ProbeCache } from '@appset-tools/engine';
import type { WorkspaceHost } from '../host/workspaceHost';
import type { BaselineGit } from './impact';

export interface ServerPlatform {
  /** Where the server runs: what a browser cannot do (git history, other checkouts) is said, not attempted. */
  readonly kind: 'node' | 'browser';
  /** The host over the workspace `roots`; `log` takes its non-fatal problems. */
  createHost(roots: string[], settings: Partial<EngineSettings>, log: (message: string) => void): WorkspaceHost;
  /**
   * The workspace index's test results kept between sessions (host/indexCache.ts; none in the web worker):
   * `save` writes what the session learned.
   */
  workspaceCache?(roots: string[]): (ProbeCache & { save(): void }) | undefined;
  /** The workspace a document belongs to when the editor named none (its git work tree, or its folder). */
  workspaceOf(file: string): string;
  /**
   * Files changed outside the editor: the platform brings its copy up to date before they are read
   * again (the web worker re-reads them through its client). Node reads the disk when asked: nothing to do.
   */
  refresh?(paths: string[]): Promise<void>;
  /** Resolves once the host can answer for the workspace (the web worker's first read of the files). */
  ready?(): Promise<void> | undefined;
  /**
   * Called once the platform is chosen (handlers/lifecycle.ts), with what re-validates the open documents
   * (files read later). Only the one method, so that this file imports no handler (handlers/diagnostics.ts
   * reaches the platform through the server's state).
   */
  attach?(revalidation: { resetAndRevalidate(): void }): void;
  /** Read-only git access for the change's baseline (lsp/impact.ts); none in the web worker, which says so. */
  readonly git?: BaselineGit;
  /** Why there is no `git`, as the change lens says it (impact.ts NO_GIT_HISTORY, VS Code for the Web's, when unset). */
  readonly noGitHistory?: string;
}

/**
 * The platforms one server may run on, of which one is chosen once, when the host is created for the
 * workspace the editor named (handlers/lifecycle.ts): the handlers are handed that platform itself, so no
 * wrapper forwards its members one by one (a member left out of such a list was once lost at a merge).
 */
export interface PlatformChoice {
  /** Where the server runs, the same for every platform it may choose. */
  readonly kind: ServerPlatform['kind'];
  choose(roots: string[], log: (message: string) => void): ServerPlatform;
}

/** A server with one platform (the web worker). */
export const onlyPlatform = (platform: ServerPlatform): PlatformChoice => ({ kind: platform.kind, choose: () => platform });
