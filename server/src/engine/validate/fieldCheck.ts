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
import { fieldAddedIn, mayBeNewer, newerThan } from '../versions/fields';
import { label, OLDEST, versionLabel } from '../versions/releases';
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
  const holders = newerHolders(target, key);
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
    if (!holders.has(s)) return;
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
        const since = path[0] === 'spec' ? fieldAddedIn(path, 1) : undefined;
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
 * The schema nodes (resolved) below which a field newer than the target may be: those whose own
 * properties include a name `mayBeNewer` gives, and every node the walk can step from to one of them.
 * Any other node's subtree holds no newer field whatever its value, so the walk does not enter it (on an
 * ApplicationSet checked against the newest release, nothing; issue 39). Per target, computed once.
 * A subtree not entered is not counted against the walk's node budget either: findings the budget cut
 * off after a large skipped subtree (over 50,000 nodes) are now found.
 */
function newerHolders(target: Pick<TargetVersion, 'line' | 'belowOldest'>, key: string): Set<SchemaNode> {
  const known = holderSets.get(key);
  if (known) return known;
  const graph = schemaGraph();
  const parents = new Map<SchemaNode, SchemaNode[]>();
  for (const [s, next] of graph)
    for (const n of next) {
      const ps = parents.get(n);
      if (ps) ps.push(s);
      else parents.set(n, [s]);
    }
  const holders = new Set<SchemaNode>();
  const queue: SchemaNode[] = [];
  for (const s of graph.keys())
    if (s.properties && Object.keys(s.properties).some((k) => mayBeNewer(k, target.line, target.belowOldest === true))) {
      holders.add(s);
      queue.push(s);
    }
  while (queue.length)
    for (const p of parents.get(queue.pop()!) ?? [])
      if (!holders.has(p)) {
        holders.add(p);
        queue.push(p);
      }
  holderSets.set(key, holders);
  return holders;
}
const holderSets = new Map<string, Set<SchemaNode>>();

/** Every schema node the walk can reach from the root (resolved), with the nodes it can step to. */
function schemaGraph(): Map<SchemaNode, SchemaNode[]> {
  if (graph) return graph;
  const g = new Map<SchemaNode, SchemaNode[]>();
  const stack = [resolveRef(APPSET_SCHEMA)].filter((s): s is SchemaNode => !!s);
  while (stack.length) {
    const s = stack.pop()!;
    if (g.has(s)) continue;
    const next: SchemaNode[] = [];
    const add = (c: SchemaNode | boolean | undefined) => {
      const r = typeof c === 'object' ? resolveRef(c) : undefined;
      if (r) next.push(r);
    };
    for (const c of Object.values(s.properties ?? {})) add(c);
    add(s.items);
    add(s.additionalProperties);
    g.set(s, next);
    for (const r of next) if (!g.has(r)) stack.push(r);
  }
  return (graph = g);
}
let graph: Map<SchemaNode, SchemaNode[]> | undefined;

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
