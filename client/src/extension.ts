/**
 * The VS Code client on the desktop (and in remote workspaces): starts the bundled language server
 * in a Node process over IPC; the rest is start.ts, shared with VS Code for the Web (web/extension.ts).
 * In a virtual workspace (every folder of another scheme than `file`, e.g. `vscode-vfs://` from
 * Remote Repositories) the server cannot read the disk: as in the browser, this client names the
 * workspace's resources by server paths and reads them for the server with VS Code's file system
 * API (web/uris.ts, web/files.ts; the server's side is lsp/nodeMain.ts `nodePlatforms`).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { ClientRequests, SERVER_ENV, serverNodeOptions } from '@appset-tools/protocol';
import { startClient } from './start';
import { readDirectory, readFile } from './web/files';
import { fromServerUri, toServerUri } from './web/uris';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  // A user's own MALLOC_ARENA_MAX wins over the server's.
  const env = { ...SERVER_ENV, ...process.env };
  // The server runs under this extension host's executable (Electron's Node, or the remote server's Node), so its
  // V8 is this process's: the options that V8 accepts and needs (protocol.ts serverNodeOptions).
  const execArgv = serverNodeOptions(process);
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv, env } },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: [...execArgv, '--nolazy', '--inspect=6019'], env },
    },
  };
  const folders = vscode.workspace.workspaceFolders ?? [];
  const virtual = folders.length > 0 && folders.every((f) => f.uri.scheme !== 'file');
  const schemes = new Set(['file', 'untitled', ...folders.map((f) => f.uri.scheme)]);
  await startClient(context, {
    kind: 'node',
    documentSelector: [...schemes].map((scheme) => ({ scheme, language: 'yaml' })),
    // Only there: on disk the server names documents by their own file URIs, as every editor does.
    options: virtual ? { uriConverters: { code2Protocol: toServerUri, protocol2Code: fromServerUri } } : undefined,
    create: (id, name, options) => {
      const c = new LanguageClient(id, name, serverOptions, options);
      // The server asks for files only in a virtual workspace (before its first answers).
      c.onRequest(ClientRequests.readDirectory, (p: { path: string }) => readDirectory(p.path));
      c.onRequest(ClientRequests.readFile, (p: { path: string; maxBytes: number }) => readFile(p.path, p.maxBytes));
      return (client = c);
    },
    restart: () => client?.restart() ?? Promise.resolve(),
  });
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
