/**
 * The rest of sprig: dates (`date.go`, Go layouts, the controller's local zone is UTC; zones in
 * zones.ts), paths (`path` and `filepath`), URLs and random strings. Functions whose output changes
 * on every render are marked nonDeterministic. Semver is in semver.ts, secrets in crypto.ts and
 * certs.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FuncMap, GoFunc } from '../funcs';
import { GoInt64, GoMap, GoOther, GoTime, type GoValue } from '../values';
import { kindName, toInt64 } from './cast';
import { hostname, parseURL, urlString, userinfoString, type GoURL } from './url';
import { UTC, zoneAt, type Zone } from './zones';

const F = (impl: (...a: any[]) => GoValue, params: GoFunc['params'], variadic?: GoFunc['variadic'], nonDeterministic?: boolean): GoFunc => ({ params, variadic, impl, nonDeterministic });

// ---- dates -----------------------------------------------------------------------------------
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const TOKENS = ['January', 'Monday', '2006', '-07:00:00', '-070000', '-07:00', '-0700', 'Z07:00:00', 'Z070000', 'Z07:00', 'Z0700', 'Z07', 'MST', '002', '_2', '01', '02', '03', '04', '05', '06', '15', 'Jan', 'Mon', 'PM', 'pm', '-07', '1', '2', '3', '4', '5'];

/** time.Time.Format with a Go layout, in `zone` (UTC unless given). */
export function formatLayout(t: GoTime, layout: string, zone: Zone = UTC): string {
  const d = new Date(t.ms + zone.offset * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const Y = d.getUTCFullYear(), M = d.getUTCMonth(), D = d.getUTCDate(), h = d.getUTCHours(), mi = d.getUTCMinutes(), s = d.getUTCSeconds();
  const ns = ((t.ms % 1000) + 1000) % 1000 * 1e6 + t.nsec;
  let out = '';
  for (let i = 0; i < layout.length; ) {
    const frac = /^[.,](0+|9+)/.exec(layout.slice(i));
    if (frac && !/\d/.test(layout[i + frac[0].length] ?? '')) {
      const digits = frac[1].length;
      const str = String(ns).padStart(9, '0').slice(0, digits);
      out += frac[1][0] === '0' ? layout[i] + str : str.replace(/0+$/, '') ? layout[i] + str.replace(/0+$/, '') : '';
      i += frac[0].length;
      continue;
    }
    const tok = TOKENS.find((k) => layout.startsWith(k, i));
    if (!tok) {
      out += layout[i++];
      continue;
    }
    i += tok.length;
    switch (tok) {
      case 'January': out += MONTHS[M]; break;
      case 'Jan': out += MONTHS[M].slice(0, 3); break;
      case 'Monday': out += DAYS[d.getUTCDay()]; break;
      case 'Mon': out += DAYS[d.getUTCDay()].slice(0, 3); break;
      case '2006': out += p(Y, 4); break;
      case '06': out += p(Y % 100); break;
      case '01': out += p(M + 1); break;
      case '1': out += String(M + 1); break;
      case '02': out += p(D); break;
      case '_2': out += String(D).padStart(2, ' '); break;
      case '2': out += String(D); break;
      case '002': out += p(Math.floor((Date.UTC(Y, M, D) - Date.UTC(Y, 0, 1)) / 86400000) + 1, 3); break;
      case '15': out += p(h); break;
      case '03': out += p(h % 12 || 12); break;
      case '3': out += String(h % 12 || 12); break;
      case '04': out += p(mi); break;
      case '4': out += String(mi); break;
      case '05': out += p(s); break;
      case '5': out += String(s); break;
      case 'PM': out += h >= 12 ? 'PM' : 'AM'; break;
      case 'pm': out += h >= 12 ? 'pm' : 'am'; break;
      case 'MST': out += zone.abbr; break;
      case 'Z07:00': case 'Z0700': case 'Z07': out += zone.offset === 0 ? 'Z' : offsetText(zone.offset, tok.length > 3 && tok.includes(':'), tok === 'Z07' ? 'h' : 'hm'); break;
      case '-07:00': out += offsetText(zone.offset, true, 'hm'); break;
      case '-0700': out += offsetText(zone.offset, false, 'hm'); break;
      case '-07:00:00': out += offsetText(zone.offset, true, 'hms'); break;
      case '-070000': out += offsetText(zone.offset, false, 'hms'); break;
      case 'Z07:00:00': case 'Z070000': out += zone.offset === 0 ? 'Z' : offsetText(zone.offset, tok.includes(':'), 'hms'); break;
      case '-07': out += offsetText(zone.offset, false, 'h'); break;
    }
  }
  return out;
}

/** A zone offset as Go's layouts print it: sign, hours, then minutes and seconds as asked. */
function offsetText(offset: number, colons: boolean, parts: 'h' | 'hm' | 'hms'): string {
  const a = Math.abs(offset);
  const p = (n: number) => String(n).padStart(2, '0');
  const fields = [p(Math.floor(a / 3600)), p(Math.floor((a % 3600) / 60)), p(a % 60)].slice(0, parts.length);
  return (offset < 0 ? '-' : '+') + fields.join(colons ? ':' : '');
}

function toTime(v: GoValue): GoTime {
  if (v instanceof GoTime) return v;
  if (typeof v === 'bigint' || v instanceof GoInt64) return new GoTime(Number(toInt64(v)) * 1000);
  return new GoTime(Date.now()); // sprig: any other type formats "now"
}

/** Parses with a Go layout, for the common numeric layouts; throws Go's error otherwise. */
export function parseLayout(layout: string, value: string): GoTime {
  const parts: string[] = [];
  let re = '';
  for (let i = 0; i < layout.length; ) {
    const tok = TOKENS.find((k) => layout.startsWith(k, i));
    if (!tok) {
      re += layout[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
      continue;
    }
    i += tok.length;
    parts.push(tok);
    re += tok === 'January' ? `(${MONTHS.join('|')})` : tok === 'Jan' ? `(${MONTHS.map((m) => m.slice(0, 3)).join('|')})` : tok === 'Monday' ? `(${DAYS.join('|')})` : tok === 'Mon' ? `(${DAYS.map((m) => m.slice(0, 3)).join('|')})` : tok === 'MST' ? '([A-Z]{3,4})' : tok === 'PM' || tok === 'pm' ? '(AM|PM|am|pm)' : /Z|-07/.test(tok) ? '(Z|[+-]\\d\\d:?\\d\\d(?::?\\d\\d)?|[+-]\\d\\d)' : tok === '_2' ? '( ?\\d{1,2})' : tok === '2006' ? '(\\d{4})' : '(\\d{1,3})';
  }
  const m = new RegExp(`^${re}(?:\\.(\\d+))?$`).exec(value);
  if (!m) throw new Error(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(value)} as ${JSON.stringify(layout)}`);
  let Y = 1, Mo = 0, D = 1, h = 0, mi = 0, s = 0, off = 0, pm: boolean | undefined;
  parts.forEach((tok, i) => {
    const v = m[i + 1];
    switch (tok) {
      case '2006': Y = Number(v); break;
      case '06': Y = 2000 + Number(v) - (Number(v) >= 69 ? 100 : 0); break;
      case '01': case '1': Mo = Number(v) - 1; break;
      case 'January': Mo = MONTHS.indexOf(v); break;
      case 'Jan': Mo = MONTHS.findIndex((x) => x.startsWith(v)); break;
      case '02': case '2': case '_2': D = Number(v.trim()); break;
      case '15': h = Number(v); break;
      case '03': case '3': h = Number(v) % 12; break;
      case '04': case '4': mi = Number(v); break;
      case '05': case '5': s = Number(v); break;
      case 'PM': case 'pm': pm = /pm/i.test(v); break;
      default:
        if (/Z|-07/.test(tok) && v !== 'Z') {
          const z = /([+-])(\d\d):?(\d\d)?/.exec(v)!;
          off = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3] ?? 0));
        }
    }
  });
  if (pm) h += 12;
  const frac = m[parts.length + 1] ?? '';
  const ns = Number((frac + '000000000').slice(0, 9));
  const ms = Date.UTC(Y, Mo, D, h, mi, s) - off * 60000 + Math.floor(ns / 1e6);
  return new GoTime(ms, ns % 1e6);
}

/** time.ParseDuration, in seconds. */
function parseGoDuration(s: string): number | undefined {
  const mult: Record<string, number> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  const m = /^([+-])?((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (!m) return s === '0' ? 0 : undefined;
  let total = 0;
  for (const part of s.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * mult[part[2]];
  return m[1] === '-' ? -total : total;
}

function durationString(ns: bigint): string {
  // time.Duration.String
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1000000000n) {
    const units: [bigint, string][] = [[1000000n, 'ms'], [1000n, 'µs'], [1n, 'ns']];
    const [div, name] = units.find(([d]) => u >= d)!;
    const whole = u / div, rest = u % div;
    const fracDigits = div === 1n ? '' : String(rest).padStart(String(div).length - 1, '0').replace(/0+$/, '');
    out = `${whole}${fracDigits ? '.' + fracDigits : ''}${name}`;
  } else {
    const h = u / 3600000000000n;
    u %= 3600000000000n;
    const mi = u / 60000000000n;
    u %= 60000000000n;
    const sec = u / 1000000000n, frac = String(u % 1000000000n).padStart(9, '0').replace(/0+$/, '');
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
  const bytes = randomBytes(Math.max(0, n));
  let s = '';
  for (const b of bytes) s += alphabet[b % alphabet.length];
  return s;
}

export function miscFuncs(): FuncMap {
  const m: FuncMap = new Map();
  m.set('hello', F(() => 'Hello!', []));
  m.set('now', F(() => new GoTime(Date.now()), [], undefined, true));
  m.set('ago', F((v: GoValue) => durationString(BigInt(Date.now() - toTime(v).ms) * 1000000n).replace(/\.\d+/, ''), ['any'], undefined, true));
  m.set('date', F((fmt: string, v: GoValue) => formatLayout(toTime(v), fmt), ['string', 'any']));
  const inZone = (fmt: string, v: GoValue, zone: string) => {
    const t = toTime(v);
    return formatLayout(t, fmt, zoneAt(zone, t.ms) ?? UTC);
  };
  m.set('dateInZone', F(inZone, ['string', 'any', 'string']));
  m.set('date_in_zone', m.get('dateInZone')!);
  m.set('htmlDate', F((v: GoValue) => formatLayout(toTime(v), '2006-01-02'), ['any']));
  m.set('htmlDateInZone', F((v: GoValue, zone: string) => inZone('2006-01-02', v, zone), ['any', 'string']));
  m.set('unixEpoch', F((t: GoValue) => String(Math.floor((t as GoTime).ms / 1000)), ['time']));
  m.set('toDate', F((fmt: string, s: string) => {
    try {
      return parseLayout(fmt, s);
    } catch {
      return new GoTime(Date.UTC(1, 0, 1) - 0);
    }
  }, ['string', 'string']));
  m.set('mustToDate', F((fmt: string, s: string) => parseLayout(fmt, s), ['string', 'string']));
  const dateModify = F((fmt: string, t: GoValue) => {
    const m2 = /^([+-]?\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)$/.exec(fmt);
    if (!m2) throw new Error(`time: invalid duration ${JSON.stringify(fmt)}`);
    const mult: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
    return new GoTime((t as GoTime).ms + Number(m2[1]) * mult[m2[2]], (t as GoTime).nsec);
  }, ['string', 'time']);
  m.set('dateModify', dateModify);
  m.set('date_modify', dateModify);
  m.set('mustDateModify', dateModify);
  m.set('must_date_modify', dateModify);
  m.set('duration', F((v: GoValue) => {
    let n = 0n;
    if (typeof v === 'string') n = /^[+-]?\d+$/.test(v) ? BigInt(v) : 0n;
    else if (v instanceof GoInt64) n = v.v;
    return durationString(n * 1000000000n);
  }, ['any']));
  m.set('durationRound', F((v: GoValue) => {
    let secs = 0;
    if (typeof v === 'string') secs = parseGoDuration(v) ?? 0;
    else if (typeof v === 'bigint' || v instanceof GoInt64) secs = Number(toInt64(v));
    else if (v instanceof GoTime) secs = (Date.now() - v.ms) / 1000;
    const u = Math.abs(secs);
    const units: [number, string][] = [[31536000, 'y'], [2592000, 'mo'], [86400, 'd'], [3600, 'h'], [60, 'm'], [1, 's']];
    for (const [d, name] of units) if (u >= d) return `${Math.floor(u / d)}${name}`;
    return '0s';
  }, ['any']));
  m.set('base', F((p: string) => basePath(p), ['string']));
  m.set('dir', F((p: string) => dirPath(p), ['string']));
  m.set('clean', F((p: string) => cleanPath(p), ['string']));
  m.set('ext', F((p: string) => extPath(p), ['string']));
  m.set('isAbs', F((p: string) => p.startsWith('/'), ['string']));
  m.set('osBase', m.get('base')!);
  m.set('osDir', m.get('dir')!);
  m.set('osClean', m.get('clean')!);
  m.set('osExt', m.get('ext')!);
  m.set('osIsAbs', m.get('isAbs')!);
  m.set('urlParse', F((s: string) => {
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
  }, ['string']));
  m.set('urlJoin', F((d: GoValue) => {
    const dict = d as GoMap;
    const get = (k: string): string => {
      if (!dict.has(k)) return '';
      const v = dict.get(k)!;
      if (v === null) throw new Error('runtime error: invalid memory address or nil pointer dereference');
      if (typeof v !== 'string') throw new Error(`unable to parse ${k} key, must be of type string, but ${kindName(v)} found`);
      return v;
    };
    const u: GoURL = { scheme: get('scheme'), host: get('host'), path: get('path'), rawQuery: get('query'), opaque: get('opaque'), fragment: get('fragment'), forceQuery: false, omitHost: false };
    const info = get('userinfo');
    if (info !== '') {
      try {
        u.user = parseURL(`proto://${info}@host`).user;
      } catch (e) {
        throw new Error(`unable to parse userinfo in dict: ${(e as Error).message}`);
      }
    }
    return urlString(u);
  }, ['map']));
  m.set('uuidv4', F(() => randomUUID(), [], undefined, true));
  m.set('randAlphaNum', F((n: bigint) => randomString(Number(n), 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), ['int'], undefined, true));
  m.set('randAlpha', F((n: bigint) => randomString(Number(n), 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), ['int'], undefined, true));
  m.set('randNumeric', F((n: bigint) => randomString(Number(n), '0123456789'), ['int'], undefined, true));
  m.set('randAscii', F((n: bigint) => randomString(Number(n), Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('')), ['int'], undefined, true));
  m.set('randBytes', F((n: bigint) => randomBytes(Number(n)).toString('base64'), ['int'], undefined, true));
  m.set('shuffle', F((s: string) => [...s].sort(() => Math.random() - 0.5).join(''), ['string'], undefined, true));
  return m;
}
