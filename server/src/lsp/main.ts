/**
 * The language server: a thin LSP front over the engine's language service.
 * Transport is chosen from the command line by vscode-languageserver (`--stdio`, `--node-ipc`,
 * `--socket=N`), so VS Code (IPC) and other editors (stdio) run the same file.
 *
 * Handlers live in `handlers/`, one file per concern, sharing one `ServerState`. Every handler is
 * guarded: a document that breaks a feature module yields no answer for that request, never a dead
 * server.
 */
import type { Connection } from 'vscode-languageserver/node';
import { limitExpensiveFunctions } from '@appset-tools/engine';
import { ServerState } from './state';
import { registerLifecycle } from './handlers/lifecycle';
import { registerDiagnostics } from './handlers/diagnostics';
import { registerFeatures } from './handlers/features';
import { registerRequests } from './handlers/requests';
import { registerNavigation } from './handlers/navigation';
import { collectWhenIdle } from './idleMemory';
import type { PlatformChoice } from './platform';
import type { ReceivedVersions } from './received';

/** `platforms`: where the server may run; one is chosen at `initialize`, for the workspace's folders. */
export function startServer(connection: Connection, platforms: PlatformChoice, received?: ReceivedVersions): void {
  // Diagnostics run on every keystroke: bcrypt, scrypt and RSA key generation in a template must
  // not stall them (a clear template error appears instead once the budget is used).
  limitExpensiveFunctions({ budgetMs: 4000, windowMs: 15000 });
  const state = new ServerState(connection, platforms, received);
  const revalidation = registerDiagnostics(state);
  const overrides = registerLifecycle(state, revalidation);
  registerFeatures(state, revalidation);
  registerNavigation(state);
  registerRequests(state, revalidation, overrides);
  state.documents.listen(connection);
  connection.listen();
  // Memory stays flat over long sessions: garbage from a burst of keystrokes is collected once idle.
  // Node only: a web worker has neither \`gc\` to call nor the event loop's utilisation to wait for.
  if (platforms.kind === 'node') collectWhenIdle();
}
