/**
 * Workspace folders added while the server runs (workspace/didChangeWorkspaceFolders) are read by a
 * client that says it sends them; a client that does not say so starts the server without a failure
 * (vscode-languageserver throws when asked to follow folder changes the client never sends: logged
 * with its stack at every start, 9 ms before the first document was read, issue 39).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DidChangeWorkspaceFoldersNotification,
  DidOpenTextDocumentNotification,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
} from 'vscode-languageserver-protocol/node';
import { initializeParams, spawnStdioServer, stopStdio } from './client';
import { clusterSecret } from '../helpers/clusters';
import { appsetHead, flowTemplate } from '../helpers/appsets';

const APPSET = `${appsetHead('fleet', { namespace: null })}  generators:
    - clusters: {}
${flowTemplate("'guestbook-{{ .name }}'", 'repoURL: https://example.com/gb.git, targetRevision: main, path: guestbook', "server: '{{ .server }}', namespace: guestbook")}`;

async function session(capabilities: Record<string, unknown>) {
  const a = mkdtempSync(join(tmpdir(), 'appset-folders-a-'));
  const b = mkdtempSync(join(tmpdir(), 'appset-folders-b-'));
  writeFileSync(join(a, 'fleet.yaml'), APPSET);
  mkdirSync(join(b, 'clusters'));
  writeFileSync(join(b, 'clusters', 'c1.yaml'), clusterSecret({ name: 'c1', secretName: 'c1' }));
  const { proc, conn } = spawnStdioServer();
  const logged: string[] = [];
  conn.onNotification('window/logMessage', (p: { message: string }) => void logged.push(p.message));
  let published = 0;
  conn.onNotification(PublishDiagnosticsNotification.type, () => void published++);
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({ validate: { debounceMs: 0 } })));
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  await conn.sendRequest(InitializeRequest.type, initializeParams(a, capabilities));
  await conn.sendNotification(InitializedNotification.type, {});
  const uri = pathToFileURL(join(a, 'fleet.yaml')).toString();
  await conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'yaml', version: 1, text: APPSET },
  });
  for (let i = 0; i < 400 && !published; i++) await new Promise((r) => setTimeout(r, 25));
  const apps = async () => ((await conn.sendRequest('appsetTools/preview', { uri })) as { apps: number }).apps;
  return {
    conn,
    logged,
    apps,
    addB: () =>
      conn.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
        event: { added: [{ uri: pathToFileURL(b).toString(), name: 'b' }], removed: [] },
      }),
    async stop() {
      await stopStdio(conn, proc);
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    },
  };
}

test('a folder added by a client that sends folder changes is read (its cluster Secret generates one more Application)', async () => {
  const s = await session({ workspace: { configuration: true, workspaceFolders: true } });
  try {
    // The local cluster (in-cluster) alone, then with the added folder's cluster.
    assert.equal(await s.apps(), 1);
    await s.addB();
    let apps = 1;
    for (let i = 0; i < 200 && apps === 1; i++) {
      await new Promise((r) => setTimeout(r, 25));
      apps = await s.apps();
    }
    assert.equal(apps, 2, 'the added folder’s cluster Secret is read');
    assert.deepEqual(
      s.logged.filter((m) => /failed/.test(m)),
      [],
    );
  } finally {
    await s.stop();
  }
});

test('a client that does not send folder changes starts the server without a failure', async () => {
  const s = await session({ workspace: { configuration: true } });
  try {
    assert.equal(await s.apps(), 1);
    assert.deepEqual(
      s.logged.filter((m) => /failed/.test(m)),
      [],
    );
  } finally {
    await s.stop();
  }
});
