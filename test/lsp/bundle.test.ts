/**
 * The bundles esbuild produces (`node esbuild.js`): the client stays thin (no engine code in the
 * extension host), the server is a self-contained bundle other editors can run, and the server and
 * the CLI keep V8's compiled code in the cache folder (server/src/codeCache.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  DidOpenTextDocumentNotification,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
} from 'vscode-languageserver-protocol/node';
import { HANG_GUARD_MS, initializeParams, repoRoot, serverPath, spawnStdioServer, startServer, stopStdio } from './client';
import { appsetHead } from '../helpers/appsets';
import { serverNodeOptions } from '@appset-tools/protocol';
import { tuneServerHeap } from '../../server/src/heapFlags';

test('the client bundle contains no engine code', () => {
  const client = readFileSync(join(repoRoot, 'dist', 'extension.js'), 'utf8');
  for (const marker of ['server/src/engine', 'expandAppSet', 'appset/unknown-field', 'argocd-cmd-params-cm']) {
    assert.ok(!client.includes(marker), `dist/extension.js includes "${marker}"`);
  }
  assert.match(client, /appsetTools\/preview/);
});

test('the server bundle runs from anywhere without node_modules', () => {
  // Without a transport the server explains how to start it and exits, instead of hanging.
  const r = spawnSync(process.execPath, [serverPath], { cwd: '/', timeout: HANG_GUARD_MS, encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Usage: node dist\/server.js --stdio/);
  for (const f of [serverPath, join(repoRoot, 'dist', 'lib', 'server.js')]) {
    const bundle = readFileSync(f, 'utf8');
    assert.doesNotMatch(bundle, /require\(["'](yaml|ajv|re2js|picomatch|vscode-languageserver)["']\)/, f);
  }
});

test('the CLI keeps its compiled code in the cache folder: same answers with it, a broken one is replaced, --no-cache writes none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  try {
    const cache = join(dir, 'cache');
    writeFileSync(
      join(dir, 'bad.yaml'),
      'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: x}\nspec: {generatorz: []}\n',
    );
    const lint = (...extra: string[]) => {
      const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'lint', 'bad.yaml', ...extra], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60000,
        env: { ...process.env, APPSET_CACHE_DIR: cache },
      });
      return { status: r.status, out: r.stdout, err: r.stderr };
    };
    const first = lint();
    assert.equal(first.status, 1, first.err);
    assert.match(first.out, /appset\/unknown-field/);
    const code = () => (existsSync(join(cache, 'code')) ? readdirSync(join(cache, 'code')).sort() : []);
    // The bundle's and the schema validator's (loaded on first use) compiled code.
    assert.equal(code().length, 2, `written at exit of the first run: ${code().join(', ')}`);
    assert.match(code()[0], /^cli-\d+-\d+-v[\d.]+-\w+\.bin$/);
    assert.match(code()[1], /^validator-applicationset-\d+-\d+-v[\d.]+-\w+\.bin$/);
    const written = code().map((f) => readFileSync(join(cache, 'code', f)));
    assert.deepEqual(lint(), first, 'the same answer from the cached code');
    assert.deepEqual(
      code().map((f) => readFileSync(join(cache, 'code', f))),
      written,
      'a valid cache is used as it is, not written again',
    );
    for (const f of code()) writeFileSync(join(cache, 'code', f), 'not V8 code');
    assert.deepEqual(lint(), first, 'a broken cache is refused');
    for (const f of code()) assert.notEqual(readFileSync(join(cache, 'code', f), 'utf8'), 'not V8 code', `and written again: ${f}`);
    rmSync(cache, { recursive: true });
    assert.deepEqual(lint('--no-cache'), first);
    assert.equal(existsSync(cache), false, '--no-cache writes nothing');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the server's loader keeps V8's default flags for compiled code: heap sizes reset before the bundle compiles, its growth set and its optimiser deferred after", () => {
  const loader = readFileSync(serverPath, 'utf8');
  const reset = loader.indexOf('.resetCreationFlags()');
  const run = loader.indexOf('.runBundle(');
  const tune = loader.indexOf('.tuneServerHeap()');
  const defer = loader.indexOf('.deferOptimiser()');
  assert.ok(
    reset > 0 && reset < run && run < tune && tune < defer,
    'dist/server.js: resetCreationFlags(), runBundle(), tuneServerHeap(), deferOptimiser()',
  );
  assert.equal(tuneServerHeap(['--max-semi-space-size=2', '--heap-growing-percent=80']), false);
  assert.equal(tuneServerHeap(['--heap_growing_percent=80']), false);
  // V8 uses compiled code (Node's own modules', the code cache's) only under the flags it was made with:
  // code compiled by a plain `node` is accepted by a process started with the server's options once the
  // loader reset them, and, with the heap growth set, within withStartFlags; the heap keeps its 2 MiB semi-spaces.
  const dir = mkdtempSync(join(tmpdir(), 'heap-flags-'));
  try {
    // One script per check: V8 compiles a source it has seen from its own memory, not from the cache.
    const sources = [1, 2, 3, 4, 5, 6, 7].map((n) => `function f(a) { return a + ${n}; }\nf(1);\n`);
    const made = spawnSync(
      process.execPath,
      [
        '-e',
        `const vm = require('vm'), fs = require('fs');
        ${JSON.stringify(sources)}.forEach((s, i) => fs.writeFileSync(${JSON.stringify(dir)} + '/' + i + '.bin', new vm.Script(s).createCachedData()));`,
      ],
      { encoding: 'utf8', timeout: HANG_GUARD_MS },
    );
    assert.equal(made.status, 0, made.stderr);
    const check = `
      const vm = require('vm'), v8 = require('v8'), fs = require('fs');
      const flags = require(${JSON.stringify(join(repoRoot, 'server', 'src', 'heapFlags.ts'))});
      const sources = ${JSON.stringify(sources)};
      let n = 0;
      const accepted = () => {
        const i = n++;
        const cachedData = fs.readFileSync(${JSON.stringify(dir)} + '/' + i + '.bin');
        return !new vm.Script(sources[i], { cachedData }).cachedDataRejected;
      };
      const out = { started: accepted() };
      flags.resetCreationFlags();
      out.reset = accepted();
      out.tuned = flags.tuneServerHeap([]);
      out.tunedOutside = accepted();
      out.within = flags.withStartFlags(accepted);
      // The optimising compiler deferred (optimiser.ts) changes them too; withStartFlags sets it back
      // around the use, in every copy of heapFlags.ts (the loader's and the bundle's: one process).
      out.deferred = require(${JSON.stringify(join(repoRoot, 'server', 'src', 'optimiser.ts'))}).deferOptimiser([], '');
      out.deferredOutside = accepted();
      out.deferredWithin = flags.withStartFlags(accepted);
      delete require.cache[require.resolve(${JSON.stringify(join(repoRoot, 'server', 'src', 'heapFlags.ts'))})];
      const copy = require(${JSON.stringify(join(repoRoot, 'server', 'src', 'heapFlags.ts'))});
      out.anotherCopy = copy !== flags && copy.withStartFlags(accepted);
      let keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 1e5) keep = []; }
      out.newSpaceMiB = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, [...serverNodeOptions(process), '--import', 'tsx', '-e', check], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60000,
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
    assert.equal(out.started, false, 'the launch options alone change the flags V8 checks');
    assert.equal(out.reset, true, 'set back by resetCreationFlags()');
    assert.equal(out.tuned, true);
    assert.equal(out.tunedOutside, false, 'the heap growth changes them again');
    assert.equal(out.within, true, 'withStartFlags() checks under the start flags');
    assert.equal(out.deferred, true);
    assert.equal(out.deferredOutside, false, 'the optimiser deferred changes them again');
    assert.equal(out.deferredWithin, true, 'withStartFlags() sets the optimiser back around the check');
    assert.equal(out.anotherCopy, true, "the bundle's copy of heapFlags.ts knows what the loader's changed");
    assert.ok(out.newSpaceMiB <= 4, `the young generation keeps its size: ${out.newSpaceMiB} MiB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Only ASCII in the bundles: one other character makes V8 hold a bundle's whole source as a two-byte string.
  for (const name of ['server', 'cli']) {
    const text = readFileSync(join(repoRoot, 'dist', 'lib', `${name}.js`), 'utf8');
    assert.equal(text.search(/[^\x00-\x7f]/), -1, `dist/lib/${name}.js`);
  }
});

test('the language server writes its compiled code once it is idle after its first answers, and starts from it next time', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'server-code-cache-'));
  const files = () => (existsSync(join(cache, 'code')) ? readdirSync(join(cache, 'code')).filter((f) => f.startsWith('server-')) : []);
  try {
    const s = await startServer({}, {}, { nodeArgs: serverNodeOptions(process), env: { APPSET_CACHE_DIR: cache } });
    try {
      await s.open('a.yaml', appsetHead('a') + '  generators: []\n  template: {}\n');
      assert.deepEqual(files(), [], 'nothing written during the first answers');
      // Written at the first idle second after SAVE_AFTER_MS (5 s): polled, with the hang guard as the bound.
      const until = Date.now() + HANG_GUARD_MS;
      while (!files().length && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      assert.equal(files().length, 1, 'the server bundle cache');
    } finally {
      await s.shutdown();
    }
    const written = statSync(join(cache, 'code', files()[0])).mtimeMs;
    // A second start with the same options accepts it: nothing is written again.
    const again = await startServer({}, {}, { nodeArgs: serverNodeOptions(process), env: { APPSET_CACHE_DIR: cache } });
    try {
      await again.open('a.yaml', appsetHead('a') + '  generators: []\n  template: {}\n');
      await new Promise((r) => setTimeout(r, 7000));
    } finally {
      await again.shutdown();
    }
    assert.equal(statSync(join(cache, 'code', files()[0])).mtimeMs, written);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('a cache written by a session that answered no ApplicationSet is written again by the next that does, then kept', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'server-code-cache-'));
  const file = () => {
    const names = existsSync(join(cache, 'code')) ? readdirSync(join(cache, 'code')).filter((f) => f.startsWith('server-')) : [];
    assert.equal(names.length, 1, `one server cache: ${names}`);
    return statSync(join(cache, 'code', names[0]));
  };
  const APPSET = `${appsetHead('a')}  generators:
    - list:
        elements:
          - env: dev
          - env: prod
  template:
    metadata:
      name: 'a-{{ .env }}'
    spec:
      project: default
      source: { repoURL: 'https://example.com/a.git', targetRevision: main, path: 'apps/{{ .env }}' }
      destination: { server: 'https://kubernetes.default.svc', namespace: '{{ .env }}' }
`;
  const dir = mkdtempSync(join(tmpdir(), 'server-code-cache-ws-'));
  const session = async (rel: string, text: string) => {
    const { proc, conn } = spawnStdioServer(serverNodeOptions(process), 'pipe', { APPSET_CACHE_DIR: cache });
    let published = false;
    conn.onNotification(PublishDiagnosticsNotification.type, () => void (published = true));
    conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({ validate: { debounceMs: 0 } })));
    conn.listen();
    await conn.sendRequest(InitializeRequest.type, initializeParams(dir, { workspace: { configuration: true } }));
    await conn.sendNotification(InitializedNotification.type, {});
    const uri = pathToFileURL(join(dir, rel)).toString();
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    for (let i = 0; i < 400 && !published; i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(published, `${rel} answered`);
    // Stopped as an editor stops it (shutdown, exit): the cache is written, or not, at the exit.
    await stopStdio(conn, proc, HANG_GUARD_MS);
  };
  try {
    await session('plain.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n');
    const plain = file();
    await session('a.yaml', APPSET);
    const answered = file();
    assert.ok(answered.size > plain.size * 1.05, `written again with the answer's code: ${plain.size} → ${answered.size} bytes`);
    await session('a.yaml', APPSET);
    assert.equal(file().mtimeMs, answered.mtimeMs, 'a cache that held the session’s code is kept');
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});
