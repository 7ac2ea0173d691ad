/**
 * The stdio framing guard (lsp/framing.ts): well-framed messages pass byte for byte however the
 * input is chunked; a message with a bad header (`Content-Length: abc`, none at all, a line without
 * `:`, a header part that never ends) is dropped, said, and reading goes on from the next header.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FramingGuard } from '../../server/src/lsp/framing';
import { seededRandom } from '../helpers/random';

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

function through(input: Buffer, cut: (n: number) => number[]): { out: string; said: string[] } {
  const said: string[] = [];
  const g = new FramingGuard((m) => said.push(m));
  const parts: Buffer[] = [];
  g.on('data', (d: Buffer) => parts.push(d));
  let at = 0;
  for (const n of cut(input.length)) {
    g.write(input.subarray(at, at + n));
    at += n;
  }
  g.write(input.subarray(at));
  return { out: Buffer.concat(parts).toString('utf8'), said };
}

test('good messages pass unchanged whatever the chunking; bad headers are dropped and said, reading goes on', () => {
  const good = [
    frame('{"jsonrpc":"2.0","id":1,"method":"initialize"}'),
    frame('{"x":"é ✓"}'),
    `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n${frame('{}')}`,
  ];
  const bad = [
    'Content-Length: abc\r\n\r\n{"jsonrpc":"2.0"}',
    'Content-Type: x\r\n\r\n{}',
    'garbage line\r\n\r\n',
    'Content-Length: -5\r\n\r\nxx',
  ];
  const input = Buffer.from([good[0], good[2], bad[0], good[1], bad[1], bad[2], good[1], bad[3], good[0]].join(''));
  const want = [good[0], good[2], good[1], good[1], good[0]].join('');
  const r = seededRandom(31);
  for (let run = 0; run < 200; run++) {
    const got = through(input, (n) =>
      run === 0 ? [] : Array.from({ length: 1 + Math.floor(r() * 20) }, () => Math.floor(r() * (n / 10))),
    );
    assert.equal(got.out, want, `run ${run}`);
    assert.equal(got.said.length, 3, got.said.join('\n'));
  }
  const one = through(Buffer.from('Content-Length: abc\r\n\r\n{}' + good[0]), () => []);
  assert.match(one.said[0], /bad header \(Content-Length "abc" is not a number\); reading on from the next header/);
});

test('a header part longer than 64 KiB is dropped', () => {
  const junk = 'x'.repeat(70 * 1024);
  const r = through(Buffer.from(junk + frame('{}')), () => [1000, 30000]);
  assert.equal(r.out, frame('{}'));
  assert.match(r.said[0], /a header part longer than 64 KiB/);
});

test('issue 38: a Content-Length over the cap is dropped and said; the content after it is skipped, not held, and reading goes on', () => {
  const huge = 'Content-Length: 2147483647\r\n\r\n{"jsonrpc":"2.0","id":7,"method":"shutdown"}' + 'y'.repeat(200_000);
  const r = through(Buffer.from(huge + frame('{"ok":1}') + frame('{"ok":2}')), () => [10, 5000, 70000]);
  assert.equal(r.out, frame('{"ok":1}') + frame('{"ok":2}'));
  assert.equal(r.said.length, 1, r.said.join('\n'));
  assert.match(r.said[0], /Content-Length 2147483647 is over the 64 MiB limit/);
  // At the cap itself the message is waited for, as any other.
  const at = through(Buffer.from(`Content-Length: ${64 * 1024 * 1024}\r\n\r\n{}`), () => []);
  assert.deepEqual(at.said, []);
});
