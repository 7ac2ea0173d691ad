/**
 * The other transport: VS Code's client starts the server with `--node-ipc` (a forked process,
 * messages over Node's IPC channel). Same bundle, same answers as over stdio.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  ExitNotification,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { initializeParams, serverPath } from './client';

test('over --node-ipc the server initializes, validates and shuts down cleanly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appset-ipc-'));
  const proc = fork(serverPath, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const conn = createProtocolConnection(new IPCMessageReader(proc), new IPCMessageWriter(proc));
  try {
    const published = new Promise<PublishDiagnosticsParams>((res) => conn.onNotification(PublishDiagnosticsNotification.type, res));
    conn.listen();
    const root = pathToFileURL(dir).toString();
    const init = await conn.sendRequest(InitializeRequest.type, initializeParams(dir));
    assert.equal(init.serverInfo?.name, 'appset-tools');
    assert.ok(init.capabilities.hoverProvider && init.capabilities.codeLensProvider && init.capabilities.codeActionProvider);
    await conn.sendNotification(InitializedNotification.type, {});
    const uri = `${root}/a.yaml`;
    const text =
      'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: a}\nspec:\n  generators: [{list: {elements: []}}]\n  template: {metadata: {name: x}, spec: {project: default, destination: {}}}\n  bogus: true\n';
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const p = await published;
    assert.equal(p.uri, uri);
    const bogus = p.diagnostics.find((d) => d.code === 'appset/unknown-field');
    assert.ok(bogus, JSON.stringify(p.diagnostics));
    assert.equal(bogus.range.start.line, 6);
    await conn.sendRequest(ShutdownRequest.type);
    const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
    await conn.sendNotification(ExitNotification.type);
    assert.equal(await exited, 0, 'exit after shutdown is a clean exit');
  } finally {
    conn.dispose();
    proc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
