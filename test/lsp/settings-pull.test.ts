/**
 * The settings pull (workspace/configuration) through the built server. VS Code announces its settings
 * right after `initialized` (and again once the server registers for changes) while the server's own pull
 * from `initialized` is unanswered: that answer already holds what was announced (one ordered stream: the
 * client answered after it sent the announcement), so the server does not pull again for it (two or three
 * pulls were in the first answer's way, issue 39). A change announced once the pull is answered is pulled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { initializeParams, spawnStdioServer, stopStdio } from './client';
import { appsetHead, flowTemplate, LOCAL } from '../helpers/appsets';

const APPSET = `${appsetHead('pulled', { namespace: null })}  generators:
    - list:
        elements:
          - n: "1"
${flowTemplate("'app-{{ .n }}'", "repoURL: https://example.com/r.git, targetRevision: main, path: 'apps/{{ .n }}'", `${LOCAL}, namespace: apps`)}  bogus: 1
`;

const until = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(done(), `timed out waiting for ${what}`);
};

test('a change announced while the pull is unanswered comes with its answer; a later change is pulled', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appset-pull-'));
  const { proc, conn } = spawnStdioServer();
  try {
    let current: Record<string, unknown> = { validate: { debounceMs: 0 } };
    let pulls = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    conn.onRequest('workspace/configuration', async (p: { items: unknown[] }) => {
      pulls++;
      // The first pull is answered only after the client has announced a change (as VS Code's may be).
      if (pulls === 1) await held;
      return p.items.map(() => current);
    });
    const published: Diagnostic[][] = [];
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => void published.push(p.diagnostics));
    conn.listen();
    await conn.sendRequest(InitializeRequest.type, {
      ...initializeParams(dir, { workspace: { configuration: true } }),
      initializationOptions: { settings: current },
    });
    await conn.sendNotification(InitializedNotification.type, {});
    await until(() => pulls === 1, 'the pull after initialized');

    current = { validate: { debounceMs: 0, enable: false } };
    await conn.sendNotification(DidChangeConfigurationNotification.type, { settings: { appsetTools: current } });
    // Messages are handled in order: once this answer is back, a pull for the announcement would have come.
    const uri = pathToFileURL(join(dir, 'pulled.yaml')).toString();
    await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.equal(pulls, 1, 'no second pull while the first is unanswered');

    release();
    await new Promise((r) => setImmediate(r));
    await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
    await conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text: APPSET },
    });
    await until(() => published.length > 0, 'the first publish');
    assert.deepEqual(published[0], [], 'the answer of the first pull (validation off) is applied');

    current = { validate: { debounceMs: 0 } };
    await conn.sendNotification(DidChangeConfigurationNotification.type, { settings: { appsetTools: current } });
    await until(() => published.some((d) => d.some((x) => x.code === 'appset/unknown-field')), 'the finding once validation is on');
    assert.equal(pulls, 2, 'a change announced after the answer is pulled');
  } finally {
    await stopStdio(conn, proc);
    rmSync(dir, { recursive: true, force: true });
  }
});
