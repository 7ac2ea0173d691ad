/**
 * The language server in a Node process (`node dist/server.js --stdio | --node-ipc | --socket=N`):
 * the workspace is read from disk (host/nodeHost.ts). The web worker's entry is server/src/web/server.ts.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { gitFolder, resolveBaseline } from '../host/baseline';
import { createGitRevisionHost } from '../host/gitRevisionHost';
import { openIndexCache } from '../host/indexCache';
import { createNodeHost } from '../host/nodeHost';
import { workspaceOf } from '../host/workspaceOf';
import { startServer } from './main';
import type { ServerPlatform } from './platform';
import { transportFromArgs } from './transport';

export const nodePlatform: ServerPlatform = {
  kind: 'node',
  createHost: createNodeHost,
  workspaceCache: (roots) => openIndexCache(roots),
  workspaceOf,
  git: { gitFolder, resolveBaseline, revisionHost: createGitRevisionHost },
};

/** Starts the server on the transport named on the command line (`--stdio`, `--node-ipc`, `--socket=N`). */
export function runFromCommandLine(): void {
  // Our own transport wrapper enforces the LSP lifecycle for every handler (transport.ts).
  const t = transportFromArgs(process.argv.slice(2));
  if (t) startServer(createConnection(ProposedFeatures.all, t.reader, t.writer), nodePlatform, t.received);
  else startServer(createConnection(ProposedFeatures.all), nodePlatform);
}
