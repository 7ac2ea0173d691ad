/**
 * Partial ApplicationSets: documents of kind ApplicationSet that are not whole resources but patches
 * applied to one elsewhere, so they never reach the API server as written:
 *
 * - a strategic-merge patch with a `$patch` directive (`$patch: delete` removes the ApplicationSet of
 *   that name from a kustomize build; `$patch: replace`/`merge` on a part of it);
 * - a file a kustomization lists as a patch (`patches: - path:`, `patchesStrategicMerge:`,
 *   `patchesJson6902: - path:`), relative to the kustomization's folder (kustomize
 *   `api/types/kustomization.go`: Patches, PatchesStrategicMerge, PatchesJson6902). kustomize loads
 *   patch files only in or below the kustomization's folder unless told otherwise (see
 *   KUSTOMIZE_OUTSIDE_PATCHES), so the kustomizations of the file's ancestor folders are read first,
 *   a few `stat`s, and the workspace index is asked only for those whose patches climb out of their folder;
 * - a document with no `spec` at all beside a kustomization (an overlay's patch file that the
 *   kustomization names through a glob or a generator we do not read);
 * - an entry of an argocd-apps values file that overrides an entry of the chart's `values.yaml`
 *   (Helm coalesces `-f values-x.yaml` over the chart's values, so the override holds only what changes).
 *
 * Such a document is validated for what it holds, but required fields are not asked of it, and it
 * is not expanded on its own (the ApplicationSet it patches is).
 */
import type { SourceText } from '../inputs';
import type { AppSetDoc } from '../kinds';
import { KUSTOMIZE_OUTSIDE_PATCHES } from '../workspace/interests';
import type { IndexedFile } from '../workspace/index';
import { dirname, resolvePath, workspaceRelative } from '../paths';
import { isObj } from '../objects';
import { declaresAppSet } from '../kinds/appset';

/** The file names kustomize reads as a kustomization (kustomize `api/konfig/general.go`: RecognizedKustomizationFileNames). */
const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const KUSTOMIZATION = /(^|\/)(kustomization\.ya?ml|Kustomization)$/;

/** Why this ApplicationSet document is a patch, in words for a note; undefined for a whole ApplicationSet. */
/** Whether a parsed value holds a `$patch` key, kept per value (an analysis made again from the same parse asks again). */
const patchDirectives = new WeakMap<object, boolean>();

export function partialReason(doc: AppSetDoc, file: SourceText): string | undefined {
  let patch = patchDirectives.get(doc.value);
  if (patch === undefined) patchDirectives.set(doc.value, (patch = mayHoldPatchKey(doc, file.text) && hasPatchDirective(doc.value, 0)));
  if (patch) return 'a kustomize strategic-merge patch ($patch directive)';
  const path = file.path;
  if (doc.helmValues) return path ? valuesOverride(doc, path, file) : undefined;
  if (!path) return undefined;
  // One answer per analysed file: its ApplicationSets share it (50 in one file stat the same folders once).
  let listed = listedIn.get(file);
  if (listed === undefined) listedIn.set(file, (listed = listing(file, path) ?? null));
  if (listed)
    return `a kustomize patch (listed under ${listed.field} in ${workspaceRelative(file.host.roots(), listed.by) ?? basename(listed.by)})`;
  let overlay = overlaidIn.get(file);
  if (overlay === undefined) overlaidIn.set(file, (overlay = overlayReplacingGenerators(file, path) ?? null));
  if (overlay)
    return `a kustomize base whose generators the overlay ${workspaceRelative(file.host.roots(), overlay) ?? overlay} replaces (a list in a custom resource is replaced whole by a patch)`;
  if (!isObj(doc.value.spec) && doc.value.spec === undefined) {
    const dir = dirname(path);
    for (const d of [dir, dirname(dir)]) {
      const k = KUSTOMIZATION_NAMES.find((n) => file.host.stat(`${d}/${n}`)?.isFile);
      if (k) return `a partial ApplicationSet (no spec) in a kustomize folder (${d === dir ? 'beside' : 'below'} ${k})`;
    }
  }
  return undefined;
}

const listedIn = new WeakMap<SourceText, Listed | null>();
const overlaidIn = new WeakMap<SourceText, string | null>();

/** Folders looked at around a kustomize base for its overlays (siblings and their children). */
const MAX_OVERLAY_DIRS = 60;

/**
 * A kustomize base (the file is a `resources` entry of its folder's kustomization) that an overlay
 * beside it (`../overlays/dev`, `../dev`: the base folder's siblings and their children) builds with a
 * patch that sets `spec.generators`: kustomize's strategic merge replaces a list of a custom resource
 * whole (no merge keys; kustomize api/filters/patchstrategicmerge), so the base's generators, often
 * placeholders (`<env>`), never reach Argo CD as written. Returns the overlay's kustomization.
 */
/**
 * Whether `partialReason` found the file to be a kustomize base whose generators an overlay replaces
 * (asked after it, for the same file): the base's generators never reach Argo CD.
 */
export function generatorsReplaced(file: SourceText): boolean {
  return !!overlaidIn.get(file);
}

function overlayReplacingGenerators(file: SourceText, path: string): string | undefined {
  const base = dirname(path);
  const own = KUSTOMIZATION_NAMES.map((n) => `${base}/${n}`).find((k) => file.host.stat(k)?.isFile);
  const listing = own ? file.workspace.file(own) : undefined;
  if (!listing || !resourcesOf(listing).includes(path)) return undefined;
  const parent = dirname(base);
  const dirs: string[] = [];
  for (const name of (file.host.readDir(parent) ?? []).slice(0, MAX_OVERLAY_DIRS)) {
    const d = `${parent}/${name}`;
    if (d === base || !file.host.stat(d)?.isDirectory) continue;
    dirs.push(d);
    for (const child of (file.host.readDir(d) ?? []).slice(0, MAX_OVERLAY_DIRS))
      if (file.host.stat(`${d}/${child}`)?.isDirectory) dirs.push(`${d}/${child}`);
    if (dirs.length > MAX_OVERLAY_DIRS) break;
  }
  for (const d of dirs) {
    for (const n of KUSTOMIZATION_NAMES) {
      const k = `${d}/${n}`;
      if (!file.host.stat(k)?.isFile) continue;
      const f = file.workspace.file(k);
      if (f && resourcesOf(f).includes(base) && patchesSetGenerators(f, file)) return k;
    }
  }
  return undefined;
}

/** The absolute paths a kustomization's `resources` name. */
function resourcesOf(f: IndexedFile): string[] {
  const dir = dirname(f.path);
  const out: string[] = [];
  for (const d of f.docs)
    if (isObj(d.value) && Array.isArray(d.value.resources))
      for (const r of d.value.resources)
        if (typeof r === 'string' && !r.includes('://')) out.push(resolvePath(dir, r.trim().replace(/\/+$/, '')));
  return out;
}

/** Whether one of a kustomization's patches (inline, or a file it names) writes `generators:` under a spec. */
function patchesSetGenerators(f: IndexedFile, file: SourceText): boolean {
  const dir = dirname(f.path);
  const sets = (text: string | undefined) => !!text && (declaresAppSet(text) || /^\s*spec:/m.test(text)) && /^\s*generators:/m.test(text);
  for (const d of f.docs) {
    if (!isObj(d.value)) continue;
    const { patches, patchesStrategicMerge } = d.value;
    for (const p of [...(Array.isArray(patches) ? patches : []), ...(Array.isArray(patchesStrategicMerge) ? patchesStrategicMerge : [])]) {
      const inline = typeof p === 'string' ? p : isObj(p) && typeof p.patch === 'string' ? p.patch : undefined;
      const named = isObj(p) && typeof p.path === 'string' ? p.path : typeof p === 'string' && !p.includes('\n') ? p : undefined;
      if (inline?.includes('\n') && sets(inline)) return true;
      if (named && sets(file.host.readFile(resolvePath(dir, named.trim())))) return true;
    }
  }
  return false;
}

/**
 * Whether the document's text can hold a `$patch` key: written out, or behind an escape of a
 * double-quoted key (`"\u0024patch"`); a text with neither (nearly every ApplicationSet) is not
 * walked (the walk of a 540-element list's value, in a fresh process, was a part of the first answer).
 * An argocd-apps entry's value comes from its values document: walked always.
 */
function mayHoldPatchKey(doc: AppSetDoc, text: string): boolean {
  if (doc.helmValues) return true;
  const own = text.slice(doc.span.start, doc.span.end);
  return own.includes('$patch') || own.includes('\\');
}

/** Loops without closures or key lists: it walks the whole value of every keystroke's new text. */
function hasPatchDirective(v: unknown, depth: number): boolean {
  if (depth > 20) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (hasPatchDirective(v[i], depth + 1)) return true;
    return false;
  }
  if (!isObj(v)) return false;
  if (Object.prototype.hasOwnProperty.call(v, '$patch')) return true;
  for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && hasPatchDirective(v[k], depth + 1)) return true;
  return false;
}

interface Listed {
  field: string;
  /** The kustomization's path. */
  by: string;
}

/**
 * Where a kustomization lists `path` as a patch: first the kustomizations of its own and each
 * ancestor folder up to its workspace root (nearest first), then those elsewhere whose patches
 * climb out of their folder (answered from the files read so far while the server's first answer
 * must not wait for the workspace).
 */
function listing(file: SourceText, path: string): Listed | undefined {
  const root = rootOf(file, path);
  if (root !== undefined) {
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      for (const name of KUSTOMIZATION_NAMES) {
        const k = dir === '/' ? '/' + name : `${dir}/${name}`;
        if (!file.host.stat(k)?.isFile) continue;
        const f = file.workspace.file(k);
        const hit = f && patchFiles(f).get(path);
        if (hit) return hit;
      }
      if (dir.length <= root.length || dir === '/') break;
    }
  }
  // A patch path always ends with the file's name: a kustomization whose text lacks it is not parsed.
  const name = basename(path);
  for (const f of file.workspace.matching(KUSTOMIZE_OUTSIDE_PATCHES)) {
    if (!KUSTOMIZATION.test(f.path) || !f.text.includes(name)) continue;
    const hit = patchFiles(f).get(path);
    if (hit) return hit;
  }
  return undefined;
}

/** The patch files a kustomization lists: absolute path → where (kept per parsed file). */
const listings = new WeakMap<IndexedFile, Map<string, Listed>>();

function patchFiles(f: IndexedFile): Map<string, Listed> {
  const hit = listings.get(f);
  if (hit) return hit;
  const files = new Map<string, Listed>();
  const dir = dirname(f.path);
  for (const d of f.docs) {
    if (!isObj(d.value)) continue;
    const add = (field: string, p: unknown) => {
      // Inline patches are YAML text, not file names.
      if (typeof p !== 'string' || p.includes('\n') || !/\.ya?ml$/i.test(p.trim())) return;
      const abs = resolvePath(dir, p.trim());
      if (!files.has(abs)) files.set(abs, { field, by: f.path });
    };
    const { patches, patchesStrategicMerge, patchesJson6902 } = d.value;
    if (Array.isArray(patchesStrategicMerge)) for (const p of patchesStrategicMerge) add('patchesStrategicMerge', p);
    if (Array.isArray(patches)) for (const p of patches) add('patches', isObj(p) ? p.path : p);
    if (Array.isArray(patchesJson6902)) for (const p of patchesJson6902) add('patchesJson6902', isObj(p) ? p.path : undefined);
  }
  listings.set(f, files);
  return files;
}

/** The longest workspace root that holds `p`. */
function rootOf(file: SourceText, p: string): string | undefined {
  return [...file.host.roots()]
    .map((r) => (r.length > 1 && r.endsWith('/') ? r.slice(0, -1) : r))
    .sort((a, b) => b.length - a.length)
    .find((r) => p.startsWith(r === '/' ? r : r + '/'));
}

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * An entry of a values file other than the chart's `values.yaml` that the chart's `values.yaml`
 * also declares (same name): Helm merges it over the default, so it only overrides.
 */
function valuesOverride(doc: AppSetDoc, path: string, file: SourceText): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/^values\.ya?ml$/i.test(base)) return undefined;
  const dir = dirname(path);
  if (!file.host.stat(`${dir}/Chart.yaml`)?.isFile) return undefined;
  const defaults = ['values.yaml', 'values.yml'].map((n) => `${dir}/${n}`).find((p) => file.host.stat(p)?.isFile);
  if (!defaults) return undefined;
  const values = file.workspace.file(defaults)?.docs[0]?.value;
  if (!doc.name || !isObj(values)) return undefined;
  // The entry's name as a map key (chart 2.x) or a `name:` (chart 1.x), at the top or under an umbrella alias.
  const sites = [values.applicationsets, ...Object.values(values).map((v) => (isObj(v) ? v.applicationsets : undefined))];
  const declares = (s: unknown) =>
    isObj(s) ? Object.prototype.hasOwnProperty.call(s, doc.name) : Array.isArray(s) && s.some((e) => isObj(e) && e.name === doc.name);
  if (!sites.some(declares)) return undefined;
  return `an override of "${doc.name}" in the chart's values.yaml (Helm merges this file over it)`;
}
