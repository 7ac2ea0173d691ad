/**
 * sprig's secret and certificate functions (sprig crypto.go) checked by what a consumer checks:
 * Node's own X.509 parser and signature verification, bcrypt verification, AES decryption by an
 * independent cipher. Exact texts and deterministic results are in the golden corpus
 * (own-cases.src.js: aes-*, derive-password-*, cert-*, semver-*, date-in-zone-*); certificates and
 * keys made here were also fed back through the real Go renderer while this was built (Go parsed
 * them and signed leaf certificates with our CA keys).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDecipheriv, createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import bcryptjs from 'bcryptjs';
import { renderString } from '@appset-tools/gotemplate';
import { configureCostly, costly, resetCostly } from '../../server/src/gotemplate/sprig/crypto';
import { ipBytes } from '../../server/src/gotemplate/sprig/certs';
import { appset, workspace } from '../unit/generators-helpers';

const P = { x: 1 };
const render = (t: string, params: Record<string, unknown> = P) => renderString(t, params, { goTemplate: true });

function certOf(template: string): { cert: X509Certificate; keyPem: string; certPem: string } {
  const out = JSON.parse(render(`{{ ${template} | toJson }}`)) as { Cert: string; Key: string };
  return { cert: new X509Certificate(out.Cert), keyPem: out.Key, certPem: out.Cert };
}

test('genCA: a self-signed CA certificate Node parses and verifies (sprig generateCertificateAuthority)', () => {
  const { cert, keyPem } = certOf('genCA "my-ca" 30');
  assert.equal(cert.subject, 'CN=my-ca');
  assert.equal(cert.issuer, 'CN=my-ca');
  assert.equal(cert.ca, true);
  assert.ok(cert.verify(cert.publicKey), 'self-signature verifies');
  assert.ok(cert.checkIssued(cert));
  const days = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / 86400000;
  assert.equal(days, 30);
  assert.ok(Math.abs(Date.parse(cert.validFrom) - Date.now()) < 60000);
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']); // serverAuth, clientAuth
  assert.match(keyPem, /^-----BEGIN RSA PRIVATE KEY-----\n/);
  const key = createPrivateKey(keyPem);
  assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);
  assert.ok(
    createPublicKey(key)
      .export({ type: 'spki', format: 'der' })
      .equals(cert.publicKey.export({ type: 'spki', format: 'der' })),
  );
  assert.match(cert.serialNumber, /^[0-9A-F]+$/);
});

test('genSignedCert: issued by the CA, with DNS and IP alternative names, not a CA itself', () => {
  const { cert, keyPem } = certOf(
    'genSignedCert "leaf" (list "10.0.0.1" "::1" "::ffff:1.2.3.4") (list "a.example" "b.example") 5 (genCA "root" 3)',
  );
  // The CA above is memoised per arguments, so rendering it again gives the issuer.
  const ca = certOf('genCA "root" 3').cert;
  assert.equal(cert.subject, 'CN=leaf');
  assert.equal(cert.issuer, 'CN=root');
  assert.equal(cert.ca, false);
  assert.ok(cert.checkIssued(ca));
  assert.ok(cert.verify(ca.publicKey));
  assert.equal(cert.subjectAltName, 'DNS:a.example, DNS:b.example, IP Address:10.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:1.2.3.4');
  assert.match(keyPem, /^-----BEGIN RSA PRIVATE KEY-----/);
});

test('genCAWithKey / genSignedCertWithKey keep the given ECDSA and Ed25519 keys and sign with them', () => {
  const ec = render('{{ genPrivateKey "ecdsa" }}');
  const ed = render('{{ genPrivateKey "ed25519" }}');
  assert.match(ec, /^-----BEGIN EC PRIVATE KEY-----/);
  assert.match(ed, /^-----BEGIN PRIVATE KEY-----/);
  const ca = JSON.parse(render('{{ genCAWithKey "ec-ca" 7 .k | toJson }}', { k: ec })) as { Cert: string; Key: string };
  assert.equal(ca.Key, ec);
  const caCert = new X509Certificate(ca.Cert);
  assert.ok(caCert.verify(caCert.publicKey));
  const leaf = JSON.parse(
    render('{{ genSignedCertWithKey "leaf" nil (list "x.example") 7 (buildCustomCert (b64enc .c) (b64enc .k)) .ed | toJson }}', {
      c: ca.Cert,
      k: ec,
      ed,
    }),
  ) as { Cert: string; Key: string };
  assert.equal(leaf.Key, ed);
  const leafCert = new X509Certificate(leaf.Cert);
  assert.ok(leafCert.verify(caCert.publicKey), 'ECDSA signature by the CA verifies');
  assert.equal(leafCert.publicKey.asymmetricKeyType, 'ed25519');
});

test('a CA whose key does not match its certificate is refused like Go refuses it', () => {
  const a = JSON.parse(render('{{ genCA "a" 1 | toJson }}')) as { Cert: string; Key: string };
  const b = JSON.parse(render('{{ genCA "b" 1 | toJson }}')) as { Cert: string; Key: string };
  assert.throws(
    () => render('{{ genSignedCert "leaf" nil nil 1 (buildCustomCert (b64enc .c) (b64enc .k)) }}', { c: a.Cert, k: b.Key }),
    /error calling genSignedCert: error creating certificate: x509: provided PrivateKey doesn't match parent's PublicKey/,
  );
});

test('genPrivateKey "dsa" writes Go\'s DSA key format, which parses back', () => {
  const pem = render('{{ genPrivateKey "dsa" }}');
  assert.match(pem, /^-----BEGIN DSA PRIVATE KEY-----\n/);
  // Go cannot sign certificates with DSA; parsing the key is what must work.
  assert.throws(() => render('{{ genCAWithKey "x" 1 .k }}', { k: pem }), /does not implement crypto.Signer/);
});

test('encryptAES: AES-256-CBC, random IV first, PKCS#7 padding, key = password bytes zero-padded to 32', () => {
  const out = render('{{ encryptAES "s3cret" "hello wörld" }}');
  const raw = Buffer.from(out, 'base64');
  assert.equal(raw.length, 32);
  const key = Buffer.alloc(32);
  Buffer.from('s3cret').copy(key);
  const d = createDecipheriv('aes-256-cbc', key, raw.subarray(0, 16));
  assert.equal(Buffer.concat([d.update(raw.subarray(16)), d.final()]).toString('utf8'), 'hello wörld');
  assert.notEqual(render('{{ encryptAES "s3cret" "hello wörld" }}'), out, 'a new IV each time');
});

test("bcrypt and htpasswd produce hashes that verify, with Go's $2a$10$ prefix", () => {
  const h = render('{{ bcrypt "correct horse" }}');
  assert.match(h, /^\$2a\$10\$[./A-Za-z0-9]{53}$/);
  assert.ok(bcryptjs.compareSync('correct horse', h));
  assert.ok(!bcryptjs.compareSync('wrong', h));
  const line = render('{{ htpasswd "admin" "pässwörd" }}');
  const [user, hash] = line.split(':');
  assert.equal(user, 'admin');
  assert.ok(bcryptjs.compareSync('pässwörd', hash));
});

test('random crypto results are marked non-deterministic; decryptAES and derivePassword are not', () => {
  for (const [t, fn] of [
    ['{{ genCA "n" 1 }}', 'genCA'],
    ['{{ bcrypt "a" }}', 'bcrypt'],
    ['{{ encryptAES "a" "b" }}', 'encryptAES'],
    ['{{ genPrivateKey "ecdsa" }}', 'genPrivateKey'],
  ] as const) {
    const report = { nonDeterministic: new Set<string>() };
    renderString(t, P, { goTemplate: true }, report);
    assert.ok(report.nonDeterministic.has(fn), fn);
  }
  const report = { nonDeterministic: new Set<string>() };
  renderString(
    '{{ decryptAES "k" "" }}{{ derivePassword 1 "pin" "a" "b" "c" }}{{ (semver "1.2.3").Major }}',
    P,
    { goTemplate: true },
    report,
  );
  assert.deepEqual([...report.nonDeterministic], []);
});

test('expensive crypto calls are memoised per arguments and bounded in time, so keystrokes never stall', () => {
  resetCostly();
  configureCostly({ budgetMs: 30, windowMs: 60000 });
  try {
    let runs = 0;
    const slow = (ms: number) => {
      runs++;
      const end = Date.now() + ms;
      while (Date.now() < end);
      return runs;
    };
    assert.equal(
      costly('test', ['a'], () => slow(40)),
      1,
    );
    assert.equal(
      costly('test', ['a'], () => slow(40)),
      1,
      'same arguments: the memoised result',
    );
    assert.throws(
      () => costly('test', ['b'], () => slow(40)),
      /test skipped by the offline preview: expensive crypto functions used [\d.]+s of the last 60s/,
    );
    assert.equal(runs, 1);
    assert.throws(() => render('{{ bcrypt "never computed" }}'), /error calling bcrypt: bcrypt skipped by the offline preview/);
  } finally {
    configureCostly({});
    resetCostly();
  }
});

test('IP addresses become SAN bytes as Go writes them (IPv4 and IPv4-mapped as 4 bytes)', () => {
  assert.deepEqual([...ipBytes('10.1.2.3')!], [10, 1, 2, 3]);
  assert.deepEqual([...ipBytes('::ffff:1.2.3.4')!], [1, 2, 3, 4]);
  assert.equal(ipBytes('2001:db8::1')!.toString('hex'), '20010db8000000000000000000000001');
  assert.equal(ipBytes('::')!.toString('hex'), '0'.repeat(32));
  assert.equal(ipBytes('fe80::1%eth0'), undefined);
  assert.equal(ipBytes('01.2.3.4'), undefined);
  assert.equal(ipBytes('nope'), undefined);
});

test('in the preview, a slow function over budget is an information (template/preview-skipped), not an error on valid YAML', () => {
  const ws = workspace();
  resetCostly();
  configureCostly({ budgetMs: 1, windowMs: 60000 });
  try {
    const text = appset('    - list:\n        elements: [{name: a}, {name: b}, {name: c}]', {
      goTemplate: true,
      name: '{{ .name }}-{{ bcrypt .name | len }}',
    });
    const e = ws.expand(text);
    const skipped = e.problems.filter((p) => p.code === 'template/preview-skipped');
    assert.ok(skipped.length >= 1, JSON.stringify(e.problems));
    assert.ok(skipped.every((p) => p.severity === 'information'));
    assert.equal(e.problems.filter((p) => p.severity === 'error').length, 0, JSON.stringify(e.problems));
    assert.equal(e.exact, false);
    assert.ok(e.apps.length >= 1, 'what fits the budget is still previewed');
  } finally {
    configureCostly({});
    resetCostly();
    ws.close();
  }
});
