// A frame with a bad Content-Length (`Content-Length: abc`) costs that one message, never the
// connection: the library's stream reader, fed through lsp/framing.ts, still reads every later one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { StreamMessageReader } from 'vscode-languageserver/node';
import { FramingGuard } from '../../server/src/lsp/framing';

const frame = (body: string, header = `Content-Length: ${Buffer.byteLength(body)}`) => `${header}\r\n\r\n${body}`;
const msg = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'shutdown' });

async function read(chunks: string[], guarded: boolean): Promise<{ ids: unknown[]; warnings: string[] }> {
  const input = new PassThrough();
  const warnings: string[] = [];
  const reader = new StreamMessageReader(guarded ? input.pipe(new FramingGuard((m) => warnings.push(m))) : input);
  const ids: unknown[] = [];
  reader.listen((m) => ids.push((m as { id?: unknown }).id));
  reader.onError(() => undefined);
  // Byte by byte for the first chunk (framing split anywhere), whole for the rest.
  for (const [i, c] of chunks.entries()) {
    if (i === 0) for (const ch of Buffer.from(c)) input.write(Buffer.from([ch]));
    else input.write(c);
    await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setTimeout(r, 20));
  return { ids, warnings };
}

test('Content-Length: abc, a missing Content-Length, a negative one: dropped and said; the next messages are read', async () => {
  const chunks = [
    frame(msg(1)),
    frame('{"x":1}', 'Content-Length: abc'),
    frame(msg(2)),
    frame('{}', 'Content-Type: application/json'),
    frame(msg(3)),
    frame('{}', 'Content-Length: -5'),
    frame(msg(4)) + frame(msg(5)),
  ];
  const guarded = await read(chunks, true);
  assert.deepEqual(guarded.ids, [1, 2, 3, 4, 5]);
  assert.equal(guarded.warnings.length, 3);
  assert.match(guarded.warnings[0], /no valid Content-Length: "Content-Length: abc"/);
  // Without the guard, the library's reader stops at the bad frame (the wedge this fixes).
  const raw = await read(chunks, false);
  assert.deepEqual(raw.ids, [1]);
});
