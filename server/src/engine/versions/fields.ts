/**
 * Which Argo CD release added each ApplicationSet field (`fieldsAddedIn` of
 * `schemas/argocd-versions.json`, computed from the CRD of every supported release). Entries are
 * path suffixes, the shortest that name the field without ambiguity (`kustomize.components` is 2.10
 * under sources but 3.3 under `drySource`, so the entry says `source.kustomize.components`); `[]`
 * stands for a list item.
 */
import data from '../../../../schemas/argocd-versions.json';
import type { JsonPath } from '../yaml';
import { OLDEST, rank, type ReleaseLine } from './releases';

interface Entry {
  suffix: string[];
  since: ReleaseLine;
}

/** Entries indexed by their last segment (the field name). */
const byName = new Map<string, Entry[]>();
for (const [since, suffixes] of Object.entries(data.fieldsAddedIn as Record<string, string[]>)) {
  for (const s of suffixes) {
    const suffix = s.split('.');
    const name = suffix[suffix.length - 1];
    if (!byName.has(name)) byName.set(name, []);
    byName.get(name)!.push({ suffix, since });
  }
}

/**
 * The release that added the field at `path` (a path below `spec`, list indices as numbers; with `from`,
 * the part of `path` from that index on), or undefined when the field exists in every supported release.
 * Only meaningful for a field the schema knows (callers check that first).
 */
export function fieldAddedIn(path: JsonPath, from = 0): ReleaseLine | undefined {
  const n = path.length - from;
  if (n <= 0) return undefined;
  // Looked up by the field's name first: most fields have no entry (the version-field walk asks of every field).
  const entries = byName.get(segment(path, from + n - 1));
  if (!entries) return undefined;
  let best: Entry | undefined;
  // Plain loops, no closure per call: the checks ask it for every ApplicationSet of a file (issue 39).
  for (const e of entries) {
    const m = e.suffix.length;
    if (m > n || (best && m <= best.suffix.length)) continue;
    const off = from + n - m;
    let all = true;
    for (let i = 0; i < m && all; i++) all = segment(path, off + i) === e.suffix[i];
    if (all) best = e;
  }
  return best?.since;
}

/** A path's segment as the entries write it: `[]` for a list index. */
function segment(path: JsonPath, i: number): string {
  const s = path[i];
  return typeof s === 'number' ? '[]' : s;
}

/**
 * True when a field added in `since` is unknown to release line `target`; `belowOldest`: the install
 * is older than the oldest supported release (checked as it), so that release's own fields are unknown too.
 */
export function newerThan(since: ReleaseLine, target: ReleaseLine, belowOldest = false): boolean {
  return rank(since) > rank(target) || (belowOldest && since === OLDEST);
}

/**
 * The release lines that added a field named `name`, at any path: a field of no other name can be unknown to
 * a release, whatever its path (none: every supported release knows every field of that name).
 */
export function linesAdding(name: string): readonly ReleaseLine[] {
  return byName.get(name)?.map((e) => e.since) ?? NONE;
}
const NONE: readonly ReleaseLine[] = [];

/**
 * The names of the fields that some release after line `target` added (see `newerThan`), in one set: a
 * field of no other name can be unknown to `target`. The version-field walk (validate/fieldCheck.ts) makes
 * it once per target and asks `fieldAddedIn` only of fields so named.
 */
export function namesNewerThan(target: ReleaseLine, belowOldest = false): ReadonlySet<string> {
  const names = new Set<string>();
  for (const [name, entries] of byName) {
    for (const e of entries)
      if (newerThan(e.since, target, belowOldest)) {
        names.add(name);
        break;
      }
  }
  return names;
}

/** True when release line `line` knows the field at `pathBelowSpec` (see fieldAddedIn). */
export function knownTo(pathBelowSpec: JsonPath, line: ReleaseLine, belowOldest = false): boolean {
  const since = fieldAddedIn(pathBelowSpec);
  return !since || !newerThan(since, line, belowOldest);
}
