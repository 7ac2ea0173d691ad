/**
 * What the transport reads before the connection handles it (server/src/lsp/received.ts): the newest
 * version of each document, and consecutive didChange of one document joined into one, in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { joiningChanges, ReceivedVersions } from '../../server/src/lsp/received';

const change = (uri: string, version: number, text: string, at = 0) =>
  ({
    jsonrpc: '2.0',
    method: 'textDocument/didChange',
    params: {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line: 0, character: at }, end: { line: 0, character: at } }, text }],
    },
  }) as Message;

test('a newer version read supersedes the one being worked on; a close forgets it', () => {
  const r = new ReceivedVersions();
  r.note({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'a', version: 1, text: '' } } } as Message);
  assert.equal(r.superseded('a', 1), false);
  r.note(change('a', 2, 'x'));
  assert.equal(r.superseded('a', 1), true);
  assert.equal(r.superseded('a', 2), false);
  assert.equal(r.superseded('b', 1), false, 'another document');
  // An empty change is ignored by the documents: it supersedes nothing (its version would never arrive).
  r.note({
    jsonrpc: '2.0',
    method: 'textDocument/didChange',
    params: { textDocument: { uri: 'a', version: 3 }, contentChanges: [] },
  } as Message);
  assert.equal(r.superseded('a', 2), false);
  r.note({ jsonrpc: '2.0', method: 'textDocument/didClose', params: { textDocument: { uri: 'a' } } } as Message);
  assert.equal(r.superseded('a', 1), false);
});

test('consecutive changes of one document read together become one message with every change in order', async () => {
  const out: Message[] = [];
  const pass = joiningChanges((m) => out.push(m));
  const hover = { jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: {} } as Message;
  pass(change('a', 2, 'a'));
  pass(change('a', 3, 'b', 1));
  pass(change('a', 4, 'c', 2));
  pass(change('b', 2, 'z'));
  pass(hover);
  pass(change('a', 5, 'd', 3));
  assert.equal(out.length, 3, 'the last change is held until the chunk ends');
  await Promise.resolve();
  assert.deepEqual(
    out.map((m) => ('method' in m ? m.method : '')),
    ['textDocument/didChange', 'textDocument/didChange', 'textDocument/hover', 'textDocument/didChange'],
  );
  const joined = out[0] as unknown as {
    params: { textDocument: { version: number }; contentChanges: Parameters<typeof TextDocument.update>[1] };
  };
  assert.equal(joined.params.textDocument.version, 4);
  assert.equal(TextDocument.update(TextDocument.create('a', 'yaml', 1, ''), joined.params.contentChanges, 4).getText(), 'abc');
  assert.equal((out[3] as unknown as { params: { textDocument: { version: number } } }).params.textDocument.version, 5);
});
