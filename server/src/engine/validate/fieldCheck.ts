/**
 * Fields the target Argo CD does not know yet. The compiled schema is the newest CRD (every field of
 * every release), so a field added after the target passes it; this walk flags it with the release
 * that added it. The API server of the older release prunes such a field without a word, so the
 * finding is `appset/unknown-field`, as for a misspelt one.
 */
import type { EngineDiagnostic } from '../types';
import type { JsonPath } from '../yaml';
import type { AppSetDoc } from '../kinds';
import { fieldsOf } from '../fields/appset';
import { LazyPath, unplaced, type Field } from '../fields/place';
import { APPSET_SCHEMA, resolveRef, type SchemaNode } from './schemaIndex';
import { fieldAddedIn, linesAdding, namesNewerThan, newerThan } from '../versions/fields';
import { label, OLDEST, rank, versionLabel } from '../versions/releases';
import { targetRelated, type TargetVersion } from '../install/target';
import { finding } from '../diagnostics/codes';

const MAX_NODES = 50_000;
const MAX_FINDINGS = 50;

export function versionFieldDiagnostics(doc: AppSetDoc, target: TargetVersion): EngineDiagnostic[] {
  const root = fieldsOf(doc).root;
  const found = newerFields(root, target).map(({ path, at, since }) => unknownInTarget(at, String(path[path.length - 1]), since, target));
  const boot = target.bootstrap;
  if (!boot) return found;
  // The running version is not known (a superseded bootstrap): what the bootstrap's release would
  // drop is said once per field, as information, with how to pin the version.
  const known = new Set(found.map((d) => d.span.start));
  return [
    ...found,
    ...newerFields(root, boot)
      .map(({ path, at, since }) => bootstrapNote(at, String(path[path.length - 1]), since, target, boot))
      .filter((d) => !known.has(d.span.start)),
  ];
}

function bootstrapNote(
  at: Field,
  key: string,
  since: string,
  target: TargetVersion,
  boot: NonNullable<TargetVersion['bootstrap']>,
): EngineDiagnostic {
  return finding(
    'appset/unknown-field',
    `"${key}" was added in ${label(since)}: if ${versionLabel(boot)} runs this ApplicationSet, its API server drops it without a word. Which version runs it is not known: ${boot.why}. Checked against ${label(target.line)}; set argocdVersion in .appset-tools.yaml to the version that runs it.`,
    at.keySpan,
    {
      related: [
        { location: { file: boot.evidence.file, span: boot.evidence.span }, message: `bootstrap install: ${boot.evidence.description}` },
      ],
      data: { addedIn: since, bootstrap: boot.line },
      variant: true,
    },
  );
}

/**
 * The ApplicationSet as the target release's controller reads it: fields the release does not know
 * are pruned by its API server (the document itself when there are none).
 */
export function prunedForTarget(doc: AppSetDoc, target: Pick<TargetVersion, 'line' | 'belowOldest'>): AppSetDoc['value'] {
  const newer = newerFields(unplaced(doc.value), target);
  if (!newer.length) return doc.value;
  const copy = structuredClone(doc.value);
  for (const { path } of newer) {
    let cur: unknown = copy;
    for (const seg of path.slice(0, -1)) cur = (cur as Record<string | number, unknown>)?.[seg];
    if (cur && typeof cur === 'object') delete (cur as Record<string, unknown>)[String(path[path.length - 1])];
  }
  return copy;
}

/**
 * The fields below `root` that the target release does not know, with their paths, their places (read
 * with the walk, one step down at a time) and the release that added them.
 */
function newerFields(root: Field, target: Pick<TargetVersion, 'line' | 'belowOldest'>): { path: JsonPath; at: Field; since: string }[] {
  const out: { path: JsonPath; at: Field; since: string }[] = [];
  // The walk reads only the values and the schema: a value found to hold no newer field for a target
  // holds none the next time (the expansion's pruning walks it first, unplaced, then the version-field
  // check placed, the same walk again for each ApplicationSet; issue 39).
  const value = root.value;
  const key = `${target.line}:${target.belowOldest === true}`;
  const none = value !== null && typeof value === 'object' ? noneNewer.get(value) : undefined;
  if (none?.has(key)) return out;
  // Only a field of a name some entry adds after the target can be newer (`fieldAddedIn` is asked of no other).
  const names = newerNames(target, key);
  // The target's place among the releases, found once per walk (a search of the release list per node before).
  const targetRank = rank(target.line);
  const oldestToo = target.belowOldest === true;
  let budget = MAX_NODES;
  // The walk reads the values with one path, pushed and popped; the places are read only for a field
  // found (LazyPath).
  const at = new LazyPath(root);
  const path = at.path;
  const found = (since: string) => {
    out.push({ path: [...path], at: at.here(), since });
  };
  const walk = (value: unknown, schema: SchemaNode | undefined) => {
    const s = resolveRef(schema);
    if (!s || value === null || value === undefined || --budget < 0 || out.length >= MAX_FINDINGS) return;
    // Free-form data (list elements, Helm values) has no fields of its own to check.
    if (freeForm(s)) return;
    // No field below this schema node can be newer than the target (nothing named as one is): not walked.
    if (!mayHoldNewer(s, targetRank, oldestToo)) return;
    if (Array.isArray(value)) {
      if (!s.items) return;
      const item = resolveRef(s.items);
      if (item && freeForm(item)) {
        // Free-form items (a list generator's elements): each would stop at once, only counted against
        // the budget; counted here without placing each one (540 of them in the bench's long list).
        for (const v of value) if (v !== null && v !== undefined) budget--;
        return;
      }
      for (let i = 0; i < value.length; i++) {
        at.down(i);
        walk(value[i], s.items);
        at.up();
      }
      return;
    }
    if (typeof value !== 'object') return;
    const props = s.properties;
    const rec = value as Record<string, unknown>;
    for (const key of Object.keys(rec)) {
      if (props && Object.prototype.hasOwnProperty.call(props, key)) {
        at.down(key);
        const since = path[0] === 'spec' && names.has(key) ? fieldAddedIn(path, 1) : undefined;
        if (since && newerThan(since, target.line, target.belowOldest)) found(since);
        else walk(rec[key], props[key]);
        at.up();
      } else if (!props && s.additionalProperties && typeof s.additionalProperties === 'object') {
        at.down(key);
        walk(rec[key], s.additionalProperties);
        at.up();
      }
    }
  };
  walk(value, APPSET_SCHEMA);
  if (!out.length && value !== null && typeof value === 'object') {
    if (none) none.add(key);
    else noneNewer.set(value, new Set([key]));
  }
  return out;
}

/**
 * Whether a field newer than the target may be below the schema node `s` (resolved): one of the field names
 * of `s` or of a node the walk can step to from it was added after the target. Any other node's subtree holds
 * no newer field whatever its value, so the walk does not enter it (on an ApplicationSet checked against the
 * newest release, nothing; issue 39). A subtree not entered is not counted against the walk's node budget
 * either: findings the budget cut off after a large skipped subtree (over 50,000 nodes) are now found.
 */
function mayHoldNewer(s: SchemaNode, targetRank: number, belowOldest: boolean): boolean {
  const b = newestBelow(s);
  return b.rank > targetRank || (belowOldest && b.oldest);
}

/** What `mayHoldNewer` reads of a schema node: the rank of the newest release that added a field named at or below it, and whether the oldest supported release added one. */
interface NewestBelow {
  rank: number;
  oldest: boolean;
}

/**
 * `NewestBelow` of a schema node (resolved), computed once per node on the walk's first visit, for every
 * target at once. (The set of nodes that may hold a newer field was computed per target over the whole
 * schema's graph, a map of its 429 nodes and one of their parents: half a megabyte of allocation in a
 * fresh process, which made the 1 KiB document's first answer collect its young generation, issue 39.)
 */
function newestBelow(s: SchemaNode): NewestBelow {
  const known = below.get(s);
  if (known) return known;
  // -1: no release (what `rank` gives an unknown line; every target's rank is -1 or more, so none is newer).
  const b: NewestBelow = { rank: -1, oldest: false };
  // Kept before the nodes below it are visited: a cycle in the schema (it has none: schema-acyclic.test.ts)
  // would stop here instead of looping. Indexed loops and no closure: this runs once per node in a fresh
  // process, in the interpreter, where each iterator step and closure is an allocation.
  below.set(s, b);
  const props = s.properties;
  if (props) {
    const names = Object.keys(props);
    for (let i = 0; i < names.length; i++) {
      const lines = linesAdding(names[i]);
      for (let j = 0; j < lines.length; j++) {
        if (rank(lines[j]) > b.rank) b.rank = rank(lines[j]);
        if (lines[j] === OLDEST) b.oldest = true;
      }
      addBelow(b, props[names[i]]);
    }
  }
  addBelow(b, s.items);
  addBelow(b, s.additionalProperties);
  return b;
}

/** Adds what is at or below the schema node `c` (unresolved) to `b`. */
function addBelow(b: NewestBelow, c: SchemaNode | boolean | undefined): void {
  const r = typeof c === 'object' ? resolveRef(c) : undefined;
  if (!r) return;
  const x = newestBelow(r);
  if (x.rank > b.rank) b.rank = x.rank;
  if (x.oldest) b.oldest = true;
}
const below = new Map<SchemaNode, NewestBelow>();

/** `namesNewerThan` per target (`line:belowOldest`), computed once. */
function newerNames(target: Pick<TargetVersion, 'line' | 'belowOldest'>, key: string): ReadonlySet<string> {
  let names = nameSets.get(key);
  if (!names) nameSets.set(key, (names = namesNewerThan(target.line, target.belowOldest === true)));
  return names;
}
const nameSets = new Map<string, ReadonlySet<string>>();

/** The values `newerFields` found no newer field in, with the targets (`line:belowOldest`) it checked. */
const noneNewer = new WeakMap<object, Set<string>>();

/** A schema node with no fields of its own to check (see `newerFields`). */
function freeForm(s: SchemaNode): boolean {
  return !s.properties && !s.items && (!s.additionalProperties || typeof s.additionalProperties !== 'object');
}

function unknownInTarget(at: Field, key: string, since: string, target: TargetVersion): EngineDiagnostic {
  return finding(
    'appset/unknown-field',
    `"${key}" was added in ${label(since)}: ${target.belowOldest ? `the API server of releases before ${OLDEST}` : `${versionLabel(target)}'s API server`} drops it without a word, so it has no effect. Checked against ${target.why}.`,
    at.keySpan,
    { related: targetRelated(target), data: { addedIn: since, target: target.line } },
  );
}
