/**
 * Hostile workspaces and documents through the built server (issue 16): a 10 MB open document, a
 * mapped checkout outside the workspace (the setting's own `"../repo"` form) whose folders link back
 * into themselves, and 10,000 cluster Secrets in separate files. Each ends in a clear finding or note,
 * and the server keeps answering. Hang guards only; speed is measured by `npm run bench`.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  assertAnswersHover,
  HANG_GUARD_MS,
  initializeParams,
  messageOf,
  spawnStdioServer,
  startServer,
  stopStdio,
  type TestServer,
} from './client';
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';
import { clusterSecret } from '../helpers/clusters';
import { until } from '../helpers/guard';
import { Requests } from '@appset-tools/protocol';
import { HoverRequest } from 'vscode-languageserver-protocol/node';

const servers: TestServer[] = [];
const folders: string[] = [];
after(async () => {
  for (const s of servers) await s.shutdown();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

const SMALL = `${appsetHead('small')}  generators:
    - list:
        elements:
          - n: one
  template:
    metadata:
      name: 'app-{{ .n }}'
${MINIMAL_TEMPLATE_SPEC}`;

const answers = (s: TestServer) => assertAnswersHover(s, 'small.yaml', 4, 4);

test('a 10 MB open document: one finding, bounded memory, and the other documents still answered', async () => {
  const s = await startServer({}, {}, { nodeArgs: ['--expose-gc'], env: { APPSET_TOOLS_TEST_REQUESTS: '1' } });
  servers.push(s);
  await s.open('small.yaml', SMALL);
  const row = `          - n: "${'x'.repeat(80)}"\n`;
  const huge = `${appsetHead('huge')}  generators:\n    - list:\n        elements:\n${row.repeat(Math.ceil((10 * 1024 * 1024) / row.length))}`;
  assert.ok(huge.length >= 10 * 1024 * 1024);
  const ds = await s.open('huge.yaml', huge);
  assert.deepEqual(
    ds.map((d) => d.code),
    ['yaml/too-large'],
    `one finding: ${ds.map(messageOf).join(' | ')}`,
  );
  assert.match(messageOf(ds[0]), /not checked: it has 10(\.\d)? MB .* up to 2(\.\d)? MB/);
  await answers(s);
  // Its preview and a hover in it answer too (there is no ApplicationSet to show).
  assert.equal(await s.conn.sendRequest(Requests.preview, { uri: s.uriOf('huge.yaml') }), null);
  const mem = (await s.conn.sendRequest('appsetTools/test/memory')) as { heapUsed: number; rss: number };
  // The text itself is 10 MB (held by the editor's copy and the analysis); nothing is built from it.
  assert.ok(mem.heapUsed < 120 * 2 ** 20, `heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB`);
});

test('a checkout mapped outside the workspace ("../repo", the setting\'s own example) is read, its looping folder links never followed; a missing one is said', async () => {
  const repo = mkdtempSync(join(tmpdir(), 'appset-lsp-repo-'));
  folders.push(repo);
  mkdirSync(join(repo, 'apps', 'a'), { recursive: true });
  writeFileSync(join(repo, 'apps', 'a', 'config.json'), '{"name": "a"}');
  // Links back up: git lists them as files, so the generator must not walk them.
  for (let i = 0; i < 4; i++) symlinkSync('..', join(repo, 'apps', 'a', `loop${i}`));
  const url = 'https://github.com/org/repo.git';
  const s = await startServer({}, { repoMappings: { [url]: `../${basename(repo)}` } });
  servers.push(s);
  await s.open('small.yaml', SMALL);
  const text = `${appsetHead('git')}  generators:
    - git:
        repoURL: ${url}
        revision: HEAD
        files:
          - path: "apps/**/config.json"
  template:
    metadata:
      name: 'app-{{ .name }}'
${MINIMAL_TEMPLATE_SPEC}`;
  const ds = await s.open('git.yaml', text);
  assert.deepEqual(ds.filter((d) => d.severity === 1).map(messageOf), []);
  const p = (await s.conn.sendRequest(Requests.preview, { uri: s.uriOf('git.yaml') })) as { apps: number; yaml: string };
  assert.equal(p.apps, 1, p.yaml);
  assert.match(p.yaml, /name: app-a\b/);
  // A mapping to a folder that is not there is a finding on the repoURL, not a silent drop.
  await s.setSettings({ repoMappings: { [url]: '../no-such-checkout' } });
  let said: string | undefined;
  for (let i = 0; i < 600 && !said; i++) {
    said = s
      .published('git.yaml')
      .flatMap((x) => x.diagnostics)
      .map(messageOf)
      .find((m) =>
        /repo mapping .* sends https:\/\/github\.com\/org\/repo\.git to "\.\.\/no-such-checkout", but .* is not a readable folder/.test(m),
      );
    if (!said) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(said, JSON.stringify(s.published('git.yaml').at(-1)));
  await answers(s);
});

test('10,000 cluster Secrets in separate files: the scan cap is said in the editor and in the preview, never silent', async () => {
  const files: Record<string, string> = { 'small.yaml': SMALL };
  for (let i = 0; i < 10_000; i++) files[`clusters/c${String(i).padStart(5, '0')}.yaml`] = clusterSecret({ name: `c${i}` });
  const s = await startServer(files);
  servers.push(s);
  await s.open('small.yaml', SMALL);
  const text = `${appsetHead('all')}  generators:
    - clusters: {}
  template:
    metadata:
      name: 'app-{{ .name }}'
${MINIMAL_TEMPLATE_SPEC.replace('server: https://kubernetes.default.svc', "server: '{{ .server }}'")}`;
  await s.open('all.yaml', text);
  const p = (await s.conn.sendRequest(Requests.preview, { uri: s.uriOf('all.yaml') })) as { apps: number; yaml: string; notes: string[] };
  assert.ok(p.apps >= 4000 && p.apps <= 5001, `${p.apps} Applications (the files read before the cap, and the local cluster)`);
  assert.ok(
    p.notes.some((n) => /the workspace scan stopped at 5,000 YAML files/.test(n)),
    `the preview says why: ${JSON.stringify(p.notes)}`,
  );
  let warned: string | undefined;
  for (let i = 0; i < 600 && !warned; i++) {
    warned = s.messages.find((m) => /the workspace scan stopped at 5,000 YAML files/.test(m.message))?.message;
    if (!warned) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(warned, `a window message says so: ${JSON.stringify(s.messages)}`);
  await answers(s);
});

test("one tab-indented line in a ~100 KiB list: the library's stack overflow is one yaml/parser-overflow finding in the editor, never an internal error (issue 25)", async () => {
  const s = await startServer({}, {});
  servers.push(s);
  await s.open('small.yaml', SMALL);
  const items = Array.from({ length: 3000 }, (_, i) => [`          - cluster: c${i}`, `            url: https://c${i}.example`]).flat();
  items[1] = '\t' + items[1].trimStart();
  const text = `${appsetHead('tabbed')}  generators:\n    - list:\n        elements:\n${items.join('\n')}\n  template:\n    metadata:\n      name: '{{.cluster}}'\n${MINIMAL_TEMPLATE_SPEC}`;
  assert.ok(text.length > 100 * 1024);
  const ds = await s.open('tabbed.yaml', text);
  const tabLine = text.slice(0, text.indexOf('\t')).split('\n').length - 1;
  assert.deepEqual(
    ds.map((d) => [d.code, d.range.start.line]),
    [['yaml/parser-overflow', tabLine]],
  );
  assert.match(messageOf(ds[0]), /the YAML parser ran out of stack reading it, after this syntax error: a tab in the indentation/);
  assert.doesNotMatch(JSON.stringify(ds), /internal error|RangeError/i);
  // The document is not read, so a hover on it has nothing to say; it still gets an answer.
  const h = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('tabbed.yaml') },
    position: { line: tabLine, character: 2 },
  });
  assert.equal(h, null);
  await answers(s);
});

/** YAML that expands 10^12 nodes through 12 levels of aliases, as lines of a mapping at `indent`. */
export function aliasBombLines(indent: string): string {
  const lines = [`${indent}a0: &a0 [x, x, x, x, x, x, x, x, x, x]`];
  for (let i = 1; i < 12; i++)
    lines.push(
      `${indent}a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n') + '\n';
}

test('issue 25: a 40,000-folder tree is listed in steps: hovers are answered while the scan is under way', async () => {
  const s = await startServer({}, {}, { env: { APPSET_TOOLS_TEST_REQUESTS: '1' } });
  servers.push(s);
  // Made after the server started: the scan begins after the first answer.
  for (let i = 0; i < 40; i++) for (let j = 0; j < 1000; j++) mkdirSync(join(s.workspace, `d${i}`, `e${j}`), { recursive: true });
  await s.open('small.yaml', SMALL);
  type Scanned = { scanned: { entries: number; complete: boolean } };
  let during = 0;
  // Hovers one after another until the listing is complete; each answer that arrives while the index
  // says its listing is started and not complete was answered between the scan's steps (before: the
  // whole listing was one step, and no answer came while it ran).
  await until(
    async () => {
      await assertAnswersHover(s, 'small.yaml', 4, 4);
      const st = (await s.conn.sendRequest('appsetTools/test/index')) as Scanned;
      if (st.scanned.entries > 0 && !st.scanned.complete) during++;
      return st.scanned.complete;
    },
    (done) => done,
    () => `the scan never completed; stderr: ${s.stderr()}`,
  );
  assert.ok(during >= 2, `${during} hovers answered while the listing was under way`);
});

test('issue 25: an alias-bomb cluster Secret is one finding on its file and a note in the preview, never a silent skip', async () => {
  const bomb = clusterSecret({ name: 'bomb' }) + aliasBombLines('  ');
  const s = await startServer({ 'clusters/bomb.yaml': bomb, 'clusters/good.yaml': clusterSecret({ name: 'good' }) });
  servers.push(s);
  const text = `${appsetHead('all')}  generators:
    - clusters: {}
  template:
    metadata:
      name: 'app-{{ .name }}'
${MINIMAL_TEMPLATE_SPEC}`;
  await s.open('all.yaml', text);
  const p = (await s.conn.sendRequest(Requests.preview, { uri: s.uriOf('all.yaml') })) as { apps: number; notes: string[]; exact: boolean };
  assert.equal(p.apps, 2, 'good and in-cluster');
  assert.ok(
    p.notes.some((n) => /bomb\.yaml \(line 1\) was skipped, not read: it expands more than 100 YAML aliases/.test(n)),
    JSON.stringify(p.notes),
  );
  const ds = await s.open('clusters/bomb.yaml', bomb);
  assert.deepEqual(
    ds.map((d) => d.code),
    ['yaml/alias-limit'],
    ds.map(messageOf).join(' | '),
  );
});

test('issue 25: a bad Content-Length over stdio is dropped and the next request answered', async () => {
  const { proc, conn } = spawnStdioServer();
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  conn.listen();
  try {
    // Garbage headers before the first request: a non-number, a missing length, a header without a colon.
    proc.stdin!.write('Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}');
    proc.stdin!.write('Content-Type: x\r\n\r\n{}');
    proc.stdin!.write('garbage\r\n\r\n');
    const dir = mkdtempSync(join(tmpdir(), 'appset-lsp-framing-'));
    folders.push(dir);
    const init = await Promise.race([
      conn.sendRequest('initialize', initializeParams(dir)),
      new Promise((_, rej) => setTimeout(() => rej(new Error(`no answer to initialize; stderr: ${err}`)), HANG_GUARD_MS)),
    ]);
    assert.ok((init as { capabilities: unknown }).capabilities, 'initialize answered after the bad headers');
    // And again in the middle of a session.
    proc.stdin!.write('Content-Length: 12x\r\n\r\n');
    const r = await conn.sendRequest('textDocument/hover', {
      textDocument: { uri: 'file:///none.yaml' },
      position: { line: 0, character: 0 },
    });
    assert.equal(r, null);
    assert.match(err, /dropped an incoming message with a bad header \(Content-Length "abc" is not a number\)/);
    assert.match(err, /Content-Length "12x" is not a number/);
  } finally {
    await stopStdio(conn, proc);
  }
});

test('issue 38: Content-Length 2147483647 over stdio is dropped and said; the requests after it are answered', async () => {
  const { proc, conn } = spawnStdioServer();
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  conn.listen();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'appset-lsp-framing-'));
    folders.push(dir);
    await conn.sendRequest('initialize', initializeParams(dir));
    // The reader waited for 2 GB of content, reading every later message as part of it.
    proc.stdin!.write('Content-Length: 2147483647\r\n\r\n{"jsonrpc":"2.0","id":98,"method":"shutdown"}');
    const r = await Promise.race([
      conn.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///none.yaml' }, position: { line: 0, character: 0 } }),
      new Promise((_, rej) => setTimeout(() => rej(new Error(`no answer after the huge header; stderr: ${err}`)), HANG_GUARD_MS)),
    ]);
    assert.equal(r, null);
    await until(
      () => err,
      (e) => /dropped an incoming message with a bad header \(Content-Length 2147483647 is over the 64 MiB limit\)/.test(e),
      () => `the dropped message is said on stderr: ${err}`,
    );
  } finally {
    await stopStdio(conn, proc);
  }
});
