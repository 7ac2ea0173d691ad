/**
 * Short human descriptions of what a generator produces, for code lenses and hovers:
 * `12 clusters × 45 services`, `3 directories`, `2 elements`.
 */
import { isObj } from '../objects';
import { kindsOf } from '../generators/index';

/** `countOf(['generators', i])` is the number of parameter sets child i produced (the last time it ran). */
export function describeGenerator(
  entry: Record<string, unknown>,
  kind: string,
  count: number,
  countOf: (rel: (string | number)[]) => number | undefined,
): string {
  const spec = isObj(entry[kind]) ? (entry[kind] as Record<string, unknown>) : {};
  if ((kind === 'matrix' || kind === 'merge') && Array.isArray(spec.generators)) {
    const parts = spec.generators.map((c, i) => {
      const k = kindsOf(c)[0];
      if (!k) return '?';
      const n = countOf(['generators', i]) ?? 0;
      return `${n} ${plural(noun(k, isObj(c) ? (c as Record<string, unknown>)[k] : undefined), n)}`;
    });
    return parts.join(kind === 'matrix' ? ' × ' : ' + ');
  }
  return `${count} ${plural(noun(kind, spec), count)}`;
}

function noun(kind: string, spec: unknown): string {
  const s = isObj(spec) ? spec : {};
  switch (kind) {
    case 'clusters':
      return 'clusters';
    case 'list': {
      const first = Array.isArray(s.elements) && isObj(s.elements[0]) ? Object.keys(s.elements[0])[0] : undefined;
      return first && /^[a-z][a-zA-Z]*$/.test(first) && first !== 'name' ? first.replace(/s$/, '') + 's' : 'elements';
    }
    case 'git':
    case 'oci':
      return Array.isArray(s.directories) ? 'directories' : 'files';
    case 'matrix':
      return 'matrix';
    case 'merge':
      return 'merge';
    case 'pullRequest':
      return 'pull requests';
    case 'scmProvider':
      return 'repositories';
    case 'clusterDecisionResource':
      return 'cluster decisions';
    default:
      return 'parameter sets';
  }
}

function plural(n: string, count: number): string {
  if (count !== 1) return n;
  // Only the last word is plural: "pull requests" → "pull request".
  return n
    .replace(/ies$/, 'y')
    .replace(/(ch|sh|x)es$/, '$1')
    .replace(/s$/, '');
}
