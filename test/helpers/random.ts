/** A seeded generator (mulberry32) of numbers in [0, 1): the same inputs on every run, so a failure can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Random edits of a text from a seed (a linear congruential generator): `rand(n)` is an integer in
 * [0, n); `edit(text)` deletes up to 8 characters at a random place or inserts one to three of `pieces`
 * there. The property tests of incremental checks type with it, the same keystrokes on every run.
 */
export function randomEdits(seed: number, pieces: readonly string[]): { rand(n: number): number; edit(text: string): string } {
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const edit = (text: string) => {
    const at = rand(text.length + 1);
    if (rand(3) === 0) return text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + rand(8)));
    let ins = '';
    for (let k = 1 + rand(3); k > 0; k--) ins += pieces[rand(pieces.length)];
    return text.slice(0, at) + ins + text.slice(at);
  };
  return { rand, edit };
}
