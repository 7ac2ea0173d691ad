/**
 * `appsetTools.openLocation` (the "Enabled by …" lens) asks the editor to open the file through
 * `window/showDocument` only when the editor says it can (LSP 3.16 `window.showDocument.support`);
 * an editor without it (Neovim 0.7 ignores the request) is told where to look in a message instead.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';
import { cmdParamsCm } from '../helpers/clusters';
import { until } from '../helpers/guard';

const servers: TestServer[] = [];
after(async () => Promise.all(servers.map((s) => s.shutdown())));

async function openLocation(capabilities: Record<string, unknown>) {
  const s = await startServer({ 'argocd/argocd-cmd-params-cm.yaml': cmdParamsCm('true') }, {}, { capabilities });
  servers.push(s);
  const shown: string[] = [];
  s.conn.onRequest('window/showDocument', (p: { uri: string }) => {
    shown.push(p.uri);
    return { success: true };
  });
  const file = `${s.workspace}/argocd/argocd-cmd-params-cm.yaml`;
  const offset = cmdParamsCm('true').indexOf('applicationsetcontroller');
  const uri = await s.conn.sendRequest(ExecuteCommandRequest.type, { command: 'appsetTools.openLocation', arguments: [file, offset] });
  assert.equal(uri, s.uriOf('argocd/argocd-cmd-params-cm.yaml'));
  return { s, shown, file };
}

test('an editor that opens documents gets window/showDocument', async () => {
  const { shown, s } = await openLocation({ workspace: { configuration: true }, window: { showDocument: { support: true } } });
  await until(
    () => shown.length,
    (n) => n === 1,
    () => 'window/showDocument was sent',
  );
  assert.equal(shown[0], s.uriOf('argocd/argocd-cmd-params-cm.yaml'));
});

test('an editor without showDocument (Neovim 0.7) is told the place in a message, and asked nothing', async () => {
  const { shown, s, file } = await openLocation({ workspace: { configuration: true } });
  const msg = await until(
    () => s.messages.find((m) => m.message.startsWith('Open ')),
    (m) => !!m,
    () => `a message naming the place; messages: ${JSON.stringify(s.messages)}`,
  );
  assert.equal(msg?.message, `Open ${file}:6`);
  assert.deepEqual(shown, [], 'no window/showDocument request');
});
