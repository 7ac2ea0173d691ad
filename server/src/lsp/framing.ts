/**
 * A guard in front of the stdio message reader. vscode-jsonrpc's stream reader, given a header whose
 * `Content-Length` is missing or not a number, reports an error and keeps the bad header at the front
 * of its buffer, so it never reads another message: one `Content-Length: abc` wedged the server for
 * good. This guard passes well-framed messages through byte for byte, drops a message whose header is
 * bad (said once on stderr) and reads on from the next `Content-Length:` header (LSP 3.17, "Base
 * Protocol": a header part of `\r\n`-terminated fields, then an empty line, then the content). A length
 * over `MAX_CONTENT_BYTES` is a bad header too: the content that follows is skipped, never held.
 */
import { Transform, type TransformCallback } from 'node:stream';

const SEPARATOR = Buffer.from('\r\n\r\n');
const HEADER = Buffer.from('content-length:');
/** A header part longer than this is no header: skipped to the next `Content-Length:`. */
const MAX_HEADER_BYTES = 64 * 1024;
/**
 * The largest message content read. The largest real message is a document the engine still reads (2 MB of
 * characters, docs/limits.md) sent whole, which JSON escaping can at most multiply by six (`\u0001`); a
 * `Content-Length: 2147483647` made the guard wait for 2 GB that never came, reading every later message as
 * its content. Past this, the message is dropped and reading goes on from the next header.
 */
export const MAX_CONTENT_BYTES = 64 * 1024 * 1024;

/** Finds `needle` in `hay` from `from`, ignoring ASCII case (`needle` is lower case). */
function indexOfHeader(hay: Buffer, from: number): number {
  for (let i = from; i + HEADER.length <= hay.length; i++) {
    let ok = true;
    for (let k = 0; k < HEADER.length && ok; k++) ok = (hay[i + k] | 0x20) === HEADER[k];
    if (ok) return i;
  }
  return -1;
}

export class FramingGuard extends Transform {
  private buf: Buffer = Buffer.alloc(0);
  /** After a bad header: bytes are skipped until the next `Content-Length:`. */
  private resync = false;

  constructor(private readonly say: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (this.resync) {
        const at = indexOfHeader(this.buf, 0);
        if (at < 0) {
          // Keep a tail that may be the start of the next header.
          this.buf = this.buf.subarray(Math.max(0, this.buf.length - HEADER.length));
          break;
        }
        this.buf = this.buf.subarray(at);
        this.resync = false;
      }
      const end = this.buf.indexOf(SEPARATOR);
      if (end > MAX_HEADER_BYTES || (end < 0 && this.buf.length > MAX_HEADER_BYTES)) {
        this.bad('a header part longer than 64 KiB');
        continue;
      }
      if (end < 0) break;
      const header = this.buf.subarray(0, end).toString('ascii');
      let length: number | undefined;
      let problem: string | undefined;
      for (const line of header.split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon < 0) {
          problem = `a header line without ":" (${JSON.stringify(line.slice(0, 40))})`;
          break;
        }
        if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
        const value = line.slice(colon + 1).trim();
        if (!/^\d{1,10}$/.test(value)) {
          problem = `Content-Length ${JSON.stringify(value.slice(0, 40))} is not a number`;
          break;
        }
        length = Number(value);
        if (length > MAX_CONTENT_BYTES) {
          problem = `Content-Length ${value} is over the 64 MiB limit`;
          break;
        }
      }
      if (!problem && length === undefined) problem = 'no Content-Length';
      if (problem) {
        this.bad(problem);
        continue;
      }
      const total = end + SEPARATOR.length + length!;
      if (this.buf.length < total) break;
      this.push(this.buf.subarray(0, total));
      this.buf = this.buf.subarray(total);
    }
    done();
  }

  /** Drops the bad header and reads on from the next `Content-Length:`. */
  private bad(problem: string): void {
    this.say(`ApplicationSet Tools: dropped an incoming message with a bad header (${problem}); reading on from the next header`);
    this.buf = this.buf.subarray(1);
    this.resync = true;
  }
}
