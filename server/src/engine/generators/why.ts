/**
 * "Why is this empty?": the words for a generator that yields nothing, with the nearest miss so the
 * user sees what to change (the cluster whose labels come closest to the selector, the directory
 * closest to the pattern). Only the offline data is known, so the words say "known clusters".
 */
import { isObj } from '../objects';
import { matchesSelector } from './selector';
import type { Cluster } from './inventory';

const MAX_CANDIDATES = 5000;

/** How many of a selector's requirements a label set satisfies (each matchLabels entry and expression counts one). */
function satisfied(sel: Record<string, unknown>, labels: Record<string, string>): number {
  let n = 0;
  if (isObj(sel.matchLabels)) for (const [k, v] of Object.entries(sel.matchLabels)) if (safeMatch({ matchLabels: { [k]: v } }, labels)) n++;
  if (Array.isArray(sel.matchExpressions)) for (const e of sel.matchExpressions) if (safeMatch({ matchExpressions: [e] }, labels)) n++;
  return n;
}

function safeMatch(sel: unknown, labels: Record<string, string>): boolean {
  try {
    return matchesSelector(sel, labels);
  } catch {
    return false;
  }
}

/** Why a cluster generator (or its selector) selected nothing. */
export function emptyClustersReason(selector: unknown, clusters: readonly Cluster[]): string {
  if (!clusters.length) {
    return 'no cluster Secrets or ClusterInventory in the workspace, so no cluster matches the selector offline: keep the cluster Secrets (or a ClusterInventory file, see docs/previews.md) in the repository, or name one with appsetTools.inventoryFiles / --inventory';
  }
  const n = clusters.length;
  let best: Cluster | undefined;
  let score = -1;
  if (isObj(selector)) {
    for (const c of clusters.slice(0, MAX_CANDIDATES)) {
      const s = satisfied(selector, c.labels);
      if (s > score) {
        score = s;
        best = c;
      }
    }
  }
  const labels = best
    ? Object.entries(best.labels)
        .filter(([k]) => k !== 'argocd.argoproj.io/secret-type')
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')
    : '';
  const nearest = best ? `; nearest: ${best.name}${labels ? ` (${labels})` : ' (no labels)'}` : '';
  return `the selector matches 0 of the ${n} known cluster${n === 1 ? '' : 's'}${nearest}`;
}

/** Why git patterns matched nothing: the nearest directory or file, by edit distance to the pattern. */
export function emptyGitReason(
  what: 'directory' | 'file',
  patterns: readonly string[],
  candidates: readonly string[],
  root: string,
): string {
  const list = patterns.map((p) => `"${p}"`).join(', ');
  if (!candidates.length)
    return `the ${what} pattern${patterns.length === 1 ? '' : 's'} ${list} match nothing: ${root} has no ${what === 'directory' ? 'directories with files' : 'files'}`;
  let best = '';
  let dist = Infinity;
  for (const c of candidates.slice(0, MAX_CANDIDATES)) {
    for (const p of patterns) {
      const d = distance(p.replace(/[*?]|\[[^\]]*\]/g, ''), c);
      if (d < dist) {
        dist = d;
        best = c;
      }
    }
  }
  const plural = what === 'directory' ? 'directories' : 'files';
  return `the ${what} pattern${patterns.length === 1 ? '' : 's'} ${list} match${patterns.length === 1 ? 'es' : ''} none of the ${candidates.length} ${plural} of ${root}; nearest: ${best}`;
}

/**
 * Every path the include patterns match is removed by an `exclude: true` pattern (the repo-server's
 * listing filtered by the generator: applicationset/generators/git.go filterApps for directories, the
 * exclude loop of generateParamsForGitFiles for files): what
 * happened, with the paths that matched.
 */
export function excludedAllReason(what: 'directory' | 'file', matched: readonly string[]): string {
  const shown = matched
    .slice(0, 3)
    .map((m) => `"${m}"`)
    .join(', ');
  const more = matched.length > 3 ? ` and ${matched.length - 3} more` : '';
  const n = matched.length;
  const noun = what === 'directory' ? (n === 1 ? 'directory' : 'directories') : n === 1 ? 'file' : 'files';
  return `its patterns match ${n} ${noun} (${shown}${more}) and the exclude patterns remove ${n === 1 ? 'it' : 'every one'}`;
}

/** Levenshtein distance, bounded in work by the short strings paths are. */
export function distance(a: string, b: string): number {
  if (a.length > 200 || b.length > 200) return Math.abs(a.length - b.length) + 200;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
