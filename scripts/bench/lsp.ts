/**
 * A minimal LSP client for the benchmark: starts a language server process over stdio, opens and
 * edits one document at a time and times each edit until the server publishes its diagnostics.
 * Memory is read from /proc (Linux): VmHWM is the peak resident set, VmRSS the current one.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidChangeConfigurationNotification,
  PublishDiagnosticsNotification,
  type Diagnostic,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { spawnStdio, stopStdio } from '../../test/lsp/client';

/** yaml-language-server with its validation delay at 0 ms (its compute time alone; yls-nodebounce.cjs). */
export const YLS_NO_DEBOUNCE = join(__dirname, 'yls-nodebounce.cjs');

/**
 * yaml-language-server's Node options in the bench: none, as Red Hat's YAML extension gives it none. On the bench's
 * Node it then runs as under a VS Code remote server on that Node, while the product gets what its client gives it
 * there (protocol.ts serverNodeOptions: concurrent Sparkplug on Node 20 to 23). Giving yaml-language-server that
 * option too, as desktop VS Code's Electron does by default, made its answers slower here (the 1 KiB document's
 * 32 → 38 ms wall, the fifty file's 165 → 175 ms, 9 runs each): the product's ratio would have looked better
 * for a reason not its own (docs/performance.md, tenth pass). `open.ts --server yls,yls --node '|--concurrent-sparkplug'`
 * compares the two.
 */
export function ylsNodeOptions(): string[] {
  return [];
}

/** yaml-language-server's settings in the bench: the ApplicationSet schema for every YAML file, as a user would map it. */
export function ylsSettings(): Record<string, unknown> {
  const schemaUri = 'file://' + join(__dirname, '..', '..', 'schemas', 'applicationset.schema.json');
  return {
    yaml: {
      validate: true,
      hover: true,
      completion: true,
      schemas: { [schemaUri]: '*.yaml' },
      schemaStore: { enable: false },
      maxItemsComputed: 5000,
    },
  };
}

export interface LspProcess {
  name: string;
  proc: ChildProcess;
  /** The connection, for requests the methods below do not cover (hovers, the preview). */
  conn: ProtocolConnection;
  /**
   * Opens a document and records every publish for it until the server has gone quiet (no publish for
   * `quietMs`): `first` is the first publish, `whole` the last one — the whole answer, what the editor
   * shows once the server is done —, each with the ms from didOpen and the server's CPU time meanwhile.
   * `partial` says that the first publish was not the whole answer (another list followed).
   */
  open(path: string, text: string, quietMs?: number): Promise<OpenResult>;
  /** Inserts `insert` at `offset` (an incremental change); ms until the diagnostics of that version. */
  type(path: string, offset: number, insert: string): Promise<number>;
  /** Replaces [start, end) with `insert`; ms until the diagnostics of that version. */
  edit(path: string, start: number, end: number, insert: string): Promise<number>;
  /** The version of the open document the last change gave (what an editor would name in a request). */
  version(path: string): number | undefined;
  /** Resident set now and at its peak, in MiB (Linux /proc). */
  memory(): { rssMiB: number; peakMiB: number };
  /**
   * CPU time the server process has used so far (user + system, Linux /proc, 10 ms ticks): unlike wall
   * time it does not grow while other processes hold the CPU, so it compares servers on a loaded machine.
   */
  cpuMs(): number;
  /**
   * The same in finer grain: the run time the scheduler counted for each of the server's threads
   * (/proc/<pid>/task/<tid>/schedstat, nanoseconds), summed; a thread that has ended is not counted.
   * For comparing builds whose difference is below the 10 ms ticks (a 1 KiB document's answer).
   */
  cpuExactMs(): number;
  /**
   * The main thread's share of `cpuExactMs`: the JavaScript that an answer waits for. Work that V8 moves to its
   * background threads (compilers, collector helpers) leaves it; on a loaded machine it stands for the wall time
   * of a quiet one better than the wall time itself.
   */
  cpuMainMs(): number;
  stop(): Promise<void>;
}

export interface Publish {
  /** ms from didOpen. */
  ms: number;
  /** The server's CPU time from didOpen (10 ms ticks). */
  cpuMs: number;
  /** The same from the scheduler's counts (`cpuExactMs`). */
  cpuExactMs: number;
  /** The main thread's part of it (`cpuMainMs`). */
  mainMs: number;
  diagnostics: Diagnostic[];
}

export interface OpenResult {
  first: Publish;
  whole: Publish;
  publishes: number;
  partial: boolean;
  /**
   * ms from the spawn of the server process to the whole answer (the last publish), when this is the
   * process's first document: what a user waits for from an editor's start with the document open
   * (VS Code sends didOpen right after `initialized`), so work moved from didOpen into the process's
   * start or `initialize` does not shorten it.
   */
  fromStartMs: number;
  /** The server's CPU time from its spawn to the whole answer (the scheduler's count, `cpuExactMs`). */
  fromStartCpuMs: number;
}

export interface LspOptions {
  name: string;
  argv: string[];
  root: string;
  initializationOptions?: unknown;
  /** Settings by section, answered to workspace/configuration and announced after `initialized`. */
  settings?: Record<string, unknown>;
  /** Extra environment variables for the server process. */
  env?: Record<string, string>;
}

export async function startLsp(o: LspOptions): Promise<LspProcess> {
  const spawnedAt = performance.now();
  const { proc, conn } = spawnStdio(o.argv, 'pipe', o.env);
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const waiters = new Map<string, { minVersion: number; done: (d: Diagnostic[]) => void }>();
  const counters = new Map<string, (version: number | undefined, diagnostics: Diagnostic[]) => void>();
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    counters.get(p.uri)?.(p.version, p.diagnostics);
    const w = waiters.get(p.uri);
    if (!w || (p.version !== undefined && p.version < w.minVersion)) return;
    waiters.delete(p.uri);
    w.done(p.diagnostics);
  });
  // Answer what servers may ask; the benchmark advertises no pull configuration.
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map((i) => (i.section && o.settings?.[i.section]) ?? null),
  );
  conn.onNotification('window/logMessage', () => undefined);
  conn.onNotification('telemetry/event', () => undefined);
  conn.listen();
  const rootUri = pathToFileURL(o.root).toString();
  await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'bench' }],
    capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
    initializationOptions: o.initializationOptions ?? null,
  });
  await conn.sendNotification(InitializedNotification.type, {});
  if (o.settings !== undefined) await conn.sendNotification(DidChangeConfigurationNotification.type, { settings: o.settings });
  const versions = new Map<string, number>();
  const texts = new Map<string, string>();

  const wait = (uri: string, minVersion: number) =>
    new Promise<Diagnostic[]>((res, rej) => {
      const t = setTimeout(() => rej(new Error(`${o.name}: no diagnostics for ${uri} within 60 s\n${stderr}`)), 60000);
      waiters.set(uri, {
        minVersion,
        done: (d) => {
          clearTimeout(t);
          res(d);
        },
      });
    });

  const self: LspProcess = {
    name: o.name,
    proc,
    conn,
    async open(path, text, quietMs = 1500) {
      const uri = pathToFileURL(path).toString();
      versions.set(uri, 1);
      texts.set(uri, text);
      const seen: Publish[] = [];
      let lastAt = 0;
      counters.set(uri, (v, diagnostics) => {
        if (v !== undefined && v < 1) return;
        lastAt = performance.now();
        seen.push({
          ms: lastAt - t0,
          cpuMs: self.cpuMs() - c0,
          cpuExactMs: self.cpuExactMs() - e0,
          mainMs: self.cpuMainMs() - m0,
          diagnostics,
        });
      });
      const c0 = self.cpuMs();
      const e0 = self.cpuExactMs();
      const m0 = self.cpuMainMs();
      const t0 = performance.now();
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version: 1, text } });
      // Quiet: a publish, then none for quietMs.
      const guard = t0 + 60000;
      while (!seen.length || performance.now() - lastAt < quietMs) {
        if (performance.now() > guard) throw new Error(`${o.name}: no diagnostics for ${uri} within 60 s\n${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      counters.delete(uri);
      const first = seen[0];
      const whole = seen[seen.length - 1];
      return {
        first,
        whole,
        publishes: seen.length,
        partial: JSON.stringify(first.diagnostics) !== JSON.stringify(whole.diagnostics),
        fromStartMs: t0 + whole.ms - spawnedAt,
        fromStartCpuMs: e0 + whole.cpuExactMs,
      };
    },
    type(path, offset, insert) {
      return self.edit(path, offset, offset, insert);
    },
    async edit(path, startOffset, endOffset, insert) {
      const uri = pathToFileURL(path).toString();
      const v = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, v);
      const text = texts.get(uri) ?? '';
      const pos = (offset: number) => {
        const before = text.slice(0, offset);
        return { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1) };
      };
      const range = { start: pos(startOffset), end: pos(endOffset) };
      texts.set(uri, text.slice(0, startOffset) + insert + text.slice(endOffset));
      const p = wait(uri, v);
      const t0 = performance.now();
      await conn.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: v },
        contentChanges: [{ range, text: insert }],
      });
      await p;
      return performance.now() - t0;
    },
    version(path) {
      return versions.get(pathToFileURL(path).toString());
    },
    memory() {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      const kib = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
    },
    cpuMs() {
      // Fields after the command name: state is field 3, utime and stime are fields 14 and 15.
      const f = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) * 10;
    },
    cpuExactMs() {
      let ns = 0;
      for (const tid of readdirSync(`/proc/${proc.pid}/task`)) {
        try {
          ns += Number(readFileSync(`/proc/${proc.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          // the thread ended meanwhile
        }
      }
      return ns / 1e6;
    },
    cpuMainMs() {
      return Number(readFileSync(`/proc/${proc.pid}/task/${proc.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    },
    async stop() {
      // Let it exit on its own (profilers write their output then), else end it.
      await stopStdio(conn, proc, 2000);
    },
  };
  return self;
}
