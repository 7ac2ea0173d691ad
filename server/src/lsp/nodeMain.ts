/**
 * The language server in a Node process (`node dist/server.js --stdio | --node-ipc | --socket=N`):
 * the workspace is read from disk (host/nodeHost.ts), or, when every workspace folder is a virtual one
 * (desktop VS Code on a GitHub repository opened without a clone: `vscode-vfs://`), through the client
 * as the web worker reads it (`nodePlatforms`, chosen once at `initialize`). The web worker's entry is
 * server/src/web/server.ts.
 */
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node';
import { gitFolder, resolveBaseline } from '../host/baseline';
import { createGitRevisionHost } from '../host/gitRevisionHost';
import { openIndexCache } from '../host/indexCache';
import { createNodeHost } from '../host/nodeHost';
import { workspaceOf } from '../host/workspaceOf';
import { resourceOfWebPath } from '@appset-tools/protocol';
import { clientReadPlatform, folderOf } from './clientReadPlatform';
import { startServer } from './main';
import type { PlatformChoice, ServerPlatform } from './platform';
import { transportFromArgs } from './transport';

/** A server path the client named for a resource of another scheme (protocol.ts `webPathOf`): no disk path. */
const isVirtual = (p: string): boolean => resourceOfWebPath(p).scheme !== 'file';

/** The disk: files, the index's memory between sessions (host/indexCache.ts) and git. */
export const nodePlatform: ServerPlatform = {
  kind: 'node',
  createHost: createNodeHost,
  workspaceCache: (roots) => openIndexCache(roots),
  // A virtual document opened without a workspace has no disk folder: its own folder, as the client reads it.
  workspaceOf: (file) => (isVirtual(file) ? folderOf(file) : workspaceOf(file)),
  git: { gitFolder, resolveBaseline, revisionHost: createGitRevisionHost },
};

/** Said where a finding needs what a virtual workspace does not have (engine/host.ts `onlyOpenedRepository`, the change lens). */
export const VIRTUAL_ONLY_OPENED_REPOSITORY = 'a virtual workspace is read through VS Code, which opens only this repository';
export const VIRTUAL_NO_GIT_HISTORY =
  'a virtual workspace has no git history here, so the change against the baseline is not known (clone the repository to see it)';

/**
 * The disk (`nodePlatform`), except in a virtual workspace (every root a virtual resource, which the
 * VS Code client names by its server path: client/src/extension.ts): there the workspace is read through
 * the client, in the web worker's bounded steps, and git is not run. A workspace that mixes both, or
 * names none, reads the disk. Chosen once, at `initialize` (handlers/lifecycle.ts).
 */
export function nodePlatforms(connection: Connection): PlatformChoice {
  return {
    kind: nodePlatform.kind,
    choose(roots, log) {
      if (!roots.length || !roots.every(isVirtual)) return nodePlatform;
      log('every workspace folder is virtual: its files are read through the client');
      return clientReadPlatform(connection, {
        kind: nodePlatform.kind,
        onlyOpenedRepository: VIRTUAL_ONLY_OPENED_REPOSITORY,
        noGitHistory: VIRTUAL_NO_GIT_HISTORY,
      });
    },
  };
}

/** Starts the server on the transport named on the command line (`--stdio`, `--node-ipc`, `--socket=N`). */
export function runFromCommandLine(): void {
  // Our own transport wrapper enforces the LSP lifecycle for every handler (transport.ts).
  const t = transportFromArgs(process.argv.slice(2));
  const connection = t ? createConnection(ProposedFeatures.all, t.reader, t.writer) : createConnection(ProposedFeatures.all);
  startServer(connection, nodePlatforms(connection), t?.received);
}
