/**
 * `node:crypto` in the web worker, for the template library's sprig functions. A browser has no
 * synchronous crypto API (WebCrypto's digests and keys are promises, and templates render
 * synchronously), so the hashes and scrypt come from @noble/hashes and random bytes from `getRandomValues`;
 * what needs keys or ciphers (genPrivateKey, genCA, the certificate generators, encryptAES,
 * decryptAES) fails with one clear error: the template's finding then says
 * the function cannot run in VS Code for the Web, and the desktop, the CLI and CI run it.
 */
import { Buffer } from 'buffer';
import { hmac } from '@noble/hashes/hmac';
import { sha1 } from '@noble/hashes/legacy';
import { scrypt } from '@noble/hashes/scrypt';
import { sha256, sha512 } from '@noble/hashes/sha2';

type Hash = (data: Uint8Array) => Uint8Array;
const HASHES: Record<string, typeof sha256 | typeof sha1 | typeof sha512> = { sha1, sha256, sha512 };

function hashOf(alg: string): typeof sha256 {
  const h = HASHES[alg.toLowerCase()] as typeof sha256 | undefined;
  if (!h) throw new Error(`the ${alg} hash is not available in VS Code for the Web`);
  return h;
}

const bytesOf = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? new TextEncoder().encode(data) : data);

class Digest {
  private readonly parts: Uint8Array[] = [];
  constructor(private readonly finish: (data: Uint8Array) => Uint8Array) {}
  update(data: string | Uint8Array): this {
    this.parts.push(bytesOf(data));
    return this;
  }
  digest(encoding?: 'hex' | 'base64'): Buffer | string {
    const out = Buffer.from(this.finish(Buffer.concat(this.parts)));
    return encoding ? out.toString(encoding) : out;
  }
}

export function createHash(alg: string): Digest {
  const h = hashOf(alg);
  return new Digest((data): ReturnType<Hash> => h(data));
}

export function createHmac(alg: string, key: string | Uint8Array): Digest {
  const h = hashOf(alg);
  return new Digest((data) => hmac(h, bytesOf(key), data));
}

export function randomBytes(n: number): Buffer {
  const out = Buffer.alloc(n);
  // getRandomValues fills at most 65,536 bytes a call.
  for (let i = 0; i < n; i += 65536) globalThis.crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

export function randomUUID(): string {
  return globalThis.crypto.randomUUID();
}

function unavailable(what: string): () => never {
  return () => {
    throw new Error(`${what} is not available in VS Code for the Web (it needs Node's crypto); the desktop extension and the CLI run it`);
  };
}

export const createCipheriv = unavailable('AES encryption');
export const createDecipheriv = unavailable('AES decryption');
export const createPrivateKey = unavailable('reading a private key');
export const createPublicKey = unavailable('reading a public key');
export const generateKeyPairSync = unavailable('generating a key');
/** scrypt as Node's scryptSync computes it (derivePassword): the same derived bytes, from @noble/hashes. */
export function scryptSync(password: Uint8Array, salt: Uint8Array, keylen: number, o: { N: number; r: number; p: number }): Buffer {
  return Buffer.from(scrypt(password, salt, { N: o.N, r: o.r, p: o.p, dkLen: keylen }));
}
export const sign = unavailable('signing');
export class X509Certificate {
  constructor() {
    unavailable('reading a certificate')();
  }
}
export type KeyObject = never;
