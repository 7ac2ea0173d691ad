/**
 * The globs of Argo CD's `util/glob` (github.com/gobwas/glob), as AppProjects and sync windows use them
 * (argo-cd `pkg/apis/application/v1alpha1/app_project_types.go` `globMatch`): `*` any run of characters
 * except the separators, `**` any run at all, `?` one character except a separator, `[abc]`, `[a-z]`,
 * `[!…]` one character (separators included), `{a,b}` alternatives, `\` escapes the next character.
 * A pattern that does not compile matches nothing (`util/glob` logs the error and returns false).
 *
 * Matched without backtracking: the pattern becomes a small automaton whose states are followed
 * together over the value, so a pattern such as `*a*a*a*a*b` costs pattern length × value length at
 * worst, never exponential time. `steps` counts that work for the tests.
 */

type State = { kind: 'char'; test: (c: string) => boolean; out: number } | { kind: 'split'; outs: number[] } | { kind: 'match' };

interface Compiled {
  states: State[];
  start: number;
}

/** A bounded cache of compiled patterns (`null`: the pattern does not compile). */
const cache = new Map<string, Compiled | null>();
const CACHE_SIZE = 1000;
const MAX_NESTING = 32;

/** Work done by `gobwasMatch` since the counter was last reset (for tests that bound the cost). */
export const globWork = { steps: 0 };

export function gobwasMatch(pattern: string, value: string, separators = ''): boolean {
  const key = `${separators}\u0000${pattern}`;
  let c = cache.get(key);
  if (c === undefined) {
    c = compile(pattern, separators);
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(key, c);
  }
  return !!c && run(c, value);
}

function compile(pattern: string, separators: string): Compiled | null {
  const chars = Array.from(pattern);
  const states: State[] = [{ kind: 'match' }];
  const isSep = (c: string) => separators.includes(c);
  let i = 0;
  let depth = 0;
  // Compiles a sequence up to `,`/`}` (inside alternatives) or the end, ending in state `next`.
  // Built back to front, so each piece already knows where it continues.
  const sequence = (inAlt: boolean): ((next: number) => number) | null => {
    const pieces: ((next: number) => number)[] = [];
    while (i < chars.length) {
      const c = chars[i];
      if (inAlt && (c === ',' || c === '}')) break;
      i++;
      if (c === '\\') {
        if (i >= chars.length) return null;
        const lit = chars[i++];
        pieces.push(consume((x) => x === lit));
      } else if (c === '*') {
        let any = false;
        while (chars[i] === '*') {
          i++;
          any = true;
        }
        pieces.push(star(any ? () => true : (x) => !isSep(x)));
      } else if (c === '?') pieces.push(consume((x) => !isSep(x)));
      else if (c === '[') {
        const test = charClass();
        if (!test) return null;
        pieces.push(consume(test));
      } else if (c === '{') {
        // Nested alternatives deeper than any real pattern are refused, not followed down the stack.
        if (++depth > MAX_NESTING) return null;
        const alts: ((next: number) => number)[] = [];
        for (;;) {
          const alt = sequence(true);
          if (!alt || i >= chars.length) return null;
          alts.push(alt);
          if (chars[i++] === '}') break;
        }
        depth--;
        pieces.push((next) => {
          const outs = alts.map((a) => a(next));
          states.push({ kind: 'split', outs });
          return states.length - 1;
        });
      } else pieces.push(consume((x) => x === c));
    }
    return (next) => {
      let at = next;
      for (let k = pieces.length - 1; k >= 0; k--) at = pieces[k](at);
      return at;
    };
  };
  const consume =
    (test: (c: string) => boolean) =>
    (next: number): number => {
      states.push({ kind: 'char', test, out: next });
      return states.length - 1;
    };
  const star =
    (test: (c: string) => boolean) =>
    (next: number): number => {
      const split: State = { kind: 'split', outs: [] };
      states.push(split);
      const at = states.length - 1;
      states.push({ kind: 'char', test, out: at });
      split.outs.push(states.length - 1, next);
      return at;
    };
  // `[abc]`, `[a-z]`, `[!…]`; `i` is just past the `[`.
  const charClass = (): ((c: string) => boolean) | null => {
    let neg = false;
    if (chars[i] === '!') {
      neg = true;
      i++;
    }
    const singles = new Set<string>();
    const ranges: [string, string][] = [];
    let first = true;
    while (i < chars.length && (first || chars[i] !== ']')) {
      first = false;
      let lo = chars[i++];
      if (lo === '\\' && i < chars.length) lo = chars[i++];
      if (chars[i] === '-' && i + 1 < chars.length && chars[i + 1] !== ']') {
        i++;
        let hi = chars[i++];
        if (hi === '\\' && i < chars.length) hi = chars[i++];
        if (hi < lo) return null;
        ranges.push([lo, hi]);
      } else singles.add(lo);
    }
    if (chars[i] !== ']') return null;
    i++;
    return (c) => (singles.has(c) || ranges.some(([lo, hi]) => c >= lo && c <= hi)) !== neg;
  };
  const seq = sequence(false);
  if (!seq) return null;
  return { states, start: seq(0) };
}

/** Follows every state the automaton can be in, one character at a time. */
function run(c: Compiled, value: string): boolean {
  const seen = new Int32Array(c.states.length).fill(-1);
  let current: number[] = [];
  let generation = 0;
  const add = (list: number[], s: number) => {
    globWork.steps++;
    if (seen[s] === generation) return;
    seen[s] = generation;
    const st = c.states[s];
    if (st.kind === 'split') for (const o of st.outs) add(list, o);
    else list.push(s);
  };
  add(current, c.start);
  for (const ch of value) {
    generation++;
    const next: number[] = [];
    for (const s of current) {
      const st = c.states[s];
      globWork.steps++;
      if (st.kind === 'char' && st.test(ch)) add(next, st.out);
    }
    if (!next.length) return false;
    current = next;
  }
  return current.some((s) => c.states[s].kind === 'match');
}
