/**
 * The language server: a thin LSP front over the engine's language service.
 * Transport is chosen from the command line by vscode-languageserver (`--stdio`, `--node-ipc`,
 * `--socket=N`), so VS Code (IPC) and other editors (stdio) run the same file.
 *
 * Handlers live in `handlers/`, one file per concern, sharing one `ServerState`. Every handler is
 * guarded: a document that breaks a feature module yields no answer for that request, never a dead
 * server.
 */
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node';
import { limitExpensiveFunctions } from '../engine';
import { ServerState } from './state';
import { transportFromArgs } from './transport';
import { registerLifecycle } from './handlers/lifecycle';
import { registerDiagnostics } from './handlers/diagnostics';
import { registerFeatures } from './handlers/features';
import { registerRequests } from './handlers/requests';
import { registerNavigation } from './handlers/navigation';
import { collectWhenIdle } from './idleMemory';
import type { ReceivedVersions } from './received';

export function startServer(connection: Connection, received?: ReceivedVersions): void {
  // Diagnostics run on every keystroke: bcrypt, scrypt and RSA key generation in a template must
  // not stall them (a clear template error appears instead once the budget is used).
  limitExpensiveFunctions({ budgetMs: 4000, windowMs: 15000 });
  const state = new ServerState(connection, received);
  const revalidation = registerDiagnostics(state);
  const overrides = registerLifecycle(state, revalidation);
  registerFeatures(state);
  registerNavigation(state);
  registerRequests(state, revalidation, overrides);
  state.documents.listen(connection);
  connection.listen();
  // Memory stays flat over long sessions: garbage from a burst of keystrokes is collected once idle.
  collectWhenIdle();
}

/** Starts the server on the transport named on the command line (`--stdio`, `--node-ipc`, `--socket=N`). */
export function runFromCommandLine(): void {
  // Our own transport wrapper enforces the LSP lifecycle for every handler (transport.ts).
  const t = transportFromArgs(process.argv.slice(2));
  if (t) startServer(createConnection(ProposedFeatures.all, t.reader, t.writer), t.received);
  else startServer(createConnection(ProposedFeatures.all));
}
