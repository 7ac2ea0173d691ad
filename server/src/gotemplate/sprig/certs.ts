/**
 * sprig's certificate functions (`crypto.go`): genCA, genSelfSignedCert, genSignedCert, their
 * `WithKey` forms and buildCustomCert. They return a `sprig.certificate` struct with `.Cert` and
 * `.Key` (PEM). Certificates are built as Go's x509.CreateCertificate builds them from sprig's
 * template: a random 128-bit serial, CN-only subject, validity from now for N days, key usage
 * digitalSignature+keyEncipherment (+certSign for a CA), ext key usage serverAuth+clientAuth,
 * basic constraints (CA:true for a CA), a SHA-1 subject key id on CAs, the CA's key id as authority
 * key id on signed certs, and DNS/IP subject alternative names. New keys are RSA 2048.
 */
import { createHash, createPublicKey, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { goFunc, type FuncMap, type GoFunc } from '../funcs';
import { GoOther, goString, utf8Bytes, type GoValue } from '../values';
import { formatValue, goQuote } from '../format';
import { goBase64Decode } from './encoding';
import { costly, generateRSA, parsePrivateKeyPEM, privateKeyPEM } from './crypto';
import * as der from './der';

export interface Certificate {
  Cert: string;
  Key: string;
}

export function certificateValue(c: Certificate): GoOther {
  return new GoOther('sprig.certificate', c, () => `{${c.Cert} ${c.Key}}`, {
    members: { Cert: { field: c.Cert }, Key: { field: c.Key } },
    json: () => `{"Cert":${JSON.stringify(c.Cert)},"Key":${JSON.stringify(c.Key)}}`,
    kind: 'struct',
    goSyntax: () => `sprig.certificate{Cert:${goQuote(c.Cert)}, Key:${goQuote(c.Key)}}`,
  });
}

// ---- inputs --------------------------------------------------------------------------------------
/** net.ParseIP then To4 where it fits: the bytes Go puts in an iPAddress SAN. */
export function ipBytes(s: string): Buffer | undefined {
  if (isIPv4(s)) return Buffer.from(s.split('.').map(Number));
  if (!isIPv6(s) || s.includes('%')) return undefined;
  let tail: number[] = [];
  let text = s;
  const v4 = /:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    if (!isIPv4(v4[1])) return undefined;
    tail = v4[1].split('.').map(Number);
    text = s.slice(0, v4.index + 1) + '0:0';
  }
  const [head, rest] = text.split('::');
  const words = (part: string | undefined) =>
    part
      ? part
          .split(':')
          .filter((w) => w !== '')
          .map((w) => parseInt(w, 16))
      : [];
  const h = words(head),
    r = words(rest);
  const all = rest === undefined ? h : [...h, ...new Array(8 - h.length - r.length).fill(0), ...r];
  const out = Buffer.alloc(16);
  all.forEach((w, i) => out.writeUInt16BE(w, i * 2));
  if (tail.length) out.set(tail, 12);
  const mapped = out.subarray(0, 10).every((b) => b === 0) && out[10] === 0xff && out[11] === 0xff;
  return mapped ? out.subarray(12) : out;
}

function ipList(v: GoValue): Buffer[] {
  if (v === null) return [];
  return (v as GoValue[]).map((ip) => {
    if (typeof ip !== 'string') throw new Error(`error parsing ip: ${formatValue(ip)} is not a string`);
    const b = ipBytes(ip);
    if (!b) throw new Error(`error parsing ip: ${ip}`);
    return b;
  });
}

function dnsList(v: GoValue): string[] {
  if (v === null) return [];
  return (v as GoValue[]).map((d) => {
    if (typeof d !== 'string') throw new Error(`error processing alternate dns name: ${formatValue(d)} is not a string`);
    return d;
  });
}

// ---- building ------------------------------------------------------------------------------------
interface Signer {
  key: KeyObject;
  /** DER of the issuer name (the parent's subject). */
  subject: Buffer;
  /** The parent's subject key id, when it has one. */
  keyId?: Buffer;
  /** SPKI DER of the parent certificate's public key, which the signing key must match. */
  parentKey: Buffer;
}

const OID = {
  cn: '2.5.4.3',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

function signatureAlgorithm(key: KeyObject): { alg: Buffer; hash: string | null } {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { alg: der.seq(der.oid('1.2.840.113549.1.1.11'), der.nul()), hash: 'sha256' };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      const [oid, hash] =
        curve === 'secp384r1'
          ? ['1.2.840.10045.4.3.3', 'sha384']
          : curve === 'secp521r1'
            ? ['1.2.840.10045.4.3.4', 'sha512']
            : ['1.2.840.10045.4.3.2', 'sha256'];
      return { alg: der.seq(der.oid(oid)), hash };
    }
    case 'ed25519':
      return { alg: der.seq(der.oid('1.3.101.112')), hash: null };
    case 'dsa':
      throw new Error('x509: certificate private key does not implement crypto.Signer');
    default:
      throw new Error(`x509: unsupported private key type ${key.asymmetricKeyType}`);
  }
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return der.seq(der.oid(oid), ...(critical ? [der.bool(true)] : []), der.octets(value));
}

/** Key usage bits the way Go marshals them: bit 0 first, trailing zero bits declared unused. */
function keyUsage(ca: boolean): Buffer {
  const byte = ca ? 0b10100100 : 0b10100000; // digitalSignature, keyEncipherment (, keyCertSign)
  let used = 8;
  while (used > 0 && !(byte & (1 << (8 - used)))) used--;
  return der.bits(Buffer.from([byte]), 8 - used);
}

interface Spec {
  cn: string;
  ips: Buffer[];
  dns: string[];
  days: bigint;
  ca: boolean;
}

function createCertificate(spec: Spec, subjectKey: KeyObject, signer: Signer | 'self'): string {
  const signing = signer === 'self' ? subjectKey : signer.key;
  const { alg, hash } = signatureAlgorithm(signing);
  if (signer !== 'self' && !createPublicKey(signing).export({ type: 'spki', format: 'der' }).equals(signer.parentKey)) {
    throw new Error("x509: provided PrivateKey doesn't match parent's PublicKey");
  }
  const publicKey = createPublicKey(subjectKey);
  if (publicKey.asymmetricKeyType === 'dsa') throw new Error('x509: unsupported public key type: *dsa.PublicKey');
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const subject = der.seq(der.set(der.seq(der.oid(OID.cn), der.dirString(spec.cn))));
  const now = Date.now();
  const extensions = [
    extension(OID.keyUsage, true, keyUsage(spec.ca)),
    extension(OID.extKeyUsage, false, der.seq(der.oid(OID.serverAuth), der.oid(OID.clientAuth))),
    extension(OID.basicConstraints, true, spec.ca ? der.seq(der.bool(true)) : der.seq()),
  ];
  let keyId: Buffer | undefined;
  if (spec.ca) {
    // Go: SHA-1 of the subjectPublicKey bits (RFC 5280 4.2.1.2 method 1).
    const spkBits = der.children(der.read(spki))[1].body.subarray(1);
    keyId = createHash('sha1').update(spkBits).digest();
    extensions.push(extension(OID.subjectKeyId, false, der.octets(keyId)));
  }
  const issuer = signer === 'self' ? subject : signer.subject;
  if (signer !== 'self' && signer.keyId && !issuer.equals(subject))
    extensions.push(extension(OID.authorityKeyId, false, der.seq(der.tlv(0x80, signer.keyId))));
  for (const d of spec.dns) if (/[^\x00-\x7f]/.test(d)) throw new Error(`x509: ${goQuote(d)} cannot be encoded as an IA5String`);
  if (spec.dns.length || spec.ips.length) {
    const names = [...spec.dns.map((d) => der.tlv(0x82, utf8Bytes(d))), ...spec.ips.map((ip) => der.tlv(0x87, ip))];
    extensions.push(extension(OID.subjectAltName, false, der.seq(...names)));
  }
  const tbs = der.seq(
    der.explicit(0, der.int(2n)),
    der.int(BigInt('0x' + randomBytes(16).toString('hex'))),
    alg,
    issuer,
    der.seq(der.time(now), der.time(now + Number(spec.days) * 86400000)),
    subject,
    spki,
    der.explicit(3, der.seq(...extensions)),
  );
  const signature = sign(hash, tbs, signing);
  return der.pem('CERTIFICATE', der.seq(tbs, alg, der.bits(signature)));
}

/** x509.ParseCertificate of a PEM text, then what signing under it needs. */
function parseCertPEM(text: string, what: string): { cert: X509Certificate; subject: Buffer; keyId?: Buffer } {
  const block = der.pemDecode(text);
  if (!block) throw new Error('unable to decode certificate');
  let cert: X509Certificate;
  let subject: Buffer;
  let keyId: Buffer | undefined;
  try {
    cert = new X509Certificate(block.bytes);
    const tbs = der.children(der.children(der.read(block.bytes))[0]);
    const fields = tbs[0].tag === 0xa0 ? tbs.slice(1) : tbs;
    subject = fields[4].raw;
    const exts = tbs.find((n) => n.tag === 0xa3);
    for (const ext of exts ? der.children(der.children(exts)[0]) : []) {
      const [id, ...rest] = der.children(ext);
      if (id.body.equals(der.oid(OID.subjectKeyId).subarray(2))) keyId = der.read(rest[rest.length - 1].body).body;
    }
  } catch (e) {
    throw new Error(`error parsing certificate: ${what}: x509: malformed certificate (${(e as Error).message})`);
  }
  return { cert, subject, keyId };
}

function newKey(): KeyObject {
  return generateRSA(2048);
}

function withKey(pemText: string): KeyObject {
  try {
    return parsePrivateKeyPEM(pemText);
  } catch (e) {
    throw new Error(`parsing private key: ${(e as Error).message}`);
  }
}

function make(spec: Spec, key: KeyObject, signer: Signer | 'self'): Certificate {
  try {
    return { Cert: createCertificate(spec, key, signer), Key: privateKeyPEM(key) };
  } catch (e) {
    throw new Error(`error creating certificate: ${(e as Error).message}`);
  }
}

function signedBy(ca: Certificate): Signer {
  const parent = parseCertPEM(ca.Cert, 'decodedSignerCert.Bytes');
  let key: KeyObject;
  try {
    key = parsePrivateKeyPEM(ca.Key);
  } catch (e) {
    throw new Error(`error parsing private key: ${(e as Error).message}`);
  }
  return { key, subject: parent.subject, keyId: parent.keyId, parentKey: parent.cert.publicKey.export({ type: 'spki', format: 'der' }) };
}

function buildCustomCert(b64cert: string, b64key: string): Certificate {
  let cert: Buffer, key: Buffer;
  try {
    cert = goBase64Decode(b64cert);
  } catch {
    throw new Error('unable to decode base64 certificate');
  }
  try {
    key = goBase64Decode(b64key);
  } catch {
    throw new Error('unable to decode base64 private key');
  }
  parseCertPEM(cert.toString('latin1'), 'decodedCert.Bytes');
  try {
    parsePrivateKeyPEM(key.toString('latin1'));
  } catch (e) {
    throw new Error(`error parsing private key: ${(e as Error).message}`);
  }
  return { Cert: goString(cert), Key: goString(key) };
}

/** Generated certificates and keys differ on every render (a certificate built from given PEM does not). */
const F = (impl: (...a: any[]) => GoValue, params: GoFunc['params'], nonDeterministic = true): GoFunc =>
  goFunc(impl, params, undefined, nonDeterministic);
const cert = (name: string, args: unknown[], build: () => Certificate) => certificateValue(costly(name, args, build));
const spec = (cn: string, ips: GoValue, dns: GoValue, days: bigint, ca = false): Spec => ({
  cn,
  ips: ipList(ips),
  dns: dnsList(dns),
  days,
  ca,
});
const payload = (c: GoValue) => (c as GoOther).payload as Certificate;

export function certFuncs(): FuncMap {
  const m: FuncMap = new Map();
  m.set(
    'genCA',
    F(
      (cn: string, days: bigint) => cert('genCA', [cn, days], () => make(spec(cn, null, null, days, true), newKey(), 'self')),
      ['string', 'int'],
    ),
  );
  m.set(
    'genCAWithKey',
    F(
      (cn: string, days: bigint, key: string) =>
        cert('genCAWithKey', [cn, days, key], () => make(spec(cn, null, null, days, true), withKey(key), 'self')),
      ['string', 'int', 'string'],
    ),
  );
  m.set(
    'genSelfSignedCert',
    F(
      (cn: string, ips: GoValue, dns: GoValue, days: bigint) => {
        const s = spec(cn, ips, dns, days);
        return cert('genSelfSignedCert', [cn, ips, dns, days], () => make(s, newKey(), 'self'));
      },
      ['string', 'list', 'list', 'int'],
    ),
  );
  m.set(
    'genSelfSignedCertWithKey',
    F(
      (cn: string, ips: GoValue, dns: GoValue, days: bigint, key: string) => {
        const s = spec(cn, ips, dns, days);
        return cert('genSelfSignedCertWithKey', [cn, ips, dns, days, key], () => make(s, withKey(key), 'self'));
      },
      ['string', 'list', 'list', 'int', 'string'],
    ),
  );
  // Go's order of checks: the signee key, the CA certificate and key, then the IPs and names.
  m.set(
    'genSignedCert',
    F(
      (cn: string, ips: GoValue, dns: GoValue, days: bigint, ca: GoValue) => {
        const signer = signedBy(payload(ca));
        const s = spec(cn, ips, dns, days);
        return cert('genSignedCert', [cn, ips, dns, days, payload(ca)], () => make(s, newKey(), signer));
      },
      ['string', 'list', 'list', 'int', 'sprig.certificate'],
    ),
  );
  m.set(
    'genSignedCertWithKey',
    F(
      (cn: string, ips: GoValue, dns: GoValue, days: bigint, ca: GoValue, key: string) => {
        const k = withKey(key);
        const signer = signedBy(payload(ca));
        const s = spec(cn, ips, dns, days);
        return cert('genSignedCertWithKey', [cn, ips, dns, days, payload(ca), key], () => make(s, k, signer));
      },
      ['string', 'list', 'list', 'int', 'sprig.certificate', 'string'],
    ),
  );
  m.set(
    'buildCustomCert',
    F((c: string, k: string) => certificateValue(buildCustomCert(c, k)), ['string', 'string'], false),
  );
  return m;
}
