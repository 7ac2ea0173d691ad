/**
 * The offline stand-in for the controller's cluster list and live data, read from the workspace:
 * - Argo CD cluster Secrets (`argocd.argoproj.io/secret-type: cluster`, `data` base64 or `stringData`);
 * - our inventory file, for teams that do not keep Secrets in git:
 *
 *     apiVersion: appset-tools/v1
 *     kind: ClusterInventory
 *     clusters:
 *       - name: prod-eu-1
 *         server: https://prod-eu-1.example.com
 *         labels: {env: prod, tier: canary}
 *         annotations: {}
 *         project: ""            # optional
 *     samples:                   # parameter sets for generators that need live data
 *       pullRequest: [{number: "42", branch: feat/x, ...}]
 *       scmProvider: [...]
 *       clusterDecisionResource: [...]
 *       plugin: [...]
 *
 * Files named in `appsetTools.inventoryFiles` are read too (they may live outside the usual scan).
 */
import { doublestarMatch } from '../rules/globs';
import type { ResolvedCluster } from '../rules/appProject';
import type { SourceText } from '../inputs';
import type { Json, Span } from '../types';
import type { IndexedFile } from '../workspace/index';
import { CLUSTER_FILES } from '../workspace/interests';
import { isObj } from '../objects';
import { memoized } from '../memoized';
import { lineNumber } from '../yaml';
import { clusterPlaceholder } from './placeholders';

export const SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';
export const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';

export interface Cluster {
  name: string;
  server: string;
  project: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Where it was declared, for hovers and related information. */
  file: string;
  /** The declaration in that file: the Secret's document or the inventory entry. */
  span?: Span;
  /** How a message names it: `cluster Secret "cluster-prod-0"` or `ClusterInventory entry "prod-0"`. */
  label?: string;
}

/** A cluster Secret or inventory entry left out because its name or server is a placeholder. */
export interface ClusterTemplate {
  file: string;
  span?: Span;
  field: 'name' | 'server';
  /** The placeholder, quoted, for messages. */
  what: string;
}

export interface Inventory {
  clusters: Cluster[];
  /** Entries that are templates (placeholders), not clusters: see placeholders.ts. */
  templates: ClusterTemplate[];
  samples: Map<string, Record<string, unknown>[]>;
  files: string[];
  /** Entries of `appsetTools.inventoryFiles` that named no readable file (said in a note, never dropped in silence). */
  unread: string[];
  /** Cluster Secrets / inventories that could not be read (an alias bomb): said in a note and on their file. */
  skipped: { file: string; span: Span; line: number; why: string }[];
  /**
   * Read while the language server still reads the workspace (WorkspaceIndex `matchingHeld`): only the
   * files read so far, so nothing may be claimed from it; the server re-validates once the workspace is read.
   */
  held: boolean;
}

const cache = new WeakMap<object, { version: number; settings: string; inv: Inventory }>();

/**
 * The clusters Argo CD would know from this workspace (names and servers, the in-cluster one
 * included), or undefined when the workspace declares none (then nothing can be said about a cluster).
 */
/**
 * The clusters Argo CD knows, as the repository declares them (cluster Secrets, inventories), plus the
 * in-cluster one it adds when no Secret declares that server (argo-cd util/db/cluster.go: ListClusters,
 * GetClusterServersByName). The one list of the registered clusters: destination checks, AppProject
 * permissions and `appset diff` read it.
 */
export interface KnownClusters {
  /** The repository declares a cluster; when it declares none, which clusters exist is unknown here. */
  declared: boolean;
  all: ResolvedCluster[];
  /** The first cluster of each name and of each server. */
  byName: Map<string, ResolvedCluster>;
  byServer: Map<string, ResolvedCluster>;
}

const knownOf = new WeakMap<Inventory, KnownClusters>();

export function knownClusters(file: SourceText): KnownClusters {
  return memoized(knownOf, loadInventory(file), resolveClusters);
}
function resolveClusters(inv: Inventory): KnownClusters {
  const all: ResolvedCluster[] = inv.clusters.map((c) => ({ name: c.name, server: c.server, project: c.project }));
  if (!all.some((c) => c.server === IN_CLUSTER_SERVER)) all.push({ name: 'in-cluster', server: IN_CLUSTER_SERVER, project: '' });
  const byName = new Map<string, ResolvedCluster>();
  const byServer = new Map<string, ResolvedCluster>();
  for (const c of all) {
    if (!byName.has(c.name)) byName.set(c.name, c);
    if (!byServer.has(c.server)) byServer.set(c.server, c);
  }
  return { declared: inv.clusters.length > 0, all, byName, byServer };
}

/** The names and servers of the known clusters, for `appset diff`; undefined when the repository declares none. */
export function registeredClusters(file: SourceText): { names: string[]; servers: string[] } | undefined {
  const known = knownClusters(file);
  return known.declared ? { names: [...known.byName.keys()], servers: [...known.byServer.keys()] } : undefined;
}

export function loadInventory(file: SourceText): Inventory {
  const ws = file.workspace;
  const key = JSON.stringify(file.settings.inventoryFiles);
  const hit = cache.get(ws);
  if (hit && hit.version === ws.version && hit.settings === key && hit.inv.held === ws.reading) {
    if (hit.inv.held) ws.noteHeld();
    return hit.inv;
  }
  const files = new Map<string, IndexedFile>();
  // The language server's first answers do not wait for the workspace to be listed and read: the
  // cluster files read so far, and the findings that use them wait (service/lintRun.ts).
  const held = ws.reading;
  for (const f of held ? ws.matchingHeld(CLUSTER_FILES) : ws.matching(CLUSTER_FILES)) files.set(f.path, f);
  const unread: string[] = [];
  for (const f of extraFiles(file, unread)) files.set(f.path, f);
  const inv: Inventory = { clusters: [], templates: [], samples: new Map(), files: [], unread, skipped: [], held };
  for (const f of files.values()) {
    let used = false;
    for (const d of f.docs) used = readDoc(d.value, f.path, inv, d.span, f.text) || used;
    for (const u of f.unread)
      if (CLUSTER_FILES.test(f.text.slice(u.span.start, u.span.end), f.path))
        inv.skipped.push({ file: f.path, span: u.span, line: lineNumber(f.text, u.span.start), why: u.why });
    if (used) inv.files.push(f.path);
  }
  cache.set(ws, { version: ws.version, settings: key, inv });
  return inv;
}

function extraFiles(file: SourceText, unread: string[]): IndexedFile[] {
  const out: IndexedFile[] = [];
  const roots = file.host.roots();
  for (const pattern of file.settings.inventoryFiles) {
    const before = out.length;
    if (/[*?[{]/.test(pattern)) {
      const abs = pattern.startsWith('/') ? [pattern] : roots.map((r) => `${r}/${pattern}`);
      const matchers = abs.map(doublestarMatch);
      for (const p of file.workspace.paths()) {
        if (!matchers.some((m) => m(p))) continue;
        const f = file.workspace.file(p);
        if (f) out.push(f);
      }
    } else {
      const candidates = pattern.startsWith('/') ? [pattern] : roots.map((r) => `${r}/${pattern}`.replace(/\/\.\//g, '/'));
      for (const c of candidates) {
        const f = file.workspace.file(c);
        if (f) out.push(f);
      }
    }
    if (out.length === before) unread.push(pattern);
  }
  return out;
}

function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v))
    for (const k of Object.keys(v))
      Object.defineProperty(out, k, { value: String(v[k] ?? ''), enumerable: true, writable: true, configurable: true });
  return out;
}

function readDoc(v: Json, path: string, inv: Inventory, span?: Span, text?: string): boolean {
  if (!isObj(v)) return false;
  if (v.kind === 'Secret' && isObj(v.metadata) && strMap(v.metadata.labels)[SECRET_TYPE_LABEL] === 'cluster') {
    const data: Record<string, string> = {};
    if (isObj(v.data)) for (const [k, x] of Object.entries(v.data)) data[k] = Buffer.from(String(x ?? ''), 'base64').toString('utf8');
    if (isObj(v.stringData)) for (const [k, x] of Object.entries(v.stringData)) data[k] = String(x ?? '');
    const raw = (k: string) => (isObj(v.stringData) && k in v.stringData ? v.stringData[k] : data[k]);
    const placeholder = clusterPlaceholder(raw('name'), raw('server'));
    if (placeholder) {
      inv.templates.push({ file: path, span, ...placeholder });
      return true;
    }
    inv.clusters.push({
      name: data.name ?? '',
      server: data.server ?? '',
      project: data.project ?? '',
      labels: strMap(v.metadata.labels),
      annotations: strMap(v.metadata.annotations),
      file: path,
      span: span && text !== undefined ? headOf(text, span) : span,
      label: `cluster Secret "${String(v.metadata.name ?? data.name ?? '')}"`,
    });
    return true;
  }
  if (v.kind === 'ClusterInventory' && typeof v.apiVersion === 'string' && v.apiVersion.startsWith('appset-tools/')) {
    if (Array.isArray(v.clusters)) {
      for (const c of v.clusters) {
        if (!isObj(c)) continue;
        const placeholder = clusterPlaceholder(c.name, c.server);
        if (placeholder) {
          inv.templates.push({ file: path, span, ...placeholder });
          continue;
        }
        const labels = strMap(c.labels);
        // Argo CD adds the secret-type label to every cluster Secret; selectors can see it.
        Object.defineProperty(labels, SECRET_TYPE_LABEL, { value: 'cluster', enumerable: true, writable: true, configurable: true });
        const name = String(c.name ?? '');
        inv.clusters.push({
          name,
          server: String(c.server ?? ''),
          project: String(c.project ?? ''),
          labels,
          annotations: strMap(c.annotations),
          file: path,
          span: span && text !== undefined ? entrySpan(text, span, name) : span,
          label: `ClusterInventory entry "${name}"`,
        });
      }
    }
    if (isObj(v.samples)) {
      for (const [kind, list] of Object.entries(v.samples)) {
        if (!Array.isArray(list)) continue;
        const arr = inv.samples.get(kind) ?? [];
        for (const s of list) if (isObj(s)) arr.push(s);
        inv.samples.set(kind, arr);
      }
    }
    return true;
  }
  return false;
}

/** The first content line of a document (its `apiVersion:` line): where related information points. */
function headOf(text: string, span: Span): Span {
  let start = span.start;
  // Skip leading comments and blank lines, so the location lands on the Secret itself.
  for (;;) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? span.end : end);
    if (end < 0 || end >= span.end || (line.trim() && !line.trim().startsWith('#')))
      return { start, end: Math.min(end < 0 ? span.end : end, span.end) };
    start = end + 1;
  }
}

/** The `name: <name>` line of an inventory entry (first match inside the document), else the document's head. */
function entrySpan(text: string, span: Span, name: string): Span {
  const body = text.slice(span.start, span.end);
  const m = new RegExp(`name:\\s*["']?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?\\s*$`, 'm').exec(body);
  if (!m) return headOf(text, span);
  return { start: span.start + m.index, end: span.start + m.index + m[0].trimEnd().length };
}
