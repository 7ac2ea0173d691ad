/**
 * The three pattern languages of the git generator:
 * - directories: Go `path.Match` (`*` and `?` never cross `/`, `[...]` classes, `\` escapes, whole-path match);
 * - files, default: git pathspec as `git ls-files -- <pattern>` reads it (`*` crosses `/`, so
 *   `p1/**\/config.json` needs at least one directory in between; a plain path also matches everything below it);
 * - files with `--enable-new-git-file-globbing`: doublestar (`**` = zero or more directories, `{a,b}`).
 * (Argo CD `applicationset/generators/git.go`, `util/git/client.go`.)
 */
import picomatch from 'picomatch';

/**
 * Go path.Match compiled to a predicate; undefined when the pattern is malformed (ErrBadPattern:
 * unterminated or empty class, a class starting with `-` or `]`, a trailing `\\`). `*` and `?` never
 * match `/`; a class does (path.Match has no special case for it). Leftmost chunk matching, as Go
 * does it, accepts exactly what this anchored regular expression accepts.
 */
export function goPathMatcher(pattern: string): ((name: string) => boolean) | undefined {
  const chars = [...pattern];
  let re = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      if (i + 1 >= chars.length) return undefined;
      re += escapeRe(chars[++i]);
    } else if (c === '[') {
      const cls = goClass(chars, i + 1);
      if (!cls) return undefined;
      re += cls.re;
      i = cls.end;
    } else re += escapeRe(c);
  }
  const rx = new RegExp(`^${re}$`, 'su');
  return (name) => rx.test(name);
}

/** A path.Match character class starting after `[`; returns the regex and the index of `]`. */
function goClass(chars: string[], start: number): { re: string; end: number } | undefined {
  let i = start;
  let neg = false;
  if (chars[i] === '^') {
    neg = true;
    i++;
  }
  const esc = (): string | undefined => {
    let c = chars[i];
    if (c === undefined || c === '-' || c === ']') return undefined;
    if (c === '\\') {
      c = chars[++i];
      if (c === undefined) return undefined;
    }
    i++;
    if (i >= chars.length) return undefined; // unterminated
    return c;
  };
  const parts: string[] = [];
  let n = 0;
  for (;;) {
    if (chars[i] === ']' && n > 0) break;
    const lo = esc();
    if (lo === undefined) return undefined;
    let hi = lo;
    if (chars[i] === '-') {
      i++;
      const h = esc();
      if (h === undefined) return undefined;
      hi = h;
    }
    n++;
    // A reversed range is legal in Go and matches nothing.
    if (lo.codePointAt(0)! <= hi.codePointAt(0)!) parts.push(lo === hi ? escapeClass(lo) : `${escapeClass(lo)}-${escapeClass(hi)}`);
  }
  const body = parts.join('');
  const re = neg ? (body ? `[^${body}]` : '[\\s\\S]') : body ? `[${body}]` : '[^\\s\\S]';
  return { re, end: i };
}

/**
 * A files pattern as the repo server uses it: git normalises a pathspec before matching
 * (`./clusters.json` → `clusters.json`, `a/../b` → `b`, `a//b` → `a/b`; setup.c prefix_path →
 * path.c normalize_path_copy), and the new globbing joins it to the checkout with Go's
 * filepath.Join, which cleans it the same way (util/git/client.go LsFiles). Undefined when `..`
 * climbs above the repository root (git: "is outside repository").
 */
export function cleanGitPath(pattern: string): string | undefined {
  const out: string[] = [];
  for (const seg of pattern.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/') + (out.length && /\/\.?$/.test(pattern) ? '/' : '');
}

/** git's default pathspec matching of ls-files (wildmatch without FNM_PATHNAME). */
export function gitPathspecMatcher(pattern: string): (path: string) => boolean {
  if (!/[*?[]/.test(pattern)) {
    const p = pattern.replace(/\/+$/, '');
    // `.` (cleaned to ''): the whole repository.
    if (!p) return () => true;
    return (path) => path === p || path.startsWith(p + '/');
  }
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i]);
    else if (c === '[') {
      const cls = readClass(pattern, i, true);
      if (!cls) re += '\\[';
      else {
        re += cls.re;
        i = cls.end;
      }
    } else re += escapeRe(c);
  }
  const rx = new RegExp(`^${re}$`, 'su');
  return (path) => rx.test(path);
}

/** doublestar.Match semantics through picomatch (dot files matched, `**` as a whole component). */
export function doublestarMatcher(pattern: string): (path: string) => boolean {
  // doublestar knows no extglobs, negation or POSIX classes; keep picomatch to the shared subset.
  const m = picomatch(pattern, { dot: true, strictSlashes: true, noextglob: true, nonegate: true, posix: false });
  return (path) => m(path);
}

function readClass(p: string, start: number, lenient = false): { re: string; end: number } | undefined {
  let i = start + 1;
  let neg = false;
  if (p[i] === '^' || (lenient && p[i] === '!')) {
    neg = true;
    i++;
  }
  let body = '';
  let first = true;
  while (i < p.length && (p[i] !== ']' || first)) {
    first = false;
    let c = p[i];
    if (c === '\\') {
      if (i + 1 >= p.length) return undefined;
      c = p[++i];
    }
    if (p[i + 1] === '-' && p[i + 2] !== undefined && p[i + 2] !== ']') {
      let hi = p[i + 2];
      let step = 3;
      if (hi === '\\') {
        hi = p[i + 3];
        step = 4;
      }
      if (hi === undefined || hi < c) return undefined;
      body += `${escapeClass(c)}-${escapeClass(hi)}`;
      i += step;
      continue;
    }
    body += escapeClass(c);
    i++;
  }
  if (i >= p.length || !body) return undefined;
  return { re: neg ? `[^/${body}]` : `[${body}]`, end: i };
}

const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const escapeClass = (c: string) => c.replace(/[\]\\^-]/g, '\\$&');
