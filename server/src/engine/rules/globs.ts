/**
 * The glob dialects users write, each read into the tokens of `globMachine.ts` and matched there in
 * linear time (never a backtracking RegExp):
 * - Go `path.Match` — the git generator's `directories` (Argo CD `applicationset/generators/git.go`);
 * - git's pathspec with wildmatch — the git generator's `files` by default, as `git ls-files -- <pattern>`
 *   reads them (Argo CD `util/git/client.go` `LsFiles`; git `dir.c` `match_pathspec_item`, `wildmatch.c`);
 * - doublestar — `files` with `--enable-new-git-file-globbing` (`util/git/client.go`, bmatcuk/doublestar v4),
 *   and this tool's own path settings (`.appset-tools.yaml` `ignore`, inventory files, instance mappings);
 * (AppProjects' and sync windows' gobwas globs are `gobwasGlob.ts`'s.)
 * Patterns are read as code points, as before.
 */
import { compileGlob, runGlob, type CharSet, type Token } from './globMachine';

export type PathMatcher = (name: string) => boolean;

const cpsOf = (s: string) => [...s].map((c) => c.codePointAt(0)!);
const C = (c: string) => c.codePointAt(0)!;
const STAR = C('*');
const QUESTION = C('?');
const BACKSLASH = C('\\');
const OPEN = C('[');
const CLOSE = C(']');
const DASH = C('-');
const CARET = C('^');
const BANG = C('!');
const SLASH = C('/');
const LBRACE = C('{');
const RBRACE = C('}');
const COMMA = C(',');
const COLON = C(':');

const lit = (cp: number): Token => ({ t: 'lit', cp });
const machine = (tokens: Token[]): PathMatcher => {
  const m = compileGlob(tokens);
  return (name) => runGlob(m, name);
};

/**
 * A `path.Match` class starting after `[` (Go `path/match.go` `matchChunk`/`getEsc`): `^` negates, items
 * are a character, `\`-escaped character or `lo-hi`; `-` and `]` must be escaped, at least one item,
 * closed by `]`. A reversed range is legal and matches nothing. Returns the set and the index of `]`.
 */
function goClass(p: number[], start: number, slash: boolean, negators: number[]): { set: CharSet; end: number } | undefined {
  let i = start;
  let negated = false;
  if (negators.includes(p[i])) {
    negated = true;
    i++;
  }
  const esc = (): number | undefined => {
    let c = p[i];
    if (c === undefined || c === DASH || c === CLOSE) return undefined;
    if (c === BACKSLASH) {
      c = p[++i];
      if (c === undefined) return undefined;
    }
    i++;
    if (i >= p.length) return undefined; // unterminated
    return c;
  };
  const ranges: [number, number][] = [];
  for (;;) {
    if (p[i] === CLOSE && ranges.length > 0) break;
    const lo = esc();
    if (lo === undefined) return undefined;
    let hi = lo;
    if (p[i] === DASH) {
      i++;
      const h = esc();
      if (h === undefined) return undefined;
      hi = h;
    }
    ranges.push([lo, hi]);
  }
  return { set: { ranges, negated, slash }, end: i };
}

/**
 * Go `path.Match` (`path/match.go`): `*` and `?` never match `/`, a class does; `\` escapes; the whole
 * name must match. Undefined when the pattern is malformed (ErrBadPattern: unterminated or empty class,
 * a class item starting with `-` or `]`, a trailing `\`).
 */
export function goPathMatch(pattern: string): PathMatcher | undefined {
  const p = cpsOf(pattern);
  const tokens: Token[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === STAR) tokens.push({ t: 'star', slash: false });
    else if (c === QUESTION) tokens.push({ t: 'one', slash: false });
    else if (c === BACKSLASH) {
      if (i + 1 >= p.length) return undefined;
      tokens.push(lit(p[++i]));
    } else if (c === OPEN) {
      const cls = goClass(p, i + 1, true, [CARET]);
      if (!cls) return undefined;
      tokens.push({ t: 'set', set: cls.set });
      i = cls.end;
    } else tokens.push(lit(c));
  }
  return machine(tokens);
}

/** wildmatch's `[:name:]` classes (git `wildmatch.c`, ASCII as git's ctype). */
const POSIX: Record<string, (cp: number) => boolean> = {
  alnum: (c) => POSIX.alpha(c) || POSIX.digit(c),
  alpha: (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a),
  blank: (c) => c === 0x20 || c === 0x09,
  cntrl: (c) => c < 0x20 || c === 0x7f,
  digit: (c) => c >= 0x30 && c <= 0x39,
  graph: (c) => c > 0x20 && c < 0x7f,
  lower: (c) => c >= 0x61 && c <= 0x7a,
  print: (c) => c >= 0x20 && c < 0x7f,
  punct: (c) => c > 0x20 && c < 0x7f && !POSIX.alnum(c),
  space: (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d),
  upper: (c) => c >= 0x41 && c <= 0x5a,
  xdigit: (c) => POSIX.digit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66),
};

/**
 * A wildmatch class starting at `[` (git `wildmatch.c`): `!` or `^` negates; the first item may be `]`;
 * `\` escapes; `a-z` ranges (a `-` first or last is literal); `[:alpha:]` classes; without WM_PATHNAME
 * (pathspecs) a class may match `/`. 'abort' when the pattern ends inside the class or names an
 * unknown `[:class:]`: wildmatch then matches nothing.
 */
function wildClass(p: number[], start: number): { set: CharSet; end: number } | 'abort' {
  let i = start + 1;
  let negated = false;
  if (p[i] === BANG || p[i] === CARET) {
    negated = true;
    i++;
  }
  const ranges: [number, number][] = [];
  const tests: ((cp: number) => boolean)[] = [];
  let prev = 0;
  for (let first = true; first || p[i] !== CLOSE; first = false) {
    let c = p[i];
    if (c === undefined) return 'abort';
    if (c === BACKSLASH) {
      c = p[++i];
      if (c === undefined) return 'abort';
      ranges.push([c, c]);
      prev = c;
      i++;
    } else if (c === DASH && prev && p[i + 1] !== undefined && p[i + 1] !== CLOSE) {
      let hi = p[++i];
      if (hi === BACKSLASH) {
        hi = p[++i];
        if (hi === undefined) return 'abort';
      }
      ranges.push([prev, hi]);
      prev = 0;
      i++;
    } else if (c === OPEN && p[i + 1] === COLON) {
      let j = i + 2;
      while (p[j] !== undefined && p[j] !== CLOSE) j++;
      if (p[j] === undefined) return 'abort';
      if (j - (i + 2) - 1 < 0 || p[j - 1] !== COLON) {
        // No `:]`: the `[` is an ordinary item.
        ranges.push([OPEN, OPEN]);
        prev = OPEN;
        i++;
        continue;
      }
      const name = String.fromCodePoint(...p.slice(i + 2, j - 1));
      if (!Object.hasOwn(POSIX, name)) return 'abort';
      tests.push(POSIX[name]);
      prev = 0;
      i = j + 1;
    } else {
      ranges.push([c, c]);
      prev = c;
      i++;
    }
  }
  return { set: { ranges, tests, negated, slash: true }, end: i };
}

/** git's glob-special characters (`*?[\`): a pathspec without them is compared literally only. */
const GIT_SPECIAL = /[*?[\\]/;

/**
 * git's default pathspec as `git ls-files -- <pattern>` applies it (git `dir.c` `match_pathspec_item`):
 * the path equals the pattern, or lies below it (a folder), or — when the pattern has a glob character —
 * wildmatch without WM_PATHNAME accepts it: `*` and `?` cross `/`, `\` escapes (a trailing one matches
 * nothing), a class may match `/`, a malformed class makes the pattern match only literally.
 */
export function gitPathspecMatch(pattern: string): PathMatcher {
  const literal = pattern.replace(/\/+$/, '');
  const below = literal + '/';
  // `.` (cleaned to '' by gitPatterns.ts `cleanGitPath`): the whole repository.
  const isLiteral = literal ? (path: string) => path === literal || path.startsWith(below) : () => true;
  if (!GIT_SPECIAL.test(pattern)) return isLiteral;
  const p = cpsOf(pattern);
  const tokens: Token[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === STAR) tokens.push({ t: 'star', slash: true });
    else if (c === QUESTION) tokens.push({ t: 'one', slash: true });
    else if (c === BACKSLASH) {
      if (i + 1 >= p.length) return isLiteral;
      tokens.push(lit(p[++i]));
    } else if (c === OPEN) {
      const cls = wildClass(p, i);
      if (cls === 'abort') return isLiteral;
      tokens.push({ t: 'set', set: cls.set });
      i = cls.end;
    } else tokens.push(lit(c));
  }
  const wild = machine(tokens);
  return (path) => isLiteral(path) || wild(path);
}

/**
 * doublestar v4 `Match`: `*`, `?` and classes (`[!…]`/`[^…]`, as path.Match's) stay within one path
 * component; `**` as a whole component matches any number of components (`a/**\/b` matches `a/b`,
 * a trailing `/**` everything below); `**` inside a component is `*`; `{a,b}` alternatives (nested);
 * `\` escapes. A malformed pattern (unclosed class or brace, trailing `\`) matches nothing.
 * Dot files are ordinary names.
 */
export function doublestarMatch(pattern: string): PathMatcher {
  const p = cpsOf(pattern);
  let i = 0;
  let bad = false;
  const atStart = (k: number, inAlt: boolean) => k === 0 || p[k - 1] === SLASH || (inAlt && (p[k - 1] === LBRACE || p[k - 1] === COMMA));
  const atEnd = (k: number, inAlt: boolean) => k >= p.length || p[k] === SLASH || (inAlt && (p[k] === COMMA || p[k] === RBRACE));
  const parse = (inAlt: boolean): Token[] => {
    const out: Token[] = [];
    while (i < p.length && !bad) {
      const c = p[i];
      if (inAlt && (c === COMMA || c === RBRACE)) return out;
      if (c === BACKSLASH) {
        if (i + 1 >= p.length) bad = true;
        else out.push(lit(p[i + 1]));
        i += 2;
      } else if (c === STAR) {
        let j = i + 1;
        while (p[j] === STAR) j++;
        if (j - i >= 2 && atStart(i, inAlt) && atEnd(j, inAlt)) {
          if (p[j] === SLASH) {
            // `**/`: zero or more whole components.
            out.push({ t: 'opt', seq: [{ t: 'star', slash: true }, lit(SLASH)] });
            i = j + 1;
          } else {
            out.push({ t: 'star', slash: true });
            i = j;
          }
        } else {
          out.push({ t: 'star', slash: false });
          i = j;
        }
      } else if (c === QUESTION) {
        out.push({ t: 'one', slash: false });
        i++;
      } else if (c === OPEN) {
        const cls = goClass(p, i + 1, false, [BANG, CARET]);
        if (!cls) bad = true;
        else {
          out.push({ t: 'set', set: cls.set });
          i = cls.end + 1;
        }
      } else if (c === LBRACE) {
        i++;
        const alts: Token[][] = [];
        for (;;) {
          alts.push(parse(true));
          if (bad) break;
          if (i >= p.length) {
            bad = true;
            break;
          }
          if (p[i++] === RBRACE) break;
        }
        out.push({ t: 'alt', alts });
      } else {
        out.push(lit(c));
        i++;
      }
    }
    return out;
  };
  const tokens = parse(false);
  if (bad) return () => false;
  return machine(tokens);
}
