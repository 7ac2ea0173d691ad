/**
 * The LSP base protocol's framing (`Content-Length: N\r\n…\r\n\r\n` then N bytes), checked before the
 * library's stream reader sees it. vscode-jsonrpc's reader keeps a header block whose Content-Length
 * is missing or not a number (`Content-Length: abc`) in its buffer and reports an error on every later
 * chunk: every message after it is lost, `shutdown` included. Here such a header block is dropped
 * (and said on stderr) and reading goes on at the next header, so one bad frame costs one message.
 */
import { Transform, type TransformCallback } from 'node:stream';

const HEADER_END = Buffer.from('\r\n\r\n');
/** A header block longer than this without its blank line is not a header: dropped. */
const MAX_HEADER = 64 * 1024;

export class FramingGuard extends Transform {
  private buf: Buffer = Buffer.alloc(0);
  /** Body bytes still to pass through for the current message. */
  private body = 0;

  constructor(private readonly warn: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (this.body > 0) {
        if (!this.buf.length) break;
        const n = Math.min(this.body, this.buf.length);
        this.push(this.buf.subarray(0, n));
        this.buf = this.buf.subarray(n);
        this.body -= n;
        continue;
      }
      const end = this.buf.indexOf(HEADER_END);
      if (end < 0) {
        if (this.buf.length > MAX_HEADER) {
          this.warn(`dropped ${this.buf.length} bytes that are no LSP header`);
          this.buf = Buffer.alloc(0);
        }
        break;
      }
      const header = this.buf.subarray(0, end).toString('ascii');
      const m = /(?:^|\r\n)content-length:[ \t]*(\d+)[ \t]*(?:\r\n|$)/i.exec(header);
      const length = m ? Number(m[1]) : NaN;
      if (!Number.isSafeInteger(length)) {
        // No usable Content-Length: the message's size is unknown, so its header is dropped and the
        // next `Content-Length:` header starts the next message.
        this.warn(`dropped a message whose header has no valid Content-Length: ${JSON.stringify(header.slice(0, 200))}`);
        const next = this.buf.indexOf('Content-Length:', end + HEADER_END.length);
        this.buf = next < 0 ? Buffer.alloc(0) : this.buf.subarray(next);
        continue;
      }
      this.push(this.buf.subarray(0, end + HEADER_END.length));
      this.buf = this.buf.subarray(end + HEADER_END.length);
      this.body = length;
    }
    done();
  }
}
