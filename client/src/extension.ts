/**
 * The VS Code client on the desktop (and in remote workspaces): starts the bundled language server
 * in a Node process over IPC; the rest is start.ts, shared with VS Code for the Web (web/extension.ts).
 */
import * as path from 'path';
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { SERVER_NODE_OPTIONS } from '@appset-tools/protocol';
import { startClient } from './start';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_OPTIONS] } },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: [...SERVER_NODE_OPTIONS, '--nolazy', '--inspect=6019'] },
    },
  };
  await startClient(context, {
    kind: 'node',
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
    ],
    create: (id, name, options) => (client = new LanguageClient(id, name, serverOptions, options)),
    restart: () => client?.restart() ?? Promise.resolve(),
  });
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
