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
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  type Diagnostic,
  AbstractMessageWriter,
  createProtocolConnection,
  type DataCallback,
  type Disposable,
  type Message,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { ClientRequests, type WebDirectoryEntry, type WebFileResult } from '@appset-tools/protocol';

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
  /** How long evaluating the bundle took (ms): the worker's start before its first message. */
  evaluatedMs: number;
  /** Ends the worker: its connection and its timers, as `Worker.terminate()` does. */
  stop(): void;
  /** Paths the server asked the client to read (files) and list (folders), in order. */
  reads: string[];
  listings: string[];
}

/** Starts the worker bundle; its file requests are answered from the real files under the paths it names. */
export function startWorkerServer(): WorkerServer {
  const reader = new ToClient();
  const clone = <T>(m: T): T => structuredClone(m);
  // A browser's timers are numbers (no Node `unref`), and its `performance` has no Node extensions
  // (`eventLoopUtilization`): code that relies on either fails here as it would in the worker.
  // Its timers are kept, so that `stop()` ends them as terminating a worker would.
  const timers = new Map<number, NodeJS.Timeout>();
  const channels: InstanceType<typeof MessageChannel>[] = [];
  const keep = (t: NodeJS.Timeout) => (timers.set(Number(t), t), Number(t));
  const scope: Record<string, unknown> = {
    console,
    setTimeout: (fn: () => void, ms?: number) => keep(setTimeout(fn, ms)),
    clearTimeout: (id: number) => (clearTimeout(timers.get(id)), timers.delete(id)),
    setInterval: (fn: () => void, ms?: number) => keep(setInterval(fn, ms)),
    clearInterval: (id: number) => (clearInterval(timers.get(id)), timers.delete(id)),
    queueMicrotask,
    URL,
    TextEncoder,
    TextDecoder,
    performance: { now: () => performance.now(), timeOrigin: performance.timeOrigin, mark: () => undefined, measure: () => undefined },
    crypto: globalThis.crypto,
    structuredClone,
    // Its channels too (the setImmediate shim's port would keep Node running).
    MessageChannel: class extends MessageChannel {
      constructor() {
        super();
        channels.push(this);
      }
    },
    postMessage: (m: Message) => reader.deliver(clone(m)),
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    onmessage: null,
  };
  scope.self = scope;
  const context = vm.createContext(scope);
  const source = readFileSync(WEB_SERVER, 'utf8');
  const t0 = performance.now();
  vm.runInContext(source, context, { filename: WEB_SERVER });
  const evaluatedMs = performance.now() - t0;
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
  const stop = () => {
    conn.dispose();
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    for (const c of channels.splice(0)) c.port1.close();
  };
  return { conn, reads, listings, stop, evaluatedMs };
}

/**
 * The worker started and initialized over `workspace` (diagnostics without debounce), as the web
 * client starts it; `open` sends a document and `diagnostics` holds what was last published for each URI.
 */
export async function startWorkerOn(
  workspace: string,
  initializeParams: Record<string, unknown>,
): Promise<WorkerServer & { diagnostics: Map<string, Diagnostic[]>; open(uri: string, text: string): Promise<void> }> {
  const web = startWorkerServer();
  const diagnostics = new Map<string, Diagnostic[]>();
  web.conn.onNotification(PublishDiagnosticsNotification.type, (p) => void diagnostics.set(p.uri, p.diagnostics));
  web.conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({ validate: { debounceMs: 0 } })));
  web.conn.listen();
  await web.conn.sendRequest(InitializeRequest.type, {
    ...initializeParams,
    initializationOptions: { settings: { validate: { debounceMs: 0 } } },
  } as never);
  await web.conn.sendNotification(InitializedNotification.type, {});
  return {
    ...web,
    diagnostics,
    open: (uri, text) =>
      web.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version: 1, text } }),
  };
}
