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
/** Why the last worker did not start (WorkerReader), for the one message start.ts shows. */
let notStarted: string | undefined;

/** How long a new worker may take to say anything (its script evaluated, the server listening). */
export const WORKER_START_MS = 60_000;

interface WorkerLike {
  terminate(): void;
  addEventListener(type: 'message' | 'error', listener: (e: { message?: string }) => void): void;
}
type WorkerClass = new (url: string) => WorkerLike;
type Port = ConstructorParameters<typeof BrowserMessageReader>[0];

/**
 * The worker's messages. A worker that fails before its first message (its script throws while it is
 * evaluated) or says nothing within WORKER_START_MS did not start: it is ended and this reader closed,
 * so that the language client's pending initialize fails and its start ends (else the activation
 * would wait for ever); restarts.ts then restarts nothing. Later errors are the running server's.
 */
class WorkerReader extends BrowserMessageReader {
  constructor(w: WorkerLike, onNotStarted: (why: string) => void) {
    super(w as unknown as Port);
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      onNotStarted(why);
      w.terminate();
      this.fireClose();
    };
    const timer = setTimeout(() => fail(`its web worker said nothing within ${WORKER_START_MS / 1000} s`), WORKER_START_MS);
    w.addEventListener('message', () => {
      settled = true;
      clearTimeout(timer);
    });
    w.addEventListener('error', (e) => fail(`its web worker failed: ${e.message || 'an error in its script'}`));
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  const schemes = new Set(['file', 'untitled', 'vscode-vfs', ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.scheme)]);
  await startClient(context, {
    kind: 'web',
    documentSelector: [...schemes].map((scheme) => ({ scheme, language: 'yaml' })),
    options: { uriConverters: { code2Protocol: toServerUri, protocol2Code: fromServerUri } },
    whyNotStarted: () => notStarted,
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
          notStarted = undefined;
          const w = await startWorker(script).catch((e: unknown) => {
            notStarted = `its web worker could not be created: ${e instanceof Error ? e.message : String(e)}`;
            throw e;
          });
          worker = w;
          const reader = new WorkerReader(w, (why) => (notStarted = why));
          return { reader, writer: new BrowserMessageWriter(w as unknown as Port) };
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
