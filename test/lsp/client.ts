/**
 * A real LSP client for the tests: spawns the bundled server (`node dist/server.js --stdio`) and
 * speaks JSON-RPC to it with vscode-languageserver-protocol, as Neovim or Helix would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  ExitNotification,
  type ProtocolConnection,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';

export const repoRoot = resolve(__dirname, '..', '..');
export const serverPath = join(repoRoot, 'dist', 'server.js');

export interface TestServer {
  conn: ProtocolConnection;
  proc: ChildProcess;
  workspace: string;
  uriOf(rel: string): string;
  open(rel: string, text: string): Promise<Diagnostic[]>;
  change(rel: string, text: string): Promise<Diagnostic[]>;
  /** Waits for the next diagnostics for a file (published after `since`). */
  diagnostics(rel: string, minVersion?: number): Promise<Diagnostic[]>;
  stderr(): string;
  close(): Promise<void>;
}

export async function startServer(files: Record<string, string> = {}, settings: Record<string, unknown> = {}): Promise<TestServer> {
  const workspace = mkdtempSync(join(tmpdir(), 'appset-lsp-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), text);
  }
  const proc = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  // Waiters per URI, each wanting diagnostics for at least a given document version (a re-publish
  // of an older version, e.g. after a settings refresh, must not satisfy a wait for an edit).
  const waiting = new Map<string, { minVersion: number; done: (d: Diagnostic[]) => void }[]>();
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    const list = waiting.get(p.uri);
    if (!list?.length) return;
    const i = list.findIndex((w) => p.version === undefined || p.version >= w.minVersion);
    if (i >= 0) list.splice(i, 1)[0].done(p.diagnostics);
  });
  conn.onRequest('workspace/configuration', () => [{ validate: { debounceMs: 0 }, ...settings }]);
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  const rootUri = pathToFileURL(workspace).toString();
  await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'ws' }],
    capabilities: { workspace: { configuration: true } },
    initializationOptions: { settings: { validate: { debounceMs: 0 }, ...settings } },
  });
  await conn.sendNotification(InitializedNotification.type, {});
  const versions = new Map<string, number>();
  const uriOf = (rel: string) => pathToFileURL(join(workspace, rel)).toString();
  const diagnostics = (rel: string, minVersion = 0) =>
    new Promise<Diagnostic[]>((res, rej) => {
      const uri = uriOf(rel);
      const t = setTimeout(() => rej(new Error(`no diagnostics for ${rel} within 15 s; server stderr: ${err}`)), 15000);
      const list = waiting.get(uri) ?? [];
      list.push({
        minVersion,
        done: (d) => {
          clearTimeout(t);
          res(d);
        },
      });
      waiting.set(uri, list);
    });
  return {
    conn,
    proc,
    workspace,
    uriOf,
    diagnostics,
    async open(rel, text) {
      const p = diagnostics(rel, 1);
      versions.set(rel, 1);
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(rel), languageId: 'yaml', version: 1, text } });
      return p;
    },
    async change(rel, text) {
      const v = (versions.get(rel) ?? 1) + 1;
      const p = diagnostics(rel, v);
      versions.set(rel, v);
      await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uriOf(rel), version: v }, contentChanges: [{ text }] });
      return p;
    },
    stderr: () => err,
    async close() {
      try {
        await Promise.race([conn.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
        await conn.sendNotification(ExitNotification.type);
      } catch {
        /* already gone */
      }
      conn.dispose();
      proc.kill();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
