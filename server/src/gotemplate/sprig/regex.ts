/**
 * Sprig's regex functions (`regex.go`) on RE2 via re2js: Go syntax, linear time, no catastrophic
 * backtracking. Replacement strings use Go's Regexp.Expand rules: `$name` takes the longest run of
 * letters, digits and `_` (so `$1x` names group "1x" and expands to nothing), `${name}`, `$$`.
 */
import { RE2, type RE2JS } from './lazy';
import { type FuncMap, type GoFunc, goFunc as F } from '../funcs';
import type { GoValue } from '../values';
import { goQuote } from '../format';
import { charge, valueLimitError, valueLimits } from '../budget';

const cache = new Map<string, RE2JS | Error>();

/** regexp's quote(): backquoted when strconv.CanBackquote allows it, else strconv.Quote. */
function regexpQuote(s: string): string {
  const canBackquote = !/[`\u0000-\u0008\u000a-\u001f\u007f\ufeff\udc80-\udcff]/.test(s);
  return canBackquote ? '`' + s + '`' : goQuote(s);
}

/**
 * regexp.Compile. The must* functions return its error as it is; the others call MustCompile, whose
 * panic says `regexp: Compile("…"): …`.
 */
function compile(re: string, must = false): RE2JS {
  let r = cache.get(re);
  if (r === undefined) {
    try {
      r = RE2().compile(re);
    } catch (e) {
      r = new Error((e as Error).message);
    }
    if (cache.size > 500) cache.clear();
    cache.set(re, r);
  }
  if (r instanceof Error) throw new Error(must ? r.message : `regexp: Compile(${regexpQuote(re)}): ${r.message}`);
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
    const start = m.start(),
      end = m.end();
    if (start === end && start === prevEnd) continue; // Go: no empty match right after a match
    const groups: (string | null)[] = [];
    for (let i = 0; i <= m.groupCount(); i++) groups.push(m.group(i));
    charge(1 + groups.length); // every match is a value built: many matches end at the work limit, said, never cut
    out.push({ start, end, groups });
    prevEnd = end;
    if (n > 0 && out.length >= n) break;
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
    // Checked as it grows: a short match replaced by a long text many times stops at the value limit.
    if (out.length > valueLimits.string) throw valueLimitError('string', out.length + (s.length - last), true);
  }
  return out + s.slice(last);
}

/** Regexp.Split */
function split(re: RE2JS, s: string, n: number): string[] {
  if (n === 0) return [];
  if (re.pattern() !== '' && s === '') return [''];
  const out: string[] = [];
  let beg = 0,
    end = 0;
  for (const m of findAll(re, s, n)) {
    if (n > 0 && out.length === n - 1) break;
    end = m.start;
    if (m.end !== 0) out.push(s.slice(beg, end));
    beg = m.end;
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

export function regexFuncs(): FuncMap {
  const m: FuncMap = new Map();
  // Each function twice: plain (MustCompile's panic text) and must* (the Compile error itself).
  const both = (name: string, params: GoFunc['params'], impl: (compileRe: (re: string) => RE2JS, ...a: any[]) => GoValue) => {
    m.set(
      name,
      F((...a: any[]) => impl((re) => compile(re), ...a), params),
    );
    m.set(
      'must' + name[0].toUpperCase() + name.slice(1),
      F((...a: any[]) => impl((re) => compile(re, true), ...a), params),
    );
  };
  // regexMatch alone swallows the error (regexp.MatchString): an invalid pattern matches nothing.
  m.set(
    'regexMatch',
    F(
      (re: string, s: string) => {
        try {
          return compile(re).matcher(s).find();
        } catch {
          return false;
        }
      },
      ['string', 'string'],
    ),
  );
  m.set(
    'mustRegexMatch',
    F((re: string, s: string) => compile(re, true).matcher(s).find(), ['string', 'string']),
  );
  both('regexFindAll', ['string', 'string', 'int'], (c, re: string, s: string, n: bigint) =>
    findAll(c(re), s, Number(n)).map((x) => x.groups[0] ?? ''),
  );
  both('regexFind', ['string', 'string'], (c, re: string, s: string) => findAll(c(re), s, 1)[0]?.groups[0] ?? '');
  both('regexReplaceAll', ['string', 'string', 'string'], (c, re: string, s: string, repl: string) => {
    const r = c(re);
    return replaceAll(r, s, (x) => expand(repl, r, x));
  });
  both('regexReplaceAllLiteral', ['string', 'string', 'string'], (c, re: string, s: string, repl: string) =>
    replaceAll(c(re), s, () => repl),
  );
  both('regexSplit', ['string', 'string', 'int'], (c, re: string, s: string, n: bigint) => split(c(re), s, Number(n)));
  m.set(
    'regexQuoteMeta',
    F((s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&'), ['string']),
  );
  return m;
}
