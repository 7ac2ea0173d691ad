/**
 * Just enough ASN.1 DER to build and read X.509 certificates and the private-key formats sprig's
 * crypto functions print (ITU-T X.690). Node's crypto signs and parses keys; it cannot build a
 * certificate, which is what this fills in.
 */
import { utf8Bytes } from '../values';

export type Der = Buffer;

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, body: Buffer): Der {
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const seq = (...items: Der[]): Der => tlv(0x30, Buffer.concat(items));
export const set = (...items: Der[]): Der => tlv(0x31, Buffer.concat(items));
export const octets = (b: Buffer): Der => tlv(0x04, b);
export const bool = (v: boolean): Der => tlv(0x01, Buffer.from([v ? 0xff : 0]));
export const nul = (): Der => Buffer.from([0x05, 0x00]);
/** [n] EXPLICIT */
export const explicit = (n: number, inner: Der): Der => tlv(0xa0 | n, inner);

/** INTEGER from an unsigned big-endian magnitude or a bigint (two's complement, minimal). */
export function int(v: bigint | Buffer): Der {
  let b: Buffer;
  if (Buffer.isBuffer(v)) {
    let i = 0;
    while (i < v.length - 1 && v[i] === 0) i++;
    b = v.subarray(i);
    if (b.length === 0) b = Buffer.from([0]);
    if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  } else {
    if (v < 0n) throw new Error('negative INTEGER not supported');
    let hex = v.toString(16);
    if (hex.length % 2) hex = '0' + hex;
    b = Buffer.from(hex, 'hex');
    if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  }
  return tlv(0x02, b);
}

export function oid(dotted: string): Der {
  const parts = dotted.split('.').map(Number);
  const out = [parts[0] * 40 + parts[1]];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** BIT STRING with `unused` trailing bits in the last byte. */
export const bits = (b: Buffer, unused = 0): Der => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));

/** A string the way Go's asn1 marshals pkix names: PrintableString when it can, else UTF8String. */
export function dirString(s: string): Der {
  const printable = /^[A-Za-z0-9 '()+,\-./:=?*&]*$/.test(s);
  return tlv(printable ? 0x13 : 0x0c, utf8Bytes(s));
}

/** UTCTime up to 2049, GeneralizedTime from 2050, as RFC 5280 asks (and Go does). */
export function time(ms: number): Der {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z';
  const year = d.getUTCFullYear();
  if (year >= 1950 && year < 2050) return tlv(0x17, Buffer.from(digits.slice(2), 'ascii'));
  return tlv(0x18, Buffer.from(digits, 'ascii'));
}

export interface Node {
  tag: number;
  /** The whole element, header included. */
  raw: Buffer;
  body: Buffer;
}

/** Reads one element at `offset`; throws on truncated or indefinite-length input. */
export function read(buf: Buffer, offset = 0): Node & { end: number } {
  if (offset + 2 > buf.length) throw new Error('asn1: truncated element');
  const tag = buf[offset];
  if ((tag & 0x1f) === 0x1f) throw new Error('asn1: high-tag-number form not supported');
  let len = buf[offset + 1];
  let p = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || p + n > buf.length) throw new Error('asn1: invalid length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p + i];
    p += n;
  }
  if (p + len > buf.length) throw new Error('asn1: truncated element');
  return { tag, raw: buf.subarray(offset, p + len), body: buf.subarray(p, p + len), end: p + len };
}

/** The elements inside a constructed element. */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let p = 0; p < node.body.length;) {
    const c = read(node.body, p);
    out.push(c);
    p = c.end;
  }
  return out;
}

/** Unsigned value of an INTEGER body. */
export function intValue(node: Node): bigint {
  return node.body.length ? BigInt('0x' + node.body.toString('hex')) : 0n;
}

export function pem(type: string, der: Buffer): string {
  const b64 = der.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `-----BEGIN ${type}-----\n${lines.join('\n')}${lines.length ? '\n' : ''}-----END ${type}-----\n`;
}

/** encoding/pem.Decode's first block: its type and bytes, or undefined when there is none. */
export function pemDecode(text: string): { type: string; bytes: Buffer } | undefined {
  const missing = new Set<string>(); // types whose END line does not occur: no later BEGIN can match
  for (let at = text.indexOf('-----BEGIN '); at >= 0; at = text.indexOf('-----BEGIN ', at + 1)) {
    const typeEnd = text.indexOf('-----', at + 11);
    if (typeEnd < 0) return undefined;
    const type = text.slice(at + 11, typeEnd);
    if (type.includes('\n') || missing.has(type)) continue;
    let bodyStart = typeEnd + 5;
    if (text[bodyStart] === '\r') bodyStart++;
    if (text[bodyStart] !== '\n') continue;
    const end = text.indexOf(`-----END ${type}-----`, bodyStart);
    if (end < 0) {
      missing.add(type);
      continue;
    }
    const body = text
      .slice(bodyStart + 1, end)
      .split(/\r?\n/)
      .filter((l) => !/^[\w-]+:/.test(l))
      .join('');
    if (!/^[A-Za-z0-9+/=\s]*$/.test(body)) continue;
    return { type, bytes: Buffer.from(body, 'base64') };
  }
  return undefined;
}
