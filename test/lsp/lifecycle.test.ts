/**
 * The LSP lifecycle (LSP 3.17 "Lifecycle Messages") over stdio: nothing is answered before
 * `initialize` (ServerNotInitialized) or after `shutdown` (InvalidRequest), and `exit` after
 * `shutdown` ends the process with 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  InitializeRequest,
  InitializedNotification,
  HoverRequest,
  ShutdownRequest,
  ExitNotification,
  ResponseError,
} from 'vscode-languageserver-protocol/node';
import { initializeParams, spawnStdioServer } from './client';

async function codeOf(p: Promise<unknown>): Promise<number | 'answered'> {
  try {
    await p;
    return 'answered';
  } catch (e) {
    return e instanceof ResponseError ? e.code : -1;
  }
}

test('requests before initialize and after shutdown are refused with the codes the spec names', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appset-life-'));
  const { proc, conn } = spawnStdioServer(['--max-old-space-size=256']);
  try {
    conn.listen();
    const root = pathToFileURL(dir).toString();
    const hover = { textDocument: { uri: `${root}/a.yaml` }, position: { line: 0, character: 0 } };
    assert.equal(await codeOf(conn.sendRequest(HoverRequest.type, hover)), -32002);
    assert.equal(await codeOf(conn.sendRequest('appsetTools/preview', { uri: `${root}/a.yaml` })), -32002);
    const init = await conn.sendRequest(InitializeRequest.type, initializeParams(dir));
    assert.equal(init.serverInfo?.name, 'appset-tools');
    assert.equal(
      await codeOf(conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: root, capabilities: {} })),
      -32600,
    );
    await conn.sendNotification(InitializedNotification.type, {});
    assert.equal(await codeOf(conn.sendRequest(HoverRequest.type, hover)), 'answered');
    await conn.sendRequest(ShutdownRequest.type);
    assert.equal(await codeOf(conn.sendRequest(HoverRequest.type, hover)), -32600);
    assert.equal(await codeOf(conn.sendRequest(ShutdownRequest.type)), -32600);
    const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
    await conn.sendNotification(ExitNotification.type);
    assert.equal(await exited, 0);
  } finally {
    conn.dispose();
    proc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
