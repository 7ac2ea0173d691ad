/**
 * The glob dialects (`rules/globs.ts`) on the linear machine (`rules/globMachine.ts`): the same answers
 * as a backtracking regular expression of the same rules on every short generated pair (where the
 * regular expression finishes), git's own `ls-files` for pathspecs, and work that grows linearly with
 * the name on the pattern that made the old matchers backtrack (counted in steps, never timed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { doublestarMatch, gitPathspecMatch, goPathMatch } from '../../../../server/src/engine/rules/globs';
import { globWork } from '../../../../server/src/engine/rules/globMachine';
import { seededRandom } from '../../../helpers/random';
import { git, writeFiles } from '../../../helpers/cli';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const words = (r: () => number, parts: readonly string[], max: number) =>
  Array.from({ length: Math.floor(r() * (max + 1)) }, () => pick(r, parts)).join('');
const esc = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const escClass = (c: string) => c.replace(/[\]\\^-]/g, '\\$&');

/** path.Match as an anchored RegExp (the translation the git generator used before the machine). */
function goRegExp(pattern: string): RegExp | undefined {
  const p = [...pattern];
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      if (i + 1 >= p.length) return undefined;
      re += esc(p[++i]);
    } else if (c === '[') {
      let j = i + 1;
      const neg = p[j] === '^';
      if (neg) j++;
      const item = (): string | undefined => {
        let x = p[j];
        if (x === undefined || x === '-' || x === ']') return undefined;
        if (x === '\\' && (x = p[++j]) === undefined) return undefined;
        if (++j >= p.length) return undefined;
        return x;
      };
      const parts: string[] = [];
      for (;;) {
        if (p[j] === ']' && parts.length) break;
        const lo = item();
        if (lo === undefined) return undefined;
        let hi = lo;
        if (p[j] === '-') {
          j++;
          const h = item();
          if (h === undefined) return undefined;
          hi = h;
        }
        parts.push(lo <= hi ? `${escClass(lo)}-${escClass(hi)}` : '');
      }
      const body = parts.join('');
      re += neg ? (body ? `[^${body}]` : '[\\s\\S]') : body ? `[${body}]` : '[^\\s\\S]';
      i = j;
    } else re += esc(c);
  }
  return new RegExp(`^${re}$`, 'su');
}

test('path.Match: the machine answers as the regular expression on 20,000 generated pairs (path/match.go)', () => {
  const r = seededRandom(25);
  const pat = ['a', 'b', '/', '*', '?', '[ab]', '[^a]', '[a-b]', '[b-a]', '\\*', '\\a', '[', ']', '[]', '\\', '-', '[^]', '[\\]]', '.'];
  const nam = ['a', 'b', '/', '*', '-', ']', '.', 'é'];
  let checked = 0;
  for (let n = 0; n < 20000; n++) {
    const p = words(r, pat, 6);
    const s = words(r, nam, 8);
    const re = goRegExp(p);
    const m = goPathMatch(p);
    assert.equal(m === undefined, re === undefined, `${p}: malformed in one only`);
    if (m && re) {
      assert.equal(m(s), re.test(s), `${JSON.stringify(p)} ~ ${JSON.stringify(s)}`);
      checked++;
    }
  }
  assert.ok(checked > 10000, `${checked} well-formed pairs`);
});

/** doublestar as a RegExp: the same component rules for `**`, written as an alternative translation. */
function doublestarRegExp(pattern: string): RegExp {
  const comps = pattern.split('/');
  let re = '';
  comps.forEach((c, k) => {
    const last = k === comps.length - 1;
    if (c === '**') re += last ? '[^]*' : '(?:[^]*/)?';
    else {
      let part = '';
      for (let i = 0; i < c.length; i++) {
        const x = c[i];
        if (x === '*') {
          while (c[i + 1] === '*') i++;
          part += '[^/]*';
        } else if (x === '?') part += '[^/]';
        else if (x === '\\') part += esc(c[++i]);
        else if (x === '[') {
          const end = c.indexOf(']', i + 2);
          const body = c.slice(i + 1, end);
          part += body[0] === '!' ? `(?!/)[^${body.slice(1)}]` : `[${body}]`;
          i = end;
        } else if (x === '{') {
          const end = c.indexOf('}', i);
          part += `(?:${c
            .slice(i + 1, end)
            .split(',')
            .map((a) => [...a].map(esc).join(''))
            .join('|')})`;
          i = end;
        } else part += esc(x);
      }
      re += part + (last ? '' : '/');
    }
  });
  return new RegExp(`^${re}$`, 'su');
}

test('doublestar: the machine answers as the regular expression on 20,000 generated pairs (bmatcuk/doublestar v4)', () => {
  const r = seededRandom(26);
  const comp = ['a', 'b', '*', '?', '[ab]', '[!a]', '{a,b}', '{ab,}', '\\*', '.'];
  const nam = ['a', 'b', '/', '*', '.', 'ab'];
  for (let n = 0; n < 20000; n++) {
    const p = Array.from({ length: 1 + Math.floor(r() * 4) }, () => (r() < 0.25 ? '**' : words(r, comp, 3) || 'a')).join('/');
    const s = words(r, nam, 8);
    assert.equal(doublestarMatch(p)(s), doublestarRegExp(p).test(s), `${JSON.stringify(p)} ~ ${JSON.stringify(s)}`);
  }
});

test('doublestar: components, alternatives, dot files and malformed patterns', () => {
  const m = (p: string, s: string) => doublestarMatch(p)(s);
  assert.equal(m('p1/**/config.json', 'p1/config.json'), true, '** is zero or more directories');
  assert.equal(m('p1/**/config.json', 'p1/a/b/config.json'), true);
  assert.equal(m('p1/*.json', 'p1/a/x.json'), false, '* stays in one directory');
  assert.equal(m('a**b', 'ax/b'), false, '** inside a component is *');
  assert.equal(m('a/**', 'a/b/c'), true);
  assert.equal(m('**/x', 'x'), true);
  assert.equal(m('*', '.hidden'), true, 'dot files are ordinary');
  assert.equal(m('{a,b/c}/d', 'b/c/d'), true, 'alternatives may hold /');
  assert.equal(m('{a,{b,c}}x', 'cx'), true, 'nested alternatives');
  assert.equal(m('[!a]', 'b'), true);
  assert.equal(m('[!a]', '/'), false, 'a class stays in its component');
  for (const bad of ['a[', 'a{b', 'a\\', '[]', '[-a]']) assert.equal(m(bad, bad), false, `${bad} is malformed: matches nothing`);
});

test('git pathspecs: the machine lists what `git ls-files -- <pattern>` lists (dir.c, wildmatch.c)', (t) => {
  if (spawnSync('git', ['--version']).status !== 0) return t.skip('git is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'globs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = ['ab', 'ba', 'aab', 'a]b', 'a[b', 'a*b', 'a-b', 'a:b', 'a/ab', 'a/b/ab', 'a/b/aab', 'b/ba', 'b/a]b', 'ab.d/x', '.a/b'];
  writeFiles(dir, Object.fromEntries(files.map((f) => [f, ''])));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  const r = seededRandom(28);
  const parts = [
    'a',
    'b',
    '/',
    '*',
    '?',
    '[ab]',
    '[!a]',
    '[^b]',
    '[]a]',
    '[a-b]',
    '[b-a]',
    '\\*',
    '\\a',
    '**',
    '[',
    '[:alpha:]',
    '[:nope:]',
    '[[:x]',
    '-',
    ']',
  ];
  for (let n = 0; n < 80; n++) {
    let p = words(r, parts, 5);
    if (!p || p.startsWith('/') || p.startsWith(':')) p = 'a' + p;
    const out = spawnSync('git', ['-c', 'core.quotepath=off', 'ls-files', '-z', '--', p], { cwd: dir, encoding: 'utf8' });
    if (out.status !== 0) continue;
    const want = out.stdout.split('\0').filter(Boolean).sort();
    const m = gitPathspecMatch(p);
    assert.deepEqual(files.filter(m).sort(), want, JSON.stringify(p));
  }
});

test('the pattern that made every matcher backtrack costs work linear in the name (steps, not a clock)', () => {
  const pattern = '*a*a*a*a*a*a*b';
  const cases: [string, (p: string) => ((s: string) => boolean) | undefined][] = [
    ['path.Match', goPathMatch],
    ['pathspec', gitPathspecMatch],
    ['doublestar', doublestarMatch],
  ];
  for (const [name, make] of cases) {
    const m = make(pattern)!;
    const work = (n: number) => {
      const before = globWork.steps;
      assert.equal(m('a'.repeat(n)), false);
      return globWork.steps - before;
    };
    const w200 = work(200);
    const w400 = work(400);
    const w800 = work(800);
    assert.ok(w200 <= 200 * pattern.length * 3, `${name}: ${w200} steps for 200 characters`);
    assert.ok(w400 <= w200 * 2.5 && w800 <= w400 * 2.5, `${name}: ${w200} → ${w400} → ${w800} steps as the name doubles`);
  }
});
