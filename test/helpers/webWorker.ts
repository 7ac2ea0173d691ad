/**
 * The web worker's language server (dist/web/server.js) run in Node for the tests: the bundle is
 * evaluated in its own V8 context whose global object stands for the worker's (`postMessage`,
 * `onmessage`, the web APIs a worker has, and nothing of Node's: no `require`, `process` or `Buffer`,
 * so a Node module left in the bundle fails here as it would in a browser). Messages are cloned as a
 * worker's are. The test plays the web client, reading the workspace for the server as
 * client/src/web/files.ts does with VS Code's file system API.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vm from 'node:vm';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createProtocolConnection,
  type DataCallback,
  type Disposable,
  type Message,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { ClientRequests, type WebDirectoryEntry, type WebFileResult } from '../../server/src/protocol';

export const WEB_SERVER = join(__dirname, '..', '..', 'dist', 'web', 'server.js');

class ToClient extends AbstractMessageReader {
  private cb?: DataCallback;
  private readonly early: Message[] = [];
  listen(cb: DataCallback): Disposable {
    this.cb = cb;
    for (const m of this.early.splice(0)) cb(m);
    return { dispose: () => (this.cb = undefined) };
  }
  deliver(m: Message): void {
    if (this.cb) this.cb(m);
    else this.early.push(m);
  }
}

class ToWorker extends AbstractMessageWriter {
  constructor(private readonly post: (m: Message) => void) {
    super();
  }
  async write(m: Message): Promise<void> {
    this.post(m);
  }
  end(): void {}
}

export interface WorkerServer {
  conn: ProtocolConnection;
  /** Paths the server asked the client to read (files) and list (folders), in order. */
  reads: string[];
  listings: string[];
}

/** Starts the worker bundle; its file requests are answered from the real files under the paths it names. */
export function startWorkerServer(): WorkerServer {
  const reader = new ToClient();
  const clone = <T>(m: T): T => structuredClone(m);
  const scope: Record<string, unknown> = {
    console,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    queueMicrotask,
    URL,
    TextEncoder,
    TextDecoder,
    performance,
    crypto: globalThis.crypto,
    structuredClone,
    MessageChannel,
    postMessage: (m: Message) => reader.deliver(clone(m)),
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    onmessage: null,
  };
  scope.self = scope;
  const context = vm.createContext(scope);
  vm.runInContext(readFileSync(WEB_SERVER, 'utf8'), context, { filename: WEB_SERVER });
  const writer = new ToWorker((m) => (scope.onmessage as (e: { data: unknown }) => void)({ data: clone(m) }));
  const conn = createProtocolConnection(reader, writer);
  const reads: string[] = [];
  const listings: string[] = [];
  conn.onRequest(ClientRequests.readDirectory, (p: { path: string }): WebDirectoryEntry[] | null => {
    listings.push(p.path);
    try {
      return readdirSync(p.path, { withFileTypes: true }).map((d) => ({
        name: d.name,
        kind: d.isDirectory() ? 'directory' : d.isFile() ? 'file' : 'other',
      }));
    } catch {
      return null;
    }
  });
  conn.onRequest(ClientRequests.readFile, (p: { path: string; maxBytes: number }): WebFileResult => {
    reads.push(p.path);
    try {
      const size = statSync(p.path).size;
      if (size > p.maxBytes) return { skipped: 'too-large', size };
      return { text: readFileSync(p.path, 'utf8'), size };
    } catch {
      return { skipped: 'missing' };
    }
  });
  return { conn, reads, listings };
}
