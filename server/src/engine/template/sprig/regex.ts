/**
 * Sprig's regex functions (`regex.go`) on RE2 via re2js: Go syntax, linear time, no catastrophic
 * backtracking. Replacement strings use Go's Regexp.Expand rules: `$name` takes the longest run of
 * letters, digits and `_` (so `$1x` names group "1x" and expands to nothing), `${name}`, `$$`.
 */
import { RE2JS } from 're2js';
import type { FuncMap, GoFunc } from '../funcs';
import type { GoValue } from '../values';

const F = (impl: (...a: any[]) => GoValue, params: GoFunc['params']): GoFunc => ({ params, impl });

const cache = new Map<string, RE2JS>();
function compile(re: string): RE2JS {
  let r = cache.get(re);
  if (r) return r;
  try {
    r = RE2JS.compile(re);
  } catch (e) {
    throw new Error(`regexp: Compile(${JSON.stringify(re)}): ${(e as Error).message.replace(/^error parsing regexp: /, 'error parsing regexp: ')}`);
  }
  if (cache.size > 500) cache.clear();
  cache.set(re, r);
  return r;
}

interface Match {
  start: number;
  end: number;
  groups: (string | null)[];
}

/** All non-overlapping matches, like Go's FindAll (n < 0: all). */
function findAll(re: RE2JS, s: string, n: number): Match[] {
  const out: Match[] = [];
  if (n === 0) return out;
  const m = re.matcher(s);
  let prevEnd = -1;
  while (m.find()) {
    const start = m.start(), end = m.end();
    if (start === end && start === prevEnd) continue; // Go: no empty match right after a match
    const groups: (string | null)[] = [];
    for (let i = 0; i <= m.groupCount(); i++) groups.push(m.group(i));
    out.push({ start, end, groups });
    prevEnd = end;
    if (n > 0 && out.length >= n) break;
    if (out.length > 100000) break;
  }
  return out;
}

function expand(template: string, re: RE2JS, match: Match): string {
  const named = (re.namedGroups?.() ?? {}) as Record<string, number>;
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '$') {
      out += c;
      continue;
    }
    if (template[i + 1] === '$') {
      out += '$';
      i++;
      continue;
    }
    let name = '';
    let j = i + 1;
    if (template[j] === '{') {
      const close = template.indexOf('}', j);
      if (close < 0) {
        out += c;
        continue;
      }
      name = template.slice(j + 1, close);
      j = close + 1;
      if (!/^[\w]+$/.test(name)) {
        out += c;
        continue;
      }
    } else {
      const mm = /^[\p{L}\p{Nd}_]+/u.exec(template.slice(j));
      if (!mm) {
        out += c;
        continue;
      }
      name = mm[0];
      j += name.length;
    }
    const idx = /^\d+$/.test(name) ? Number(name) : named[name];
    if (idx !== undefined && idx < match.groups.length) out += match.groups[idx] ?? '';
    i = j - 1;
  }
  return out;
}

function replaceAll(re: RE2JS, s: string, repl: (m: Match) => string): string {
  let out = '';
  let last = 0;
  for (const m of findAll(re, s, -1)) {
    out += s.slice(last, m.start) + repl(m);
    last = m.end;
  }
  return out + s.slice(last);
}

function split(re: RE2JS, s: string, n: number): string[] {
  // Go's Regexp.Split
  if (n === 0) return [];
  if (re.pattern() === '' ) return [...s].slice(0, n > 0 ? n : undefined);
  const matches = findAll(re, s, n > 0 ? n - 1 : -1);
  const out: string[] = [];
  let beg = 0;
  for (const m of matches) {
    if (m.end === 0) continue;
    out.push(s.slice(beg, m.start));
    beg = m.end;
  }
  out.push(s.slice(beg));
  return out;
}

export function regexFuncs(): FuncMap {
  const m: FuncMap = new Map();
  const both = (name: string, f: GoFunc) => {
    m.set(name, f);
    m.set('must' + name[0].toUpperCase() + name.slice(1), f);
  };
  both('regexMatch', F((re: string, s: string) => compile(re).matcher(s).find(), ['string', 'string']));
  both('regexFindAll', F((re: string, s: string, n: bigint) => findAll(compile(re), s, Number(n)).map((x) => x.groups[0] ?? ''), ['string', 'string', 'int']));
  both('regexFind', F((re: string, s: string) => findAll(compile(re), s, 1)[0]?.groups[0] ?? '', ['string', 'string']));
  both('regexReplaceAll', F((re: string, s: string, repl: string) => {
    const r = compile(re);
    return replaceAll(r, s, (x) => expand(repl, r, x));
  }, ['string', 'string', 'string']));
  both('regexReplaceAllLiteral', F((re: string, s: string, repl: string) => replaceAll(compile(re), s, () => repl), ['string', 'string', 'string']));
  both('regexSplit', F((re: string, s: string, n: bigint) => split(compile(re), s, Number(n)), ['string', 'string', 'int']));
  m.set('regexQuoteMeta', F((s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&'), ['string']));
  return m;
}
