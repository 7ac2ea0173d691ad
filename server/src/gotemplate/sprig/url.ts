/**
 * sprig's `urlParse` and `urlJoin` (sprig `url.go`) on our own implementation of Go's net/url rules:
 * url.Parse accepts relative references (`guestbook`, `//host/x`, `/p?q`), splits `#` first, reads
 * a scheme only when it starts with a letter, keeps rootless paths after a scheme as opaque, and
 * checks hosts, ports and %-escapes with Go's error texts; URL.String escapes as Go does.
 */
import { goQuote } from '../format';
import { goString, utf8Bytes } from '../values';

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'fragment';

const isAlnum = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'path':
        return ch === '?';
      case 'userPassword':
        return '@/?:'.includes(ch);
      case 'fragment':
        return false;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

export function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of utf8Bytes(s)) out += shouldEscape(b, mode) ? '%' + b.toString(16).toUpperCase().padStart(2, '0') : String.fromCharCode(b);
  // Only ASCII is written as itself, so the result is plain text.
  return out;
}

class UrlError extends Error {}

function unescape(s: string, mode: Mode): string {
  const b = utf8Bytes(s);
  let n = 0;
  for (let i = 0; i < b.length;) {
    if (b[i] === 0x25) {
      n++;
      if (i + 2 >= b.length || !isHex(b[i + 1]) || !isHex(b[i + 2]))
        throw new UrlError(`invalid URL escape ${goQuote(goString(b.subarray(i, i + 3)))}`);
      const v = parseInt(String.fromCharCode(b[i + 1], b[i + 2]), 16);
      const seq = String.fromCharCode(b[i], b[i + 1], b[i + 2]);
      if (mode === 'host' && v < 0x80 && seq !== '%25') throw new UrlError(`invalid URL escape ${goQuote(seq)}`);
      if (mode === 'zone' && seq !== '%25' && v !== 0x20 && shouldEscape(v, 'host'))
        throw new UrlError(`invalid URL escape ${goQuote(seq)}`);
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && b[i] < 0x80 && shouldEscape(b[i], mode))
        throw new UrlError(`invalid character ${goQuote(String.fromCharCode(b[i]))} in host name`);
      i++;
    }
  }
  if (n === 0) return s;
  const out: number[] = [];
  for (let i = 0; i < b.length; i++) {
    if (b[i] === 0x25) {
      out.push(parseInt(String.fromCharCode(b[i + 1], b[i + 2]), 16));
      i += 2;
    } else out.push(b[i]);
  }
  return goString(Buffer.from(out));
}

const validOptionalPort = (p: string) => p === '' || /^:[0-9]*$/.test(p);

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${goQuote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, i), 'zone') + unescape(host.slice(i), 'host');
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1 && !validOptionalPort(host.slice(i))) throw new UrlError(`invalid port ${goQuote(host.slice(i))} after host`);
  }
  return unescape(host, 'host');
}

export interface GoURL {
  scheme: string;
  opaque: string;
  user?: { username: string; password?: string };
  host: string;
  path: string;
  rawQuery: string;
  forceQuery: boolean;
  fragment: string;
  omitHost: boolean;
}

function parseAuthority(authority: string): { user?: GoURL['user']; host: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return { host };
  const info = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(info)) throw new UrlError('net/url: invalid userinfo');
  const colon = info.indexOf(':');
  if (colon < 0) return { user: { username: unescape(info, 'userPassword') }, host };
  return {
    user: { username: unescape(info.slice(0, colon), 'userPassword'), password: unescape(info.slice(colon + 1), 'userPassword') },
    host,
  };
}

function parseNoFragment(raw: string): GoURL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new UrlError('net/url: invalid control character in URL');
  const u: GoURL = { scheme: '', opaque: '', host: '', path: '', rawQuery: '', forceQuery: false, fragment: '', omitHost: false };
  if (raw === '*') return { ...u, path: '*' };
  let rest = raw;
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(raw);
  if (raw.startsWith(':')) throw new UrlError('missing protocol scheme');
  if (m) {
    u.scheme = m[0].slice(0, -1).toLowerCase();
    rest = raw.slice(m[0].length);
  }
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme) return { ...u, opaque: rest };
    if (rest.split('/')[0].includes(':')) throw new UrlError('first path segment in URL cannot contain colon');
  }
  if ((u.scheme || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const a = parseAuthority(authority);
    u.user = a.user;
    u.host = a.host;
  } else if (u.scheme && rest.startsWith('/')) u.omitHost = true;
  u.path = unescape(rest, 'path');
  return u;
}

/** url.Parse; throws Go's `parse "…": …` error text. */
export function parseURL(raw: string): GoURL {
  const hash = raw.indexOf('#');
  const head = hash < 0 ? raw : raw.slice(0, hash);
  let u: GoURL;
  try {
    u = parseNoFragment(head);
  } catch (e) {
    if (e instanceof UrlError) throw new Error(`parse ${goQuote(head)}: ${e.message}`);
    throw e;
  }
  if (hash >= 0) {
    try {
      u.fragment = unescape(raw.slice(hash + 1), 'fragment');
    } catch (e) {
      if (e instanceof UrlError) throw new Error(`parse ${goQuote(raw)}: ${e.message}`);
      throw e;
    }
  }
  return u;
}

export function userinfoString(user: NonNullable<GoURL['user']>): string {
  return escape(user.username, 'userPassword') + (user.password !== undefined ? ':' + escape(user.password, 'userPassword') : '');
}

/** URL.Hostname(): the host without its port and IPv6 brackets. */
export function hostname(host: string): string {
  let h = host;
  const colon = h.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(h.slice(colon))) h = h.slice(0, colon);
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h;
}

/** URL.String() */
export function urlString(u: GoURL): string {
  let out = '';
  if (u.scheme) out += u.scheme + ':';
  if (u.opaque) out += u.opaque;
  else {
    if (u.scheme || u.host || u.user) {
      if (!(u.omitHost && !u.host && !u.user)) {
        if (u.host || u.path || u.user) out += '//';
        if (u.user) out += userinfoString(u.user) + '@';
        if (u.host) out += escape(u.host, 'host');
      }
    }
    const path = u.path === '*' ? '*' : escape(u.path, 'path');
    if (path && path[0] !== '/' && u.host) out += '/';
    if (out === '' && path.split('/')[0].includes(':')) out += './';
    out += path;
  }
  if (u.forceQuery || u.rawQuery) out += '?' + u.rawQuery;
  if (u.fragment) out += '#' + escape(u.fragment, 'fragment');
  return out;
}
