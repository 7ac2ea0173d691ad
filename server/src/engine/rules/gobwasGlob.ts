/**
 * The globs of Argo CD's `util/glob` (github.com/gobwas/glob), as AppProjects and sync windows use them
 * (argo-cd `pkg/apis/application/v1alpha1/app_project_types.go` `globMatch`): `*` any run of characters
 * except the separator, `**` any run at all, `?` one character except the separator, `[abc]`, `[a-z]`,
 * `[!…]` one character (the separator included), `{a,b}` alternatives, `\` escapes the next character.
 * A pattern that does not compile matches nothing (`util/glob` logs the error and returns false).
 *
 * This file reads gobwas's syntax into tokens; `globMachine.ts` matches them without backtracking.
 */
import { compileGlob, runGlob, type GlobMachine, type Token } from './globMachine';

/** A bounded cache of compiled patterns (`null`: the pattern does not compile). */
const cache = new Map<string, GlobMachine | null>();
const CACHE_SIZE = 1000;
/** Nested alternatives deeper than any real pattern are refused, not followed down the stack. */
const MAX_NESTING = 32;

/** gobwas `glob.Compile(pattern, separators...).Match(value)`; the only separator Argo CD passes is `/`. */
export function gobwasMatch(pattern: string, value: string, separators: '' | '/' = ''): boolean {
  const key = `${separators}\u0000${pattern}`;
  let m = cache.get(key);
  if (m === undefined) {
    const tokens = parse(Array.from(pattern), separators === '/');
    m = tokens ? compileGlob(tokens) : null;
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(key, m);
  }
  return !!m && runGlob(m, value);
}

function parse(chars: string[], slashSeparates: boolean): Token[] | null {
  let i = 0;
  let depth = 0;
  const cp = (c: string) => c.codePointAt(0)!;
  // A sequence up to `,`/`}` (inside alternatives) or the end.
  const sequence = (inAlt: boolean): Token[] | null => {
    const out: Token[] = [];
    while (i < chars.length) {
      const c = chars[i];
      if (inAlt && (c === ',' || c === '}')) break;
      i++;
      if (c === '\\') {
        if (i >= chars.length) return null;
        out.push({ t: 'lit', cp: cp(chars[i++]) });
      } else if (c === '*') {
        let superStar = false;
        while (chars[i] === '*') {
          i++;
          superStar = true;
        }
        out.push({ t: 'star', slash: superStar || !slashSeparates });
      } else if (c === '?') out.push({ t: 'one', slash: !slashSeparates });
      else if (c === '[') {
        const set = charClass();
        if (!set) return null;
        out.push(set);
      } else if (c === '{') {
        if (++depth > MAX_NESTING) return null;
        const alts: Token[][] = [];
        for (;;) {
          const alt = sequence(true);
          if (!alt || i >= chars.length) return null;
          alts.push(alt);
          if (chars[i++] === '}') break;
        }
        depth--;
        out.push({ t: 'alt', alts });
      } else out.push({ t: 'lit', cp: cp(c) });
    }
    return out;
  };
  // `[abc]`, `[a-z]`, `[!…]`; `i` is just past the `[`.
  const charClass = (): Token | null => {
    let negated = false;
    if (chars[i] === '!') {
      negated = true;
      i++;
    }
    const ranges: [number, number][] = [];
    let first = true;
    while (i < chars.length && (first || chars[i] !== ']')) {
      first = false;
      let lo = chars[i++];
      if (lo === '\\' && i < chars.length) lo = chars[i++];
      if (chars[i] === '-' && i + 1 < chars.length && chars[i + 1] !== ']') {
        i++;
        let hi = chars[i++];
        if (hi === '\\' && i < chars.length) hi = chars[i++];
        if (cp(hi) < cp(lo)) return null;
        ranges.push([cp(lo), cp(hi)]);
      } else ranges.push([cp(lo), cp(lo)]);
    }
    if (chars[i] !== ']') return null;
    i++;
    return { t: 'set', set: { ranges, negated, slash: true } };
  };
  const tokens = sequence(false);
  return tokens && i === chars.length ? tokens : null;
}

/**
 * `globMatch` of app_project_types.go, which AppProjects and sync windows share: `*` alone matches
 * everything; with `allowNegation`, a `!` pattern matches what the rest of it does not match.
 */
export function globMatch(pattern: string, value: string, allowNegation = false, separators: '' | '/' = ''): boolean {
  if (allowNegation && pattern.startsWith('!')) return !gobwasMatch(pattern.slice(1), value, separators);
  return pattern === '*' || gobwasMatch(pattern, value, separators);
}
