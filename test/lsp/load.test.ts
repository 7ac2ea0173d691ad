/**
 * The built server under load (issue 16): a heavy expansion in one document never holds up answers
 * for another, stale and cancelled work is dropped, memory stays flat over a long session, and what
 * the workspace scan left out is said once. Assertions are about order and outcome, never time: the
 * hang guards are generous (HANG_GUARD_MS).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  CancellationTokenSource,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  FoldingRangeRequest,
  HoverRequest,
  LSPErrorCodes,
  ResponseError,
} from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';
import { Requests } from '@appset-tools/protocol';
import { appsetHead, flowTemplate, LOCAL, longListAppSet } from '../helpers/appsets';

/** A matrix of two lists: `a × b` parameter sets (the preview stops at maxApplications). */
const MATRIX = (a: number, b: number, name = 'heavy') => `${appsetHead(name, { namespace: null })}  generators:
    - matrix:
        generators:
          - list:
              elements:
${Array.from({ length: a }, (_, i) => `                  - a: a${i}`).join('\n')}
          - list:
              elements:
${Array.from({ length: b }, (_, i) => `                  - b: b${i}`).join('\n')}
${flowTemplate(
  "'app-{{ .a }}-{{ .b }}'",
  "repoURL: https://example.com/r.git, targetRevision: main, path: 'apps/{{ .a }}/{{ .b }}'",
  `${LOCAL}, namespace: '{{ .a }}'`,
)}`;

const SMALL = MATRIX(1, 1, 'small');

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.shutdown();
});

/** Resolves with the order in which the given promises settled. */
function settleOrder(named: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  return Promise.all(
    Object.entries(named).map(([k, p]) =>
      p.then(
        () => void order.push(k),
        () => void order.push(k),
      ),
    ),
  ).then(() => order);
}

test('a heavy expansion in one document: another document is answered first, and cancelled or outdated work is dropped', async () => {
  const s = await startServer({}, { maxApplications: 10000 });
  servers.push(s);
  await s.open('small.yaml', SMALL);
  const heavy = MATRIX(100, 100);
  const heavyDiags = s.diagnostics('heavy.yaml', 1);
  await s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: s.uriOf('heavy.yaml'), languageId: 'yaml', version: 1, text: heavy },
  });
  // The preview of 10,000 Applications is asked first, then a hover in the small document: the
  // hover is answered while the preview is still expanding (between its slices).
  const preview = s.conn.sendRequest(Requests.preview, { uri: s.uriOf('heavy.yaml') });
  const hover = s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('small.yaml') },
    position: { line: 4, character: 4 },
  });
  const order = await settleOrder({ preview, hover, heavyDiags });
  assert.equal(order[0], 'hover', `answered in this order: ${order}`);
  assert.ok(await hover, 'the hover has an answer');
  const p = (await preview) as { apps: number } | null;
  assert.equal(p?.apps, 10000);
  await heavyDiags;

  // $/cancelRequest: a cancelled preview stops at its next pause and says so.
  const next = MATRIX(100, 101);
  await s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: s.uriOf('heavy.yaml'), version: 2 },
    contentChanges: [{ text: next }],
  });
  const cts = new CancellationTokenSource();
  const cancelled = s.conn.sendRequest(Requests.preview, { uri: s.uriOf('heavy.yaml') }, cts.token);
  setImmediate(() => cts.cancel());
  await assert.rejects(cancelled, (e: unknown) => e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled);

  // A newer version drops the work for the older one: the preview of version 3 answers
  // ContentModified once version 4 arrives, and nothing older than version 4 is published after that.
  // (The three messages go out back to back so version 3's work is usually still running when version
  // 4 arrives; on a starved test machine it may finish first, and publishing it then is right. What
  // the server must never do is publish version 3 once it knows of version 4: its ContentModified
  // answer proves it knew, and its messages reach the client in the order it sent them.)
  const before = s.published('heavy.yaml').length;
  const final = s.diagnostics('heavy.yaml', 4);
  const change = (v: number) =>
    s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: s.uriOf('heavy.yaml'), version: v },
      contentChanges: [{ text: MATRIX(100, 100 + v) }],
    });
  const sent3 = change(3);
  const old = s.conn.sendRequest(Requests.preview, { uri: s.uriOf('heavy.yaml') });
  const sent4 = change(4);
  let afterModified = -1;
  await assert.rejects(
    old.catch((e: unknown) => {
      afterModified = s.published('heavy.yaml').length;
      throw e;
    }),
    (e: unknown) => e instanceof ResponseError && e.code === LSPErrorCodes.ContentModified,
  );
  await Promise.all([sent3, sent4, final]);
  const versions = s.published('heavy.yaml').map((x) => x.version ?? 0);
  const since = versions.slice(before);
  assert.deepEqual(
    since,
    [...since].sort((a, b) => a - b),
    `publishes never go back to an older version: ${versions}`,
  );
  assert.equal(since.at(-1), 4, `version 4 is published last: ${versions}`);
  assert.ok(
    versions.slice(afterModified).every((v) => v === 4),
    `after ContentModified only version 4: ${versions}`,
  );
  assert.equal(s.proc.exitCode, null, s.stderr());
});

/** One ApplicationSet of about `lines` lines: a list generator with two keys per element. */
const LONG = (lines: number) => longListAppSet(Math.floor(lines / 2));

test('a large document being parsed, validated, expanded and previewed: another document is answered first', async () => {
  const s = await startServer({}, { maxApplications: 10000 });
  servers.push(s);
  await s.open('small.yaml', SMALL);
  // 20,000 lines (about 650 KB): its parse alone takes many slices.
  const large = LONG(20000);
  const largeDiags = s.diagnostics('large.yaml', 1);
  await s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: s.uriOf('large.yaml'), languageId: 'yaml', version: 1, text: large },
  });
  // Its folding ranges (they need the parse) and its preview (the parse, the expansions and the
  // preview text) are asked first, then a hover in the small document: the hover is answered between
  // the large document's slices. (A server that parsed in one go answered the folding ranges first.)
  const folding = s.conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: s.uriOf('large.yaml') } });
  const preview = s.conn.sendRequest(Requests.preview, { uri: s.uriOf('large.yaml') });
  const hover = s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('small.yaml') },
    position: { line: 4, character: 4 },
  });
  const order = await settleOrder({ folding, preview, hover, largeDiags });
  assert.equal(order[0], 'hover', `answered in this order: ${order}`);
  assert.ok(((await folding) ?? []).length > 0, 'the large document has folding ranges');
  assert.ok(await hover, 'the hover has an answer');
  const p = (await preview) as { apps: number; yaml: string } | null;
  assert.equal(p?.apps, 10000);
  assert.equal(p?.yaml.split('\n---\n').length, 10001, 'the preview lists every Application');
  const ds = await largeDiags;
  assert.ok(Array.isArray(ds), 'the large document got its diagnostics');
  assert.equal(s.proc.exitCode, null, s.stderr());
});

test('two heavy documents at once, one outdated mid-way: the small one is answered first, the outdated work is dropped, the other completes', async () => {
  const s = await startServer({}, { maxApplications: 10000 }, { env: { APPSET_DEBUG: 'steps:0' } });
  servers.push(s);
  await s.open('small.yaml', SMALL);
  const open = (rel: string, text: string) =>
    s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: s.uriOf(rel), languageId: 'yaml', version: 1, text },
    });
  // One queue holds both: a matrix of 10,000 Applications and a 6,000-line list of 3,000.
  const aDiags = s.diagnostics('a.yaml', 1);
  const bDiags = s.diagnostics('b.yaml', 2);
  await open('a.yaml', MATRIX(100, 100, 'a'));
  await open('b.yaml', LONG(6000));
  const aPreview = s.conn.sendRequest(Requests.preview, { uri: s.uriOf('a.yaml') });
  const bPreview = s.conn.sendRequest(Requests.preview, { uri: s.uriOf('b.yaml') });
  const hover = s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('small.yaml') },
    position: { line: 4, character: 4 },
  });
  // b changes while its version 1 is being worked on: version 1's preview is dropped (or, on a starved
  // machine, already answered), version 2 is what gets published.
  await s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: s.uriOf('b.yaml'), version: 2 },
    contentChanges: [{ text: LONG(6002) }],
  });
  const order = await settleOrder({ aPreview, bPreview, hover, aDiags });
  const b1 = await bPreview.then(
    (p) => (p as { apps: number } | null)?.apps,
    (e: unknown) => (e instanceof ResponseError && e.code === LSPErrorCodes.ContentModified ? 'modified' : e),
  );
  assert.ok(b1 === 'modified' || b1 === 3000, `b's first preview: ${String(b1)}`);
  // The outdated preview's refusal is no work: it may go out as soon as the change is read, before the
  // hover (seen on a loaded machine); every answer that needed the heavy work comes after the hover.
  const answered = order.filter((k) => !(k === 'bPreview' && b1 === 'modified'));
  assert.equal(answered[0], 'hover', `answered in this order: ${order} (b's first preview: ${String(b1)})`);
  assert.ok(await hover, 'the hover has an answer');
  assert.equal(((await aPreview) as { apps: number } | null)?.apps, 10000);
  await bDiags;
  assert.equal(s.published('b.yaml').at(-1)?.version, 2);
  assert.equal(((await s.conn.sendRequest(Requests.preview, { uri: s.uriOf('b.yaml') })) as { apps: number } | null)?.apps, 3001);
  // APPSET_DEBUG=steps:0 names every step of the work on stderr (README: responsiveness).
  for (const name of ['analysis step', 'expansion step', 'findings step', 'preview step', 'hover'])
    assert.match(s.stderr(), new RegExp(`\\[steps \\+\\d+ ms\\] ${name}: wall [\\d.]+ ms, cpu [\\d.]+ ms`), name);
  assert.equal(s.proc.exitCode, null, s.stderr());
});

test('a long session: opening, editing and closing 150 documents leaves the heap flat', async (t) => {
  const s = await startServer({}, {}, { env: { APPSET_TOOLS_TEST_REQUESTS: '1' } });
  servers.push(s);
  const heap = async () => ((await s.conn.sendRequest('appsetTools/test/memory')) as { heapUsed: number }).heapUsed;
  // Each document distinct (no cache hit helps), ~90 KB with 60 Applications.
  const doc = (i: number, v: number) =>
    MATRIX(6, 10, `doc-${i}-${v}`) + `# ${'x'.repeat(60)}\n`.repeat(1200).replace(/^/, `# padding of ${i}.${v}\n`);
  const session = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const rel = `d${i}.yaml`;
      await s.open(rel, doc(i, 1));
      await s.change(rel, doc(i, 2));
      await s.close(rel);
    }
  };
  await session(0, 10);
  const base = await heap();
  await session(10, 160);
  const end = await heap();
  const grown = (end - base) / (1024 * 1024);
  t.diagnostic(`heap ${(base / 2 ** 20).toFixed(1)} MiB after 10 documents, ${(end / 2 ** 20).toFixed(1)} MiB after 160`);
  assert.ok(grown < 20, `the heap grew by ${grown.toFixed(1)} MiB over 150 documents (from ${(base / 2 ** 20).toFixed(1)} MiB)`);
});

test('after a burst of keystrokes, an idle server gives the garbage back (its heap is what is alive, not what was allocated)', async (t) => {
  const s = await startServer({}, {}, { env: { APPSET_TOOLS_TEST_REQUESTS: '1' } });
  servers.push(s);
  const heap = async (collect: boolean) =>
    ((await s.conn.sendRequest('appsetTools/test/memory', { collect })) as { heapUsed: number }).heapUsed / 2 ** 20;
  const doc = (v: number) => MATRIX(6, 10, `burst-${v}`) + `# ${'x'.repeat(60)}\n`.repeat(1200);
  await s.open('burst.yaml', doc(0));
  const alive = await heap(true);
  // Each keystroke's parse, expansion and findings become garbage with the next one.
  for (let v = 1; v <= 80; v++) await s.change('burst.yaml', doc(v));
  const busy = await heap(false);
  // Idle: the heap comes back to what is alive (the same document, and the caches of the last versions'
  // expansions) plus less than the growth that triggers a collection (idleMemory.ts GROWTH_BYTES,
  // 8 MiB): within 16 MiB of the document alone. Polled without collecting; hang guard 60 s.
  let idle = busy;
  for (let i = 0; i < 120 && idle - alive >= 16; i++) {
    await new Promise((r) => setTimeout(r, 500));
    idle = await heap(false);
  }
  t.diagnostic(`heap: ${alive.toFixed(1)} MiB alive, ${busy.toFixed(1)} MiB after the burst, ${idle.toFixed(1)} MiB once idle`);
  assert.ok(idle - alive < 16, `an idle server holds ${(idle - alive).toFixed(1)} MiB more than is alive`);
});

test('what the workspace scan leaves out is said once, not on every run', { skip: process.platform === 'win32' }, async () => {
  const s = await startServer({ 'apps/one.yaml': SMALL });
  servers.push(s);
  // A FIFO named like a YAML file: the scan skips it (reading would block) and says so.
  // (Made after the server started; new settings make it scan the workspace again.)
  execFileSync('mkfifo', [join(s.workspace, 'apps', 'pipe.yaml')]);
  await s.setSettings({ maxApplications: 400 });
  await s.open('apps/one.yaml', SMALL);
  const said = () => s.messages.filter((m) => /pipe\.yaml was not read: it is not a regular file/.test(m.message));
  for (let i = 0; i < 600 && !said().length; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(said().length, 1, `messages: ${JSON.stringify(s.messages)}`);
  assert.equal(said()[0].type, 2, 'a warning');
  // More runs (edits, new settings rescanning the workspace) do not repeat it.
  await s.change('apps/one.yaml', SMALL.replace('small', 'small2'));
  await s.setSettings({ maxApplications: 500 });
  await s.change('apps/one.yaml', SMALL);
  await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: s.uriOf('apps/one.yaml') }, position: { line: 4, character: 4 } });
  assert.equal(said().length, 1, `messages: ${JSON.stringify(s.messages)}`);
});
