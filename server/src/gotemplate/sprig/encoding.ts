/**
 * Encodings and hashes (`crypto.go`, `functions.go`, `strings.go`): base64/base32, Go's
 * encoding/json (sorted map keys, `<`, `>`, `&` escaped unless raw), sha*sum, adler32sum.
 */
import { createHash } from 'node:crypto';
import { type FuncMap, goFunc as F } from '../funcs';
import { fromJSON, GoInt64, GoMap, GoOther, GoStringMap, GoTime, goString, utf8Bytes, type GoValue } from '../values';
import { formatTime, zoneOf } from './goTime';
import { goJSONSyntaxError, jsonDepth } from './jsonScan';
import { charge, LIMIT_TEXT, MAX_JSON_DEPTH, WorkLimitError } from '../budget';

function jsonString(s: string, escapeHTML: boolean): string {
  // Lone surrogates (raw bytes of the string model) are invalid UTF-8, which Go writes as U+FFFD.
  let out = JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/\\ud[89a-f][0-9a-f]{2}/g, '\\ufffd');
  if (escapeHTML) out = out.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  return out;
}

/** Go's json.Marshal / MarshalIndent of a value of our model. */
export function toGoJSON(v: GoValue | undefined, escapeHTML = true, indent = '', level = 0): string {
  const nl = indent ? '\n' + indent.repeat(level + 1) : '';
  const end = indent ? '\n' + indent.repeat(level) : '';
  const sep = indent ? ': ' : ':';
  charge(1, (typeof v === 'string' ? v.length : 0) + nl.length); // every node as written out (indentation too), shared ones each time
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return jsonString(v, escapeHTML);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`json: unsupported value: ${v}`);
    return JSON.stringify(v);
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return String(v);
  if (v instanceof GoInt64) return v.v.toString();
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    return '[' + v.map((x) => nl + toGoJSON(x, escapeHTML, indent, level + 1)).join(',') + end + ']';
  }
  if (v instanceof GoMap || v instanceof GoStringMap) {
    const keys = [...v.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    if (!keys.length) return '{}';
    return (
      '{' +
      keys
        .map(
          (k) =>
            nl + jsonString(k, escapeHTML) + sep + toGoJSON((v as Map<string, GoValue>).get(k) as GoValue, escapeHTML, indent, level + 1),
        )
        .join(',') +
      end +
      '}'
    );
  }
  if (v instanceof GoTime) return jsonString(formatTime(v, '2006-01-02T15:04:05.999999999Z07:00', zoneOf(v)), escapeHTML); // MarshalJSON: RFC 3339 in its zone
  if (v instanceof GoOther && (v.type === 'uint8' || v.type === 'uint64')) return String(v.payload);
  if (v instanceof GoOther && v.ext.json) return v.ext.json();
  return '{}';
}

export function parseGoJSON(s: string): GoValue {
  return fromJSON(JSON.parse(s));
}

function b32decode(s: string): Buffer {
  const alpha = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = s.replace(/=+$/, '');
  let bits = 0,
    val = 0;
  const out: number[] = [];
  for (let i = 0; i < clean.length; i++) {
    const idx = alpha.indexOf(clean[i]);
    if (idx < 0) throw new Error(`illegal base32 data at input byte ${i}`);
    val = (val << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((val >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
function b32encode(b: Buffer): string {
  const alpha = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0,
    val = 0,
    out = '';
  for (const byte of b) {
    val = (val << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alpha[(val >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alpha[(val << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}

/** base64.StdEncoding.DecodeString: strict padding, `\r`/`\n` skipped; throws Go's error text. */
export function goBase64Decode(input: string): Buffer {
  const s = input.replace(/[\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) {
    const bad = s.search(/[^A-Za-z0-9+/=]/);
    const at = bad >= 0 ? bad : Math.floor(s.replace(/=+$/, '').length / 4) * 4;
    throw new Error(`illegal base64 data at input byte ${at}`);
  }
  return Buffer.from(s, 'base64');
}

function b64decode(s: string): string {
  try {
    return goString(goBase64Decode(s));
  } catch (e) {
    return (e as Error).message;
  }
}

function adler32(s: string): number {
  let a = 1,
    b = 0;
  for (const byte of utf8Bytes(s)) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

export function encodingFuncs(): FuncMap {
  const m: FuncMap = new Map();
  const hash = (alg: string) => F((s: string) => createHash(alg).update(utf8Bytes(s)).digest('hex'), ['string']);
  m.set('sha1sum', hash('sha1'));
  m.set('sha256sum', hash('sha256'));
  m.set('sha512sum', hash('sha512'));
  m.set(
    'adler32sum',
    F((s: string) => String(adler32(s)), ['string']),
  );
  m.set(
    'b64enc',
    F((s: string) => utf8Bytes(s).toString('base64'), ['string']),
  );
  m.set(
    'b64dec',
    F((s: string) => b64decode(s), ['string']),
  );
  m.set(
    'b32enc',
    F((s: string) => b32encode(utf8Bytes(s)), ['string']),
  );
  m.set(
    'b32dec',
    F(
      (s: string) => {
        try {
          return goString(b32decode(s));
        } catch (e) {
          return (e as Error).message;
        }
      },
      ['string'],
    ),
  );
  const safe = (f: () => string) => {
    try {
      return f();
    } catch (e) {
      if (e instanceof WorkLimitError) throw e; // our limit is not one of Go's encoding errors
      return '';
    }
  };
  // Each encoder twice: to* gives "" on an error, mustTo* returns the error (toRawJson leaves <, > and & unescaped).
  for (const [name, escapeHTML, indent] of [
    ['Json', true, ''],
    ['PrettyJson', true, '  '],
    ['RawJson', false, ''],
  ] as const) {
    m.set(
      `to${name}`,
      F((v: GoValue) => safe(() => toGoJSON(v, escapeHTML, indent)), ['any']),
    );
    m.set(
      `mustTo${name}`,
      F((v: GoValue) => toGoJSON(v, escapeHTML, indent), ['any']),
    );
  }
  m.set(
    'fromJson',
    F((s: string) => (goJSONError(s) ? null : parseGoJSON(checkJSONDepth(s))), ['string']),
  );
  m.set(
    'mustFromJson',
    F(
      (s: string) => {
        const err = goJSONError(s);
        if (err) throw new Error(err);
        return parseGoJSON(checkJSONDepth(s));
      },
      ['string'],
    ),
  );
  return m;
}

/**
 * Valid JSON nested deeper than MAX_JSON_DEPTH: Go would read it (its limit is 10,000), so this is
 * our limit and says so, even where Go's `fromJson` would swallow an error.
 */
function checkJSONDepth(s: string): string {
  const depth = jsonDepth(s, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH)
    throw new WorkLimitError(
      `the JSON nests more than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels deep (${LIMIT_TEXT}; Go reads up to 10,000 levels)`,
    );
  return s;
}

/** json.Unmarshal's error for a text JSON.parse rejected or could only read as ±Infinity. */
function goJSONError(s: string): string | undefined {
  const syntax = goJSONSyntaxError(s);
  if (syntax) return syntax;
  for (const m of s.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    if (m[0][0] !== '"' && !Number.isFinite(Number(m[0]))) return `json: cannot unmarshal number ${m[0]} into Go value of type float64`;
  }
  return undefined;
}
