/**
 * Issue 38: while one document takes thousands of edits a second, requests about another document are
 * answered between them. Raw frames to the built server's stdin (as an editor's burst arrives: many
 * didChange in one read), with `debounceMs: 0` (every edit validated at once, the worst case). What is
 * asserted does not depend on the machine's speed: how much sliced work the server started for versions
 * that were already superseded (the step log, APPSET_DEBUG=steps:0), that the burst's changes were all
 * applied, in order, and that the hover read after the burst is answered; the wall time only with a wide margin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnRawStdioServer } from './client';
import { appsetHead, flowTemplate, LOCAL } from '../helpers/appsets';

const APPSET = (n: number, name: string) => `${appsetHead(name, { namespace: null })}  generators:
    - list:
        elements:
${Array.from({ length: n }, (_, i) => `          - n: "${i}"\n            ns: team-${i % 7}`).join('\n')}
${flowTemplate("'app-{{ .n }}'", "repoURL: https://example.com/r.git, targetRevision: main, path: 'apps/{{ .n }}'", `${LOCAL}, namespace: '{{ .ns }}'`)}`;

interface Wire {
  request(method: string, params: object): Promise<{ result?: unknown; error?: unknown }>;
  write(frames: string): void;
  diagnostics(uri: string): { version?: number; diagnostics: { code?: unknown }[] }[];
  /** stderr lines so far. */
  steps(): string[];
  stop(): void;
}

const frame = (m: object) => {
  const s = JSON.stringify({ jsonrpc: '2.0', ...m });
  return `Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`;
};

function startRaw(): Wire {
  const p = spawnRawStdioServer({ APPSET_DEBUG: 'steps:0' });
  let err = '';
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let id = 0;
  const pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  const published = new Map<string, { version?: number; diagnostics: { code?: unknown }[] }[]>();
  let buf = Buffer.alloc(0);
  p.stdout.on('data', (c: Buffer) => {
    buf = Buffer.concat([buf, c]);
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, end).toString())![1]);
      if (buf.length < end + 4 + len) return;
      const m = JSON.parse(buf.subarray(end + 4, end + 4 + len).toString());
      buf = buf.subarray(end + 4 + len);
      if (m.id !== undefined && m.method)
        p.stdin.write(frame({ id: m.id, result: m.method === 'workspace/configuration' ? [{ validate: { debounceMs: 0 } }] : null }));
      else if (m.id !== undefined) pending.get(m.id)?.(m);
      else if (m.method === 'textDocument/publishDiagnostics') {
        const list = published.get(m.params.uri) ?? [];
        list.push(m.params);
        published.set(m.params.uri, list);
      }
    }
  });
  return {
    request(method, params) {
      return new Promise((resolve) => {
        const i = ++id;
        pending.set(i, resolve);
        p.stdin.write(frame({ id: i, method, params }));
      });
    },
    write: (frames) => p.stdin.write(frames),
    diagnostics: (uri) => published.get(uri) ?? [],
    steps: () => err.split('\n').filter((l) => l.startsWith('[steps')),
    stop: () => p.kill(),
  };
}

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Sliced work of the edited document's findings (state.ts `slices`: analysis, expansion, findings). */
const workSteps = (lines: string[]) => lines.filter((l) => /\] (analysis|expansion|findings|early findings) step/.test(l)).length;

test('a burst of edits to one document runs its findings once, and a hover on another is answered between', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appset-flood-'));
  const w = startRaw();
  try {
    const root = pathToFileURL(dir).href;
    const a = `${root}/a.yaml`;
    const b = `${root}/b.yaml`;
    const ta = APPSET(400, 'many');
    const tb = APPSET(3, 'other');
    writeFileSync(join(dir, 'a.yaml'), ta);
    writeFileSync(join(dir, 'b.yaml'), tb);
    await w.request('initialize', {
      processId: null,
      rootUri: root,
      capabilities: {},
      workspaceFolders: [{ uri: root, name: 'ws' }],
      initializationOptions: { settings: { validate: { debounceMs: 0 } } },
    });
    w.write(frame({ method: 'initialized', params: {} }));
    w.write(frame({ method: 'textDocument/didOpen', params: { textDocument: { uri: a, languageId: 'yaml', version: 1, text: ta } } }));
    w.write(frame({ method: 'textDocument/didOpen', params: { textDocument: { uri: b, languageId: 'yaml', version: 1, text: tb } } }));
    await until('first diagnostics', () => w.diagnostics(a).length > 0 && w.diagnostics(b).length > 0);
    const hover = { textDocument: { uri: b }, position: { line: 5, character: 4 } };
    assert.ok((await w.request('textDocument/hover', hover)).result, 'b.yaml answers a hover');

    // One edit: the sliced work one version of a.yaml takes.
    const last = ta.split('\n').length - 1;
    const insert = (version: number, line: number, character: number, text: string) =>
      frame({
        method: 'textDocument/didChange',
        params: {
          textDocument: { uri: a, version },
          contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text }],
        },
      });
    let before = w.steps().length;
    w.write(insert(2, last, 0, '\n'));
    await until('the one edit validated', () => w.diagnostics(a).some((d) => d.version === 2));
    await new Promise((r) => setTimeout(r, 200));
    const one = workSteps(w.steps().slice(before));
    assert.ok(one > 0, 'the step log counts the sliced work');

    // A burst: 400 edits typing `bogus: 1` (and spaces) at the end, in one write, then a hover on b.yaml.
    const typed = `  bogus: 1${' '.repeat(390)}`;
    let frames = '';
    for (let k = 0; k < typed.length; k++) frames += insert(3 + k, last + 1, k, typed[k]);
    const version = 2 + typed.length;
    before = w.steps().length;
    const t0 = Date.now();
    w.write(frames);
    const answered = await w.request('textDocument/hover', hover);
    const waited = Date.now() - t0;
    assert.ok(answered.result, 'the hover read after the burst is answered');
    await until('the burst validated', () => w.diagnostics(a).some((d) => d.version === version));
    await new Promise((r) => setTimeout(r, 200));
    const burst = workSteps(w.steps().slice(before));
    // Every change applied, in order: the typed key is found at the last version.
    const final = w.diagnostics(a).find((d) => d.version === version)!;
    assert.ok(
      final.diagnostics.some((d) => d.code === 'appset/unknown-field'),
      `the typed "bogus" is seen: ${JSON.stringify(final.diagnostics.map((d) => d.code))}`,
    );
    // Before issue 38's fix, each of the 400 edits started its findings with an inline slice (hundreds of
    // steps for versions nobody saw). Now the superseded versions start nothing: the burst costs about what
    // one edit costs (a read split across a few chunks may start a run or two that is dropped at its first pause).
    assert.ok(burst <= 3 * one + 10, `the burst ran ${burst} steps of sliced work; one edit runs ${one}`);
    assert.ok(waited < 20_000, `the hover waited ${waited} ms (a hang guard: the step counts above are the measure)`);
  } finally {
    w.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
