/**
 * The VS Code client in VS Code for the Web (github.dev, vscode.dev, a browser-based VS Code): the
 * language server runs in a web worker (server/src/web/server.ts), and this client reads the
 * workspace for it with VS Code's file system API, which works on virtual workspaces. The rest of
 * the client (preview, rollout view, status bar) is start.ts, shared with the desktop.
 */
import * as vscode from 'vscode';
import { BrowserMessageReader, BrowserMessageWriter, LanguageClient } from 'vscode-languageclient/browser';
import { ClientRequests } from '@appset-tools/protocol';
import { startClient } from '../start';
import { readDirectory, readFile } from './files';
import { fromServerUri, toServerUri } from './uris';

let client: LanguageClient | undefined;
let worker: WorkerLike | undefined;

interface WorkerLike {
  terminate(): void;
}
type WorkerClass = new (url: string) => WorkerLike;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  const schemes = new Set(['file', 'untitled', 'vscode-vfs', ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.scheme)]);
  await startClient(context, {
    kind: 'web',
    documentSelector: [...schemes].map((scheme) => ({ scheme, language: 'yaml' })),
    options: { uriConverters: { code2Protocol: toServerUri, protocol2Code: fromServerUri } },
    create(id, name, options) {
      // A function, so that a restart starts a new worker. The worker's message transports, not the
      // worker: VS Code's web worker extension host replaces `Worker` with a function whose workers
      // are not `instanceof` it, which the language client tests to tell a worker from transports.
      const c = new LanguageClient(
        id,
        name,
        async () => {
          // A restart's new worker replaces the old one, which the client does not end itself.
          worker?.terminate();
          worker = await startWorker(script);
          const port = worker as unknown as ConstructorParameters<typeof BrowserMessageReader>[0];
          return { reader: new BrowserMessageReader(port), writer: new BrowserMessageWriter(port) };
        },
        options,
      );
      // Registered before the start: the server asks for files as soon as the first document opens.
      c.onRequest(ClientRequests.readDirectory, (p: { path: string }) => readDirectory(p.path));
      c.onRequest(ClientRequests.readFile, (p: { path: string; maxBytes: number }) => readFile(p.path, p.maxBytes));
      client = c;
      return c;
    },
  });
}

/**
 * The server's worker. code-server refuses `new Worker(url)` for an extension it serves ("Creating
 * workers from remote extensions is currently not supported"), so there the fetched script is started
 * from a Blob URL; on vscode.dev and github.dev the URL itself works.
 */
async function startWorker(script: vscode.Uri): Promise<WorkerLike> {
  const Worker = (globalThis as unknown as { Worker: WorkerClass }).Worker;
  const url = script.toString(true);
  try {
    return new Worker(url);
  } catch {
    const text = await (await fetch(url)).text();
    return new Worker(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })));
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  worker?.terminate();
}
