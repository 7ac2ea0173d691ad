/**
 * The one machine every glob the user writes runs on: a pattern is compiled to a small
 * nondeterministic automaton (Thompson's construction) and a name is matched by carrying the set of
 * live states along it, so a match costs at most (name length × pattern length) state visits, whatever
 * the pattern. A backtracking matcher (JavaScript's RegExp, picomatch) takes exponential time on
 * `*a*a*a*a*a*a*b` against a long run of `a`s; Go's `path.Match`, git's wildmatch and doublestar do not
 * backtrack like that either. The dialects (which pattern syntax means which tokens) live in
 * `globs.ts`; this file knows only tokens.
 */

/** One character class: code point ranges, negated or not, and whether it may match `/`. */
export interface CharSet {
  ranges: [number, number][];
  /** Named classes such as wildmatch's `[:alpha:]`, tested per code point. */
  tests?: ((cp: number) => boolean)[];
  negated: boolean;
  /** False when the class never matches `/` (doublestar, wildmatch with WM_PATHNAME). */
  slash: boolean;
}

/** A pattern's parts, in order. */
export type Token =
  | { t: 'lit'; cp: number }
  | { t: 'one'; slash: boolean }
  | { t: 'set'; set: CharSet }
  | { t: 'star'; slash: boolean }
  | { t: 'opt'; seq: Token[] }
  | { t: 'alt'; alts: Token[][] };

const CHAR = 0;
const SPLIT = 1;
const END = 2;
const SLASH = 0x2f;

/** A compiled pattern: parallel arrays of states. */
export interface GlobMachine {
  kind: number[];
  /** CHAR: the next state; SPLIT: the first branch. */
  a: number[];
  /** SPLIT: the second branch. */
  b: number[];
  test: (((cp: number) => boolean) | undefined)[];
  start: number;
}

/** State visits of every match so far: the tests' measure of work (steps, never a clock). */
export const globWork = { steps: 0 };

function setTest(s: CharSet): (cp: number) => boolean {
  return (cp) => {
    if (cp === SLASH && !s.slash) return false;
    let hit = false;
    for (const [lo, hi] of s.ranges)
      if (cp >= lo && cp <= hi) {
        hit = true;
        break;
      }
    if (!hit && s.tests) hit = s.tests.some((f) => f(cp));
    return hit !== s.negated;
  };
}

const anyTest = () => true;
const notSlash = (cp: number) => cp !== SLASH;

/** Compiles tokens to a machine (built back to front: each part knows the state after it). */
export function compileGlob(tokens: readonly Token[]): GlobMachine {
  const m: GlobMachine = { kind: [], a: [], b: [], test: [], start: 0 };
  const add = (kind: number, a: number, b: number, test?: (cp: number) => boolean) => {
    m.kind.push(kind);
    m.a.push(a);
    m.b.push(b);
    m.test.push(test);
    return m.kind.length - 1;
  };
  const seq = (toks: readonly Token[], next: number): number => {
    for (let i = toks.length - 1; i >= 0; i--) next = one(toks[i], next);
    return next;
  };
  const one = (tok: Token, next: number): number => {
    switch (tok.t) {
      case 'lit': {
        const cp = tok.cp;
        return add(CHAR, next, -1, (c) => c === cp);
      }
      case 'one':
        return add(CHAR, next, -1, tok.slash ? anyTest : notSlash);
      case 'set':
        return add(CHAR, next, -1, setTest(tok.set));
      case 'star': {
        const split = add(SPLIT, -1, next);
        m.a[split] = add(CHAR, split, -1, tok.slash ? anyTest : notSlash);
        return split;
      }
      case 'opt':
        return add(SPLIT, seq(tok.seq, next), next);
      case 'alt': {
        let at = seq(tok.alts[tok.alts.length - 1], next);
        for (let i = tok.alts.length - 2; i >= 0; i--) at = add(SPLIT, seq(tok.alts[i], next), at);
        return at;
      }
    }
  };
  m.start = seq(tokens, add(END, -1, -1));
  return m;
}

/** True when the machine accepts the whole of `name` (code point by code point). */
export function runGlob(m: GlobMachine, name: string): boolean {
  const n = m.kind.length;
  const seen = new Int32Array(n).fill(-1);
  let cur: number[] = [];
  let next: number[] = [];
  const stack: number[] = [];
  let gen = 0;
  let steps = 0;
  // Adds a state and every state a SPLIT reaches from it without reading (a stack, not recursion:
  // a pattern of ten thousand stars is ten thousand chained splits).
  const close = (s: number, into: number[]) => {
    stack.push(s);
    while (stack.length) {
      const x = stack.pop()!;
      if (seen[x] === gen) continue;
      seen[x] = gen;
      steps++;
      if (m.kind[x] === SPLIT) {
        stack.push(m.b[x], m.a[x]);
      } else into.push(x);
    }
  };
  close(m.start, cur);
  for (const ch of name) {
    if (!cur.length) break;
    const cp = ch.codePointAt(0)!;
    gen++;
    next.length = 0;
    for (const s of cur) {
      steps++;
      if (m.kind[s] === CHAR && m.test[s]!(cp)) close(m.a[s], next);
    }
    [cur, next] = [next, cur];
  }
  globWork.steps += steps;
  // `cur` holds the states the whole name reaches (none when the loop stopped early).
  return cur.some((s) => m.kind[s] === END);
}
