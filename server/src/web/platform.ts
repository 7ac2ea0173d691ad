/**
 * The language server in a web worker (VS Code for the Web): the workspace is read through the client
 * (lsp/clientReadPlatform.ts). The worker has no git (`ServerPlatform.git`), so the "This change" lens
 * and the rollout view say the change is not known, and its host sets `EngineHost.onlyOpenedRepository`,
 * which the git generator names instead of the desktop's advice.
 */
import type { Connection } from 'vscode-languageserver/node';
import type { ServerPlatform } from '../lsp/platform';
import { clientReadPlatform } from '../lsp/clientReadPlatform';

/** What the worker cannot read, said where a finding needs it (engine/host.ts `onlyOpenedRepository`). */
export const ONLY_OPENED_REPOSITORY = 'VS Code for the Web reads only the opened repository';

export function webPlatform(connection: Connection): ServerPlatform {
  return clientReadPlatform(connection, { kind: 'browser', onlyOpenedRepository: ONLY_OPENED_REPOSITORY });
}
