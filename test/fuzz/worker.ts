/**
 * One fuzz worker, run as a child process by `run.ts` (so a V8 abort or an out-of-memory is seen
 * as a crash of this process, not of the runner):
 *   node --max-old-space-size=512 --import tsx test/fuzz/worker.ts <engine|tree|server|yaml|probe> <seed> <start> <count>
 * Prints one JSON line per input: {"i": k, "ms": …, "failures": n} — `failures` counts feature
 * modules that threw and were isolated by the facade (a bug, but not a crash). An exception that
 * escapes the engine prints {"i": k, "error": …}; a hang the worker saw itself adds `"hang": true`,
 * and `"stop": true` when the worker ends after that input.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  HoverRequest,
  CodeLensRequest,
  CompletionRequest,
} from 'vscode-languageserver-protocol/node';
import { getLanguageService } from '@appset-tools/engine';
import { createNodeHost } from '../../server/src/host/nodeHost';
import { fileText, sample, tree, type TreeEntry } from './inputs';
import { initializeParams, spawnStdioServer } from '../lsp/client';
import { flowClusterSecret } from '../helpers/clusters';
import { appsetHead, gitGenerator } from '../helpers/appsets';
import { cpuMs } from './run';
import { boundaryCase } from '../helpers/yamlDifferential';

const [kind, seedArg, startArg, countArg] = process.argv.slice(2);
const seed = Number(seedArg);
const start = Number(startArg);
const count = Number(countArg);
const emit = (o: object) => fs.writeSync(1, JSON.stringify(o) + '\n');

function exercise(service: ReturnType<typeof getLanguageService>, file: string, text: string): void {
  const a = service.analyze(file, text, file);
  service.diagnostics(a);
  for (const x of service.appsets(a)) service.applications(a, x.span.start);
  service.codeLenses(a);
  for (let off = 0; off <= text.length; off += Math.max(1, Math.floor(text.length / 5))) {
    service.hover(a, off);
    service.completions(a, off);
  }
  const first = service.appsets(a)[0];
  if (first) {
    service.preview(a, first.span.start);
    service.rolloutPlan(a, first.span.start);
  }
}

function engineRun(): void {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-engine-')));
  let failures = 0;
  const host = createNodeHost([dir], {}, (m) => void (/ failed: /.test(m) && failures++));
  const service = getLanguageService({ host });
  for (let k = start; k < start + count; k++) {
    const text = sample(fileText, seed + k);
    const t0 = Date.now();
    failures = 0;
    try {
      exercise(service, `${dir}/f${k % 4}.yaml`, text);
      emit({ i: k, ms: Date.now() - t0, failures });
    } catch (e) {
      emit({ i: k, ms: Date.now() - t0, error: String((e as Error).stack ?? e).slice(0, 800) });
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

const TREE = 'https://github.com/org/tree.git';
const APPSET = `${appsetHead('t')}  generators:
  - clusters: {}
${gitGenerator(TREE, 'files', '**/config.json', { compact: true })}${gitGenerator(TREE, 'directories', '**', { compact: true })}  template:
    metadata: {name: '{{.name}}'}
    spec: {project: default, source: {repoURL: x, path: p}, destination: {server: '{{.server}}', namespace: d}}
`;

function materialize(root: string, entries: TreeEntry[]): void {
  for (const e of entries) {
    const p = path.join(root, e.path);
    try {
      fs.mkdirSync(e.kind === 'dir' ? p : path.dirname(p), { recursive: true });
      if (e.kind === 'file') fs.writeFileSync(p, e.text ?? '');
      else if (e.kind === 'link') fs.symlinkSync(e.target === 'OUTSIDE' ? path.join(root, '..', 'outside') : (e.target as string), p);
      else if (e.kind === 'fifo') execFileSync('mkfifo', [p]);
    } catch {
      /* a path already taken by another kind of entry */
    }
  }
}

function treeRun(): void {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-tree-')));
  // Outside the workspace: a cluster Secret that must never be read.
  fs.mkdirSync(path.join(base, 'outside'));
  fs.writeFileSync(path.join(base, 'outside', 's.yaml'), flowClusterSecret({ name: 'LEAKED', secretName: 'leak', server: 'https://leak' }));
  for (let k = start; k < start + count; k++) {
    const root = path.join(base, `w${k}`);
    fs.mkdirSync(root);
    materialize(root, sample(tree, seed + k));
    const t0 = Date.now();
    let failures = 0;
    try {
      const host = createNodeHost([root], { repoMappings: { [TREE]: '.' } }, (m) => void (/ failed: /.test(m) && failures++));
      const service = getLanguageService({ host });
      const file = path.join(root, 'appset.yaml');
      const a = service.analyze(file, APPSET, file);
      service.diagnostics(a);
      const exp = service.applications(a)!;
      const leaked = JSON.stringify(exp.apps).includes('LEAKED');
      emit(
        leaked
          ? { i: k, ms: Date.now() - t0, error: 'read a cluster Secret from outside the workspace' }
          : { i: k, ms: Date.now() - t0, failures, apps: exp.apps.length },
      );
    } catch (e) {
      emit({ i: k, ms: Date.now() - t0, error: String((e as Error).stack ?? e).slice(0, 800) });
    }
    fs.rmSync(root, { recursive: true, force: true });
  }
  fs.rmSync(base, { recursive: true, force: true });
}

async function serverRun(): Promise<void> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-server-')));
  const { proc, conn } = spawnStdioServer(['--max-old-space-size=768'], 'ignore');
  const exited = new Promise<string>((res) => proc.on('exit', (code, sig) => res(`server exited (${sig ?? code})`)));
  conn.listen();
  const params = initializeParams(dir, {}, 'w');
  const root = params.rootUri;
  await conn.sendRequest(InitializeRequest.type, params);
  await conn.sendNotification(InitializedNotification.type, {});
  const uri = `${root}/a.yaml`;
  let version = 1;
  await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version, text: '' } });
  // No answer after 30 s of the server's CPU time (or 300 s of wall time: a starved niced run is slow, not hung).
  const timeout = (ms: number) =>
    new Promise<string>((res) => {
      const t0 = Date.now();
      const cpu0 = cpuMs(proc.pid);
      const t = setInterval(() => {
        const cpu = cpuMs(proc.pid) - cpu0;
        if (Date.now() - t0 > 10 * ms || (cpu > ms && !Number.isNaN(cpu)) || (Number.isNaN(cpu) && Date.now() - t0 > ms)) {
          clearInterval(t);
          res('timeout');
        }
      }, 500);
      t.unref();
      void answersDone.then(() => clearInterval(t));
    });
  let answersDone: Promise<unknown> = Promise.resolve();
  for (let k = start; k < start + count; k++) {
    const text = sample(fileText, seed + k);
    const t0 = Date.now();
    await conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text }],
    });
    const lines = text.split('\n');
    const pos = { line: Math.floor(lines.length / 2), character: 2 };
    const answers = Promise.all([
      conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos }),
      conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } }),
      conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }),
      conn.sendRequest('appsetTools/preview', { uri }),
    ]).then(
      () => 'ok',
      (e) => `request failed: ${(e as Error).message}`,
    );
    answersDone = answers;
    const r = await Promise.race([answers, exited, timeout(30_000)]);
    if (r === 'ok') emit({ i: k, ms: Date.now() - t0, requests: 4 });
    else {
      // A server that hung or died ends this worker (the runner starts another after input k).
      const stop = !r.startsWith('request failed');
      emit({ i: k, ms: Date.now() - t0, error: r, hang: r === 'timeout', ...(stop ? { stop } : {}) });
      if (stop) break;
    }
  }
  proc.kill();
  conn.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * The runner's own test: input k passes (k % 4 = 0), is reported as a hang after which the worker
 * stops (1), kills the worker (2), or never answers, busy (3).
 */
function probeRun(): void {
  for (let k = start; k < start + count; k++) {
    if (k % 4 === 0) emit({ i: k, ms: 0 });
    else if (k % 4 === 1) {
      emit({ i: k, ms: 0, error: 'timeout', hang: true, stop: true });
      process.exit(0);
    } else if (k % 4 === 2) process.kill(process.pid, 'SIGKILL');
    else for (;;); // busy: the runner's limit counts CPU time
  }
}

/**
 * The YAML readers against the library on the whole text (test/helpers/yamlDifferential.ts): a
 * generated text at `---` boundaries and an edit of it; a difference is reported as a crash, with the
 * texts in its detail.
 */
function yamlRun(): void {
  for (let k = start; k < start + count; k++) {
    const t0 = Date.now();
    try {
      boundaryCase(seed * 1_000_003 + k);
      emit({ i: k, ms: Date.now() - t0, failures: 0 });
    } catch (e) {
      emit({ i: k, ms: Date.now() - t0, error: String((e as Error).message ?? e).slice(0, 800) });
    }
  }
}

if (kind === 'probe') probeRun();
else if (kind === 'yaml') yamlRun();
else if (kind === 'engine') engineRun();
else if (kind === 'tree') treeRun();
else void serverRun().then(() => process.exit(0));
