/**
 * A real LSP client for the tests: spawns the bundled server (`node dist/server.js --stdio`) and
 * speaks JSON-RPC to it with vscode-languageserver-protocol, as Neovim or Helix would.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  PublishDiagnosticsNotification,
  DidCloseTextDocumentNotification,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type TextEdit,
  ShutdownRequest,
  ExitNotification,
  HoverRequest,
  type ProtocolConnection,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';

/** The commands the server advertises (executeCommandProvider), sorted: what any editor may send back. */
export const SERVER_COMMANDS = [
  'appsetTools.openLocation',
  'appsetTools.preview',
  'appsetTools.rolloutPlan',
  'appsetTools.setProgressiveSyncs',
  'appsetTools.showChange',
  'appsetTools.showPreview',
  'appsetTools.showRollout',
];

import { HANG_GUARD_MS, until } from '../helpers/guard';

export { HANG_GUARD_MS };

export const repoRoot = resolve(__dirname, '..', '..');
export const serverPath = join(repoRoot, 'dist', 'server.js');

export interface TestServer {
  conn: ProtocolConnection;
  proc: ChildProcess;
  workspace: string;
  uriOf(rel: string): string;
  open(rel: string, text: string): Promise<Diagnostic[]>;
  change(rel: string, text: string): Promise<Diagnostic[]>;
  /** Waits for the next diagnostics for a file (for at least document version `minVersion`). */
  diagnostics(rel: string, minVersion?: number): Promise<Diagnostic[]>;
  /** Dynamic registrations the server asked for. */
  registrations: { method: string; registerOptions?: unknown }[];
  /** The server's capabilities from its initialize answer. */
  capabilities: Record<string, unknown>;
  /** window/showMessage notifications received. */
  messages: { type: number; message: string }[];
  /** How many times the server asked the client to re-request code lenses. */
  lensRefreshes(): number;
  /** Every publish so far for a file, oldest first (version, diagnostics). */
  published(rel: string): { version?: number; diagnostics: Diagnostic[] }[];
  /** Waits until the latest diagnostics published for `rel` pass `check` (re-publishes are asynchronous). */
  eventually(rel: string, check: (ds: Diagnostic[]) => boolean, what: string, show?: (ds: Diagnostic[]) => unknown): Promise<Diagnostic[]>;
  close(rel: string): Promise<void>;
  /** Writes a file on disk and tells the server, as an editor's file watcher would. */
  writeFile(rel: string, text: string): Promise<void>;
  /** Deletes a file on disk and tells the server, as an editor's file watcher would (an open tab stays open). */
  removeFile(rel: string): Promise<void>;
  /** New `appsetTools` settings: answered to workspace/configuration, announced by didChangeConfiguration. */
  setSettings(s: Record<string, unknown>): Promise<void>;
  stderr(): string;
  shutdown(): Promise<void>;
}

/**
 * `APPSET_TEST_NODE_ARGS` (space-separated): Node options put first on the command line of every server started
 * through this module (these tests, the fuzz runner's server worker, the bench scripts), for a stability run under
 * a V8 option (docs/performance.md, tenth pass: concurrent Sparkplug). V8 options cannot go through NODE_OPTIONS.
 */
const EXTRA_NODE_ARGS = (process.env.APPSET_TEST_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** The built server spawned over stdio (`node [nodeArgs] dist/server.js --stdio`) and a connection to it (not listening yet). */
export function spawnStdioServer(
  nodeArgs: string[] = [],
  stderr: 'pipe' | 'ignore' = 'pipe',
  env: Record<string, string> = {},
): { proc: ChildProcess; conn: ProtocolConnection } {
  return spawnStdio([...nodeArgs, serverPath, '--stdio'], stderr, env);
}

/** The built server over stdio with raw pipes, for tests that write frames byte by byte (no connection). */
export function spawnRawStdioServer(env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...EXTRA_NODE_ARGS, serverPath, '--stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
}

/** Any language server run by Node over stdio (`node argv…`; the benchmark's too) and a connection to it (not listening yet). */
export function spawnStdio(
  argv: string[],
  stderr: 'pipe' | 'ignore' = 'pipe',
  env: Record<string, string> = {},
): { proc: ChildProcess; conn: ProtocolConnection } {
  const proc = spawn(process.execPath, [...EXTRA_NODE_ARGS, ...argv], { stdio: ['pipe', 'pipe', stderr], env: { ...process.env, ...env } });
  return { proc, conn: createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!)) };
}

/**
 * Ends a stdio server as an editor does: shutdown (waited for at most 2 s), exit; then, after `grace` ms for it
 * to exit on its own (profilers write their output then), the connection is closed and the process killed.
 */
export async function stopStdio(conn: ProtocolConnection, proc: ChildProcess, grace = 0): Promise<void> {
  try {
    await Promise.race([conn.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
    await conn.sendNotification(ExitNotification.type);
  } catch {
    /* already gone */
  }
  if (grace && proc.exitCode === null)
    await Promise.race([new Promise((r) => proc.once('exit', r)), new Promise((r) => setTimeout(r, grace))]);
  conn.dispose();
  proc.kill();
}

/** `initialize` params for one workspace folder (the folder's file URI is also the root URI). */
export function initializeParams(dir: string, capabilities: Record<string, unknown> = {}, name = 'ws') {
  const rootUri = pathToFileURL(dir).toString();
  return { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name }], capabilities };
}

export interface StartOptions {
  /** Replaces the client capabilities (default: configuration, lens refresh, dynamic file watching, showDocument). */
  capabilities?: Record<string, unknown>;
  /** Node options for the server process (e.g. `--expose-gc`) and extra environment variables. */
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Called as each publishDiagnostics arrives, before any waiter (test/lsp/cpu-guard.test.ts reads the server's CPU time then). */
  onPublish?: (uri: string, version: number | undefined) => void;
  /** An existing folder as the workspace (`files` are written into it; the caller removes it): a second session on one workspace. */
  workspace?: string;
}

export async function startServer(
  files: Record<string, string> = {},
  settings: Record<string, unknown> = {},
  options: StartOptions = {},
): Promise<TestServer> {
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'appset-lsp-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), text);
  }
  const { proc, conn } = spawnStdioServer(options.nodeArgs, 'pipe', options.env);
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  // Waiters per URI, each wanting diagnostics for at least a given document version (a re-publish
  // of an older version, e.g. after a settings refresh, must not satisfy a wait for an edit).
  const waiting = new Map<string, { minVersion: number; done: (d: Diagnostic[]) => void }[]>();
  const history = new Map<string, { version?: number; diagnostics: Diagnostic[] }[]>();
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    options.onPublish?.(p.uri, p.version);
    const h = history.get(p.uri) ?? [];
    h.push({ version: p.version, diagnostics: p.diagnostics });
    history.set(p.uri, h);
    const list = waiting.get(p.uri);
    if (!list?.length) return;
    const i = list.findIndex((w) => p.version === undefined || p.version >= w.minVersion);
    if (i >= 0) list.splice(i, 1)[0].done(p.diagnostics);
  });
  let current: Record<string, unknown> = { validate: { debounceMs: 0 }, ...settings };
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => current));
  const registrations: { method: string; registerOptions?: unknown }[] = [];
  conn.onRequest('client/registerCapability', (p: { registrations: { method: string; registerOptions?: unknown }[] }) => {
    registrations.push(...p.registrations);
    return null;
  });
  const messages: { type: number; message: string }[] = [];
  conn.onNotification('window/showMessage', (p: { type: number; message: string }) => void messages.push(p));
  let lensRefreshes = 0;
  conn.onRequest('workspace/codeLens/refresh', () => {
    lensRefreshes++;
    return null;
  });
  conn.listen();
  const initialized = await conn.sendRequest(InitializeRequest.type, {
    ...initializeParams(
      workspace,
      options.capabilities ?? {
        workspace: { configuration: true, codeLens: { refreshSupport: true }, didChangeWatchedFiles: { dynamicRegistration: true } },
        window: { showDocument: { support: true } },
      },
    ),
    initializationOptions: { settings: { validate: { debounceMs: 0 }, ...settings } },
  });
  await conn.sendNotification(InitializedNotification.type, {});
  const versions = new Map<string, number>();
  const uriOf = (rel: string) => (rel.includes(':') ? rel : pathToFileURL(join(workspace, rel)).toString());
  const diagnostics = (rel: string, minVersion = 0) =>
    new Promise<Diagnostic[]>((res, rej) => {
      const uri = uriOf(rel);
      // A hang guard, not a speed test (speed is measured by `npm run bench`): generous, because test
      // machines are shared and noisy.
      const t = setTimeout(
        () => rej(new Error(`no diagnostics for ${rel} within ${HANG_GUARD_MS / 1000} s; server stderr: ${err}`)),
        HANG_GUARD_MS,
      );
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
      await conn.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: uriOf(rel), languageId: 'yaml', version: 1, text },
      });
      return p;
    },
    async change(rel, text) {
      const v = (versions.get(rel) ?? 1) + 1;
      const p = diagnostics(rel, v);
      versions.set(rel, v);
      await conn.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: uriOf(rel), version: v },
        contentChanges: [{ text }],
      });
      return p;
    },
    registrations,
    messages,
    capabilities: initialized.capabilities as Record<string, unknown>,
    lensRefreshes: () => lensRefreshes,
    published: (rel) => history.get(uriOf(rel)) ?? [],
    eventually: (rel, check, what, show = (ds) => ds.map((d) => [d.code, d.message])) => {
      const latest = () => history.get(uriOf(rel))?.at(-1)?.diagnostics ?? [];
      return until(latest, check, () => `${what}; last diagnostics for ${rel}: ${JSON.stringify(show(latest()))}; stderr: ${err}`);
    },
    async close(rel) {
      await conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(rel) } });
    },
    async writeFile(rel, text) {
      const file = join(workspace, rel);
      const type = existsSync(file) ? FileChangeType.Changed : FileChangeType.Created;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      await conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(rel), type }] });
    },
    async removeFile(rel) {
      rmSync(join(workspace, rel), { force: true });
      await conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(rel), type: FileChangeType.Deleted }] });
    },
    async setSettings(next) {
      current = { validate: { debounceMs: 0 }, ...next };
      await conn.sendNotification(DidChangeConfigurationNotification.type, { settings: { appsetTools: current } });
    },
    stderr: () => err,
    async shutdown() {
      await stopStdio(conn, proc);
      if (!options.workspace) rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** What a client does with a WorkspaceEdit's TextEdits for one document. */
/**
 * The server is alive and answers: a hover at `line`/`character` of the open document `file` gets an
 * answer, and the process has not exited (the check the robustness tests run after each hostile input).
 */
export async function assertAnswersHover(s: TestServer, file: string, line: number, character: number): Promise<void> {
  const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: s.uriOf(file) }, position: { line, character } });
  assert.ok(h, `the server still answers; stderr: ${s.stderr()}`);
  assert.equal(s.proc.exitCode, null);
}

export function applyTextEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'yaml', 0, text), edits);
}

/** A diagnostic's message as text (LSP 3.18 allows markup). */
export function messageOf(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : d.message.value;
}
