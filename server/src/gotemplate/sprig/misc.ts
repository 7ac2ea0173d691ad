/**
 * The rest of sprig: dates (`date.go`, Go layouts, the controller's local zone is UTC; zones in
 * zones.ts), paths (`path` and `filepath`), URLs and random strings. Functions whose output changes
 * on every render are marked nonDeterministic. Semver is in semver.ts, secrets in crypto.ts and
 * certs.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type FuncMap, goFunc as F } from '../funcs';
import { GoInt64, GoMap, GoTime, type GoValue } from '../values';
import { kindName, NIL_DEREF, toInt64 } from './cast';
import { hostname, parseURL, urlString, userinfoString, type GoURL } from './url';
import { UTC, zoneAt } from './zones';
import { addDuration, formatTime, parseDuration, parseTime, TimeParseError, utcMs } from './goTime';
import { chargeBuild } from '../budget';

// ---- dates -----------------------------------------------------------------------------------
function toTime(v: GoValue): GoTime {
  if (v instanceof GoTime) return v;
  if (typeof v === 'bigint' || v instanceof GoInt64) return new GoTime(Number(toInt64(v)) * 1000);
  return new GoTime(Date.now()); // sprig: any other type formats "now"
}

function durationString(ns: bigint): string {
  // time.Duration.String
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1000000000n) {
    const units: [bigint, string][] = [
      [1000000n, 'ms'],
      [1000n, 'µs'],
      [1n, 'ns'],
    ];
    const [div, name] = units.find(([d]) => u >= d)!;
    const whole = u / div,
      rest = u % div;
    const fracDigits =
      div === 1n
        ? ''
        : String(rest)
            .padStart(String(div).length - 1, '0')
            .replace(/0+$/, '');
    out = `${whole}${fracDigits ? '.' + fracDigits : ''}${name}`;
  } else {
    const h = u / 3600000000000n;
    u %= 3600000000000n;
    const mi = u / 60000000000n;
    u %= 60000000000n;
    const sec = u / 1000000000n,
      frac = String(u % 1000000000n)
        .padStart(9, '0')
        .replace(/0+$/, '');
    out = `${sec}${frac ? '.' + frac : ''}s`;
    if (h > 0n || mi > 0n) out = `${mi}m${out}`;
    if (h > 0n) out = `${h}h${out}`;
  }
  return neg ? '-' + out : out;
}

// ---- paths (Go's path package) ---------------------------------------------------------------
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else out.push(seg);
  }
  const s = (rooted ? '/' : '') + out.join('/');
  return s === '' ? '.' : s;
}
function basePath(p: string): string {
  if (p === '') return '.';
  const t = p.replace(/\/+$/, '');
  if (t === '') return '/';
  return t.slice(t.lastIndexOf('/') + 1);
}
function dirPath(p: string): string {
  return cleanPath(p.slice(0, p.lastIndexOf('/') + 1));
}
function extPath(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

function randomString(n: number, alphabet: string): string {
  chargeBuild('string', n); // before the bytes are drawn
  const bytes = randomBytes(Math.max(0, n));
  let s = '';
  for (const b of bytes) s += alphabet[b % alphabet.length];
  return s;
}

/** The rest of sprig's functions, in sprig's order (later libraries override by name). */
export function miscFuncs(): FuncMap {
  const m: FuncMap = new Map();
  m.set(
    'hello',
    F(() => 'Hello!', []),
  );
  addDateFuncs(m);
  addDurationFuncs(m);
  addPathFuncs(m);
  addURLFuncs(m);
  addRandomFuncs(m);
  return m;
}

/** now, and formatting and parsing dates: date, dateInZone, htmlDate, unixEpoch, toDate … */
function addDateFuncs(m: FuncMap): void {
  // time.Now(): nanoseconds from the high-resolution clock, and a monotonic reading.
  m.set(
    'now',
    F(
      () => {
        const ns = BigInt(Date.now()) * 1000000n + (process.hrtime.bigint() % 1000000n);
        return new GoTime(Number(ns / 1000000n), Number(ns % 1000000n), 'UTC', 0, performance.now() / 1000);
      },
      [],
      undefined,
      true,
    ),
  );
  m.set(
    'ago',
    F((v: GoValue) => durationString(BigInt(Date.now() - toTime(v).ms) * 1000000n).replace(/\.\d+/, ''), ['any'], undefined, true),
  );
  m.set(
    'date',
    F((fmt: string, v: GoValue) => formatTime(toTime(v), fmt), ['string', 'any']),
  );
  const inZone = (fmt: string, v: GoValue, zone: string) => {
    const t = toTime(v);
    return formatTime(t, fmt, zoneAt(zone, t.ms) ?? UTC);
  };
  m.set('dateInZone', F(inZone, ['string', 'any', 'string']));
  m.set('date_in_zone', m.get('dateInZone')!);
  m.set(
    'htmlDate',
    F((v: GoValue) => formatTime(toTime(v), '2006-01-02'), ['any']),
  );
  m.set(
    'htmlDateInZone',
    F((v: GoValue, zone: string) => inZone('2006-01-02', v, zone), ['any', 'string']),
  );
  m.set(
    'unixEpoch',
    F((t: GoValue) => String(Math.floor((t as GoTime).ms / 1000)), ['time']),
  );
  m.set(
    'toDate',
    F(
      (fmt: string, s: string) => {
        try {
          return parseTime(fmt, s);
        } catch (e) {
          if (e instanceof TimeParseError) return new GoTime(utcMs(1, 0, 1)); // time.Time{}
          throw e;
        }
      },
      ['string', 'string'],
    ),
  );
  m.set(
    'mustToDate',
    F((fmt: string, s: string) => parseTime(fmt, s), ['string', 'string']),
  );
}

/** Durations: dateModify, duration, durationRound. */
function addDurationFuncs(m: FuncMap): void {
  // dateModify keeps the date when the duration does not parse; mustDateModify reports it.
  const dateModify = F(
    (fmt: string, t: GoValue) => {
      try {
        return addDuration(t as GoTime, parseDuration(fmt));
      } catch {
        return t;
      }
    },
    ['string', 'time'],
  );
  const mustDateModify = F((fmt: string, t: GoValue) => addDuration(t as GoTime, parseDuration(fmt)), ['string', 'time']);
  m.set('dateModify', dateModify);
  m.set('date_modify', dateModify);
  m.set('mustDateModify', mustDateModify);
  m.set('must_date_modify', mustDateModify);
  m.set(
    'duration',
    F(
      (v: GoValue) => {
        let n = 0n;
        if (typeof v === 'string') n = /^[+-]?\d+$/.test(v) && BigInt.asIntN(64, BigInt(v)) === BigInt(v) ? BigInt(v) : 0n;
        else if (v instanceof GoInt64) n = v.v;
        return durationString(BigInt.asIntN(64, n * 1000000000n)); // Duration arithmetic wraps like Go's int64
      },
      ['any'],
    ),
  );
  m.set('durationRound', F(durationRound, ['any']));
}

/**
 * sprig's durationRound: a string duration, an int64 of nanoseconds or the time since a date (a
 * template's plain int is none of these, so it rounds 0); the largest unit it strictly exceeds.
 */
function durationRound(v: GoValue): string {
  let d = 0n;
  if (typeof v === 'string') {
    try {
      d = parseDuration(v);
    } catch {
      d = 0n;
    }
  } else if (v instanceof GoInt64) d = v.v;
  else if (v instanceof GoTime) d = BigInt(Date.now() - v.ms) * 1000000n;
  const u = BigInt.asUintN(64, d < 0n ? -d : d);
  const H = 3600000000000n;
  const units: [bigint, string][] = [
    [H * 24n * 365n, 'y'],
    [H * 24n * 30n, 'mo'],
    [H * 24n, 'd'],
    [H, 'h'],
    [60000000000n, 'm'],
    [1000000000n, 's'],
  ];
  for (const [unit, name] of units) if (u > unit) return `${u / unit}${name}`;
  return '0s';
}

/** path.Base … and their filepath twins osBase …, the same functions on the controller's Linux. */
function addPathFuncs(m: FuncMap): void {
  const paths: [string, (p: string) => GoValue][] = [
    ['base', basePath],
    ['dir', dirPath],
    ['clean', cleanPath],
    ['ext', extPath],
    ['isAbs', (p) => p.startsWith('/')],
  ];
  for (const [name, impl] of paths)
    m.set(
      name,
      F((p: string) => impl(p), ['string']),
    );
  for (const [name] of paths) m.set(`os${name[0].toUpperCase()}${name.slice(1)}`, m.get(name)!);
}

/** urlParse and urlJoin, on Go's net/url (url.ts). */
function addURLFuncs(m: FuncMap): void {
  m.set('urlParse', F(urlParse, ['string']));
  m.set('urlJoin', F(urlJoin, ['map']));
}

/** sprig's urlParse: the parts of a URL as a dict. */
function urlParse(s: string): GoMap {
  let u: GoURL;
  try {
    u = parseURL(s);
  } catch (e) {
    throw new Error(`unable to parse url: ${(e as Error).message}`);
  }
  const out = new GoMap();
  out.set('scheme', u.scheme);
  out.set('host', u.host);
  out.set('hostname', hostname(u.host));
  out.set('path', u.path);
  out.set('query', u.rawQuery);
  out.set('opaque', u.opaque);
  out.set('fragment', u.fragment);
  out.set('userinfo', u.user ? userinfoString(u.user) : '');
  return out;
}

/** sprig's urlJoin: a URL from a dict of its parts, each a string. */
function urlJoin(d: GoValue): string {
  const dict = d as GoMap;
  const get = (k: string): string => {
    if (!dict.has(k)) return '';
    const v = dict.get(k)!;
    if (v === null) throw new Error(NIL_DEREF);
    if (typeof v !== 'string') throw new Error(`unable to parse ${k} key, must be of type string, but ${kindName(v)} found`);
    return v;
  };
  const u: GoURL = {
    scheme: get('scheme'),
    host: get('host'),
    path: get('path'),
    rawQuery: get('query'),
    opaque: get('opaque'),
    fragment: get('fragment'),
    forceQuery: false,
    omitHost: false,
  };
  const info = get('userinfo');
  if (info !== '') {
    try {
      u.user = parseURL(`proto://${info}@host`).user;
    } catch (e) {
      throw new Error(`unable to parse userinfo in dict: ${(e as Error).message}`);
    }
  }
  return urlString(u);
}

/** uuidv4, rand* and shuffle: a different result on every render. */
function addRandomFuncs(m: FuncMap): void {
  m.set(
    'uuidv4',
    F(() => randomUUID(), [], undefined, true),
  );
  m.set(
    'randAlphaNum',
    F((n: bigint) => randomString(Number(n), 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), ['int'], undefined, true),
  );
  m.set(
    'randAlpha',
    F((n: bigint) => randomString(Number(n), 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), ['int'], undefined, true),
  );
  m.set(
    'randNumeric',
    F((n: bigint) => randomString(Number(n), '0123456789'), ['int'], undefined, true),
  );
  m.set(
    'randAscii',
    F(
      (n: bigint) => randomString(Number(n), Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('')),
      ['int'],
      undefined,
      true,
    ),
  );
  m.set(
    'randBytes',
    F(
      (n: bigint) => {
        chargeBuild('string', 4 * Math.ceil(Number(n) / 3)); // its base64, before the bytes are drawn
        return randomBytes(Number(n)).toString('base64');
      },
      ['int'],
      undefined,
      true,
    ),
  );
  m.set(
    'shuffle',
    F((s: string) => [...s].sort(() => Math.random() - 0.5).join(''), ['string'], undefined, true),
  );
}
