/**
 * sprig's secret-making functions (`crypto.go`): encryptAES/decryptAES, bcrypt, htpasswd,
 * derivePassword, genPrivateKey. The certificate generators are in certs.ts.
 *
 * Some of these are slow on purpose (bcrypt cost 10, scrypt with N=32768, RSA key generation), and
 * the preview renders on every keystroke, so they go through `costly()`: results are memoised per
 * arguments (a random result is then stable between keystrokes instead of flickering; Argo CD makes
 * a new one each time, which the non-deterministic report already says). An interactive host (the
 * language server) also sets a time budget: once such calls have used budgetMs of the last windowMs,
 * further ones fail with a clear error instead of stalling every keystroke. Batch use (the CLI) has
 * no budget.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  scryptSync,
  type KeyObject,
} from 'node:crypto';
import { bcryptjs } from './lazy';
import { goFunc, type FuncMap, type GoFunc } from '../funcs';
import { byteLength, goString, utf8Bytes, type GoValue } from '../values';
import { goBase64Decode } from './encoding';
import * as der from './der';
import { ReasonedError } from '../reason';

const F = (impl: (...a: any[]) => GoValue, params: GoFunc['params'], nonDeterministic?: boolean): GoFunc =>
  goFunc(impl, params, undefined, nonDeterministic);

// ---- cost control ------------------------------------------------------------------------------
const DEFAULT_BUDGET_MS = Infinity;
const DEFAULT_WINDOW_MS = 15000;
let COSTLY_BUDGET_MS = DEFAULT_BUDGET_MS;
let COSTLY_WINDOW_MS = DEFAULT_WINDOW_MS;
const MEMO_MAX = 256;
const memo = new Map<string, unknown>();
let spent: { at: number; ms: number }[] = [];

/** Runs an expensive computation under the memo and the time budget described above. */
export function costly<T>(name: string, args: unknown[], compute: () => T): T {
  const key = name + '\0' + JSON.stringify(args, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  if (memo.has(key)) {
    const v = memo.get(key) as T;
    memo.delete(key); // refresh its place in the LRU order
    memo.set(key, v);
    return v;
  }
  const now = Date.now();
  spent = spent.filter((s) => now - s.at < COSTLY_WINDOW_MS);
  const used = spent.reduce((a, s) => a + s.ms, 0);
  if (used >= COSTLY_BUDGET_MS) {
    throw new ReasonedError(
      `${name} skipped by the offline preview: expensive crypto functions used ${(used / 1000).toFixed(1)}s of the last ${COSTLY_WINDOW_MS / 1000}s (appset --no-limits lifts this budget)`,
      { kind: 'preview-skipped' },
    );
  }
  const t0 = Date.now();
  const v = compute();
  spent.push({ at: Date.now(), ms: Date.now() - t0 });
  memo.set(key, v);
  if (memo.size > MEMO_MAX) memo.delete(memo.keys().next().value as string);
  return v;
}

/** Sets the time budget of expensive functions (none when budgetMs is omitted). */
export function configureCostly(o: { budgetMs?: number; windowMs?: number }): void {
  COSTLY_BUDGET_MS = o.budgetMs ?? DEFAULT_BUDGET_MS;
  COSTLY_WINDOW_MS = o.windowMs ?? DEFAULT_WINDOW_MS;
}

/** For tests: forget memoised results and spent time. */
export function resetCostly(): void {
  memo.clear();
  spent = [];
}

// ---- AES-256-CBC as sprig does it --------------------------------------------------------------
function aesKey(password: string): Buffer {
  const key = Buffer.alloc(32); // the password's bytes, zero-padded or cut to 32
  utf8Bytes(password).copy(key, 0, 0, 32);
  return key;
}

export function encryptAES(password: string, plaintext: string): string {
  if (plaintext === '') return '';
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-cbc', aesKey(password), iv); // PKCS#7 padding, as sprig pads
  return Buffer.concat([iv, c.update(utf8Bytes(plaintext)), c.final()]).toString('base64');
}

/** Inverse of encryptAES; sprig does not check the padding, and its panics read as below. */
export function decryptAES(password: string, crypt64: string): string {
  if (crypt64 === '') return '';
  const crypt = goBase64Decode(crypt64);
  if (crypt.length < 16) throw new Error(`runtime error: slice bounds out of range [:16] with capacity ${crypt.length}`);
  const body = crypt.subarray(16);
  if (body.length % 16) throw new Error('crypto/cipher: input not full blocks');
  const d = createDecipheriv('aes-256-cbc', aesKey(password), crypt.subarray(0, 16));
  d.setAutoPadding(false);
  const plain = Buffer.concat([d.update(body), d.final()]);
  if (plain.length === 0) throw new Error('runtime error: index out of range [-1]');
  const cut = plain.length - plain[plain.length - 1];
  if (cut < 0) throw new Error(`runtime error: slice bounds out of range [:${cut}]`);
  return goString(plain.subarray(0, cut));
}

// ---- bcrypt / htpasswd ---------------------------------------------------------------------------
/**
 * golang.org/x/crypto/bcrypt at DefaultCost (10); Go writes the `$2a$` prefix. The x/crypto Argo CD
 * builds with rejects passwords over 72 bytes, and sprig prints that error as the result (older
 * x/crypto, like the golden renderer's, silently used the first 72 bytes).
 */
export function bcryptHash(password: string): string {
  if (byteLength(password) > 72) return 'failed to encrypt string with bcrypt: bcrypt: password length exceeds 72 bytes';
  return costly('bcrypt', [password], () => {
    // bcryptjs hashes a JS string as UTF-8, as Go hashes the string's bytes.
    const hash = bcryptjs().hashSync(password, bcryptjs().genSaltSync(10));
    return hash.replace(/^\$2b\$/, '$2a$');
  });
}

// ---- derivePassword (Master Password algorithm v3) ----------------------------------------------
const TEMPLATES: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: [
    'CvcvnoCvcvCvcv',
    'CvcvCvcvnoCvcv',
    'CvcvCvcvCvcvno',
    'CvccnoCvcvCvcv',
    'CvccCvcvnoCvcv',
    'CvccCvcvCvcvno',
    'CvcvnoCvccCvcv',
    'CvcvCvccnoCvcv',
    'CvcvCvccCvcvno',
    'CvcvnoCvcvCvcc',
    'CvcvCvcvnoCvcc',
    'CvcvCvcvCvccno',
    'CvccnoCvccCvcv',
    'CvccCvccnoCvcv',
    'CvccCvccCvcvno',
    'CvcvnoCvccCvcc',
    'CvcvCvccnoCvcc',
    'CvcvCvccCvccno',
    'CvccnoCvcvCvcc',
    'CvccCvcvnoCvcc',
    'CvccCvcvCvccno',
  ],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};
const CHARS: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};
const SEED = 'com.lyndir.masterpassword';

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

export function derivePassword(counter: bigint, kind: string, password: string, user: string, site: string): string {
  const templates = Object.prototype.hasOwnProperty.call(TEMPLATES, kind) ? TEMPLATES[kind] : undefined;
  if (!templates) return `cannot find password template ${kind}`;
  return costly('derivePassword', [counter, kind, password, user, site], () => {
    const userBytes = utf8Bytes(user),
      siteBytes = utf8Bytes(site);
    const salt = Buffer.concat([Buffer.from(SEED), u32(userBytes.length), userBytes]);
    const key = scryptSync(utf8Bytes(password), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 128 * 1024 * 1024 });
    // Go converts the template's int argument to uint32.
    const seed = createHmac('sha256', key)
      .update(Buffer.concat([Buffer.from(SEED), u32(siteBytes.length), siteBytes, u32(Number(BigInt.asUintN(32, counter)))]))
      .digest();
    const template = templates[seed[0] % templates.length];
    let out = '';
    for (let i = 0; i < template.length; i++) {
      const chars = CHARS[template[i]];
      out += chars[seed[i + 1] % chars.length];
    }
    return out;
  });
}

// ---- private keys ------------------------------------------------------------------------------
/** Go's own DSA key format (sprig's DSAKeyFormat): SEQUENCE { 0, P, Q, G, Y, X }. */
function dsaGoFormat(key: KeyObject): Buffer {
  const info = der.children(der.read(key.export({ type: 'pkcs8', format: 'der' })));
  const [p, q, g] = der.children(der.children(info[1])[1]).map(der.intValue);
  const x = der.intValue(der.read(info[2].body));
  let y = 1n,
    base = g % p,
    e = x;
  for (; e > 0n; e >>= 1n, base = (base * base) % p) if (e & 1n) y = (y * base) % p;
  return der.seq(der.int(0n), der.int(p), der.int(q), der.int(g), der.int(y), der.int(x));
}

/** sprig's pemBlockForKey: the PEM Go writes for a private key of each type. */
export function privateKeyPEM(key: KeyObject): string {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return der.pem('RSA PRIVATE KEY', key.export({ type: 'pkcs1', format: 'der' }));
    case 'ec':
      return der.pem('EC PRIVATE KEY', key.export({ type: 'sec1', format: 'der' }));
    case 'dsa':
      return der.pem('DSA PRIVATE KEY', dsaGoFormat(key));
    default:
      return der.pem('PRIVATE KEY', key.export({ type: 'pkcs8', format: 'der' }));
  }
}

/** Parses Go's DSA key format back into a key Node understands. */
function dsaFromGoFormat(bytes: Buffer): KeyObject {
  const [, p, q, g, , x] = der.children(der.read(bytes));
  const params = der.seq(der.int(der.intValue(p)), der.int(der.intValue(q)), der.int(der.intValue(g)));
  const pkcs8 = der.seq(der.int(0n), der.seq(der.oid('1.2.840.10040.4.1'), params), der.octets(der.int(der.intValue(x))));
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
}

/** sprig's parsePrivateKeyPEM, with its error texts (the x509 detail after the colon is Node's). */
export function parsePrivateKeyPEM(text: string): KeyObject {
  const block = der.pemDecode(text);
  if (!block) throw new Error('no PEM data in input');
  const load = (type: 'pkcs8' | 'pkcs1' | 'sec1', what: string) => {
    try {
      return createPrivateKey({ key: block.bytes, format: 'der', type });
    } catch (e) {
      throw new Error(`${what}: x509: ${(e as Error).message}`);
    }
  };
  if (block.type === 'PRIVATE KEY') return load('pkcs8', 'decoding PEM as PKCS#8');
  if (!block.type.endsWith(' PRIVATE KEY')) throw new Error(`no private key data in PEM block of type ${block.type}`);
  switch (block.type.slice(0, -12)) {
    case 'RSA':
      return load('pkcs1', 'parsing RSA private key from PEM');
    case 'EC':
      return load('sec1', 'parsing EC private key from PEM');
    case 'DSA':
      try {
        return dsaFromGoFormat(block.bytes);
      } catch (e) {
        throw new Error(`parsing DSA private key from PEM: asn1: ${(e as Error).message}`);
      }
    default:
      throw new Error(`invalid private key type ${block.type}`);
  }
}

export function generateRSA(bits: number): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: bits }).privateKey;
}

function genPrivateKey(typ: string): string {
  switch (typ) {
    case '':
    case 'rsa':
      return privateKeyPEM(generateRSA(4096));
    case 'dsa':
      return privateKeyPEM(generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 }).privateKey);
    case 'ecdsa':
      return privateKeyPEM(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    case 'ed25519':
      return privateKeyPEM(generateKeyPairSync('ed25519').privateKey);
    default:
      return 'Unknown type ' + typ;
  }
}

export function cryptoFuncs(): FuncMap {
  const m: FuncMap = new Map();
  m.set(
    'encryptAES',
    F((pw: string, text: string) => encryptAES(pw, text), ['string', 'string'], true),
  );
  m.set(
    'decryptAES',
    F((pw: string, text: string) => decryptAES(pw, text), ['string', 'string']),
  );
  m.set(
    'bcrypt',
    F((s: string) => bcryptHash(s), ['string'], true),
  );
  m.set(
    'htpasswd',
    F(
      (user: string, pw: string) => (user.includes(':') ? `invalid username: ${user}` : `${user}:${bcryptHash(pw)}`),
      ['string', 'string'],
      true,
    ),
  );
  m.set(
    'derivePassword',
    F(
      (counter: bigint, typ: string, pw: string, user: string, site: string) => derivePassword(counter, typ, pw, user, site),
      ['int', 'string', 'string', 'string', 'string'],
    ),
  );
  m.set(
    'genPrivateKey',
    F((typ: string) => costly('genPrivateKey', [typ], () => genPrivateKey(typ)), ['string'], true),
  );
  return m;
}
