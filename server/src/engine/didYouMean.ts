/**
 * "Did you mean": the closest of some known names to a word the user wrote. Every layer words such a
 * hint (schema fields, configuration keys, template functions, AppProject names), so it lives on
 * the ground, beside the vocabulary.
 */

/** Levenshtein distance, bounded: stops early once every cell exceeds `max`. */
export function editDistance(a: string, b: string, max = 4): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** The closest candidate to `word` (case-insensitive match first, then small edit distance). */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  for (const c of candidates) {
    if (c === word) continue;
    if (c.toLowerCase() === lower) return c;
    const d = editDistance(lower, c.toLowerCase(), limit);
    if (d <= limit && d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}
