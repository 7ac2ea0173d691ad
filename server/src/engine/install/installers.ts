/**
 * What installs and deploys Argo CD's configuration, read before the configuration itself so that the
 * model reads exactly what the install reads:
 * - an Argo CD `Application` whose source `path:` is a local chart that is or wraps argo-cd installs it
 *   with the chart's `values.yaml`, then its `helm.valueFiles` in order (relative to the chart, or
 *   `$<ref>/…` into the repository of a multi-source `ref:`), then `values`/`valuesObject`, then
 *   `parameters` (Argo CD `reposerver/repository/repository.go` passes them to `helm template` in that
 *   order; Helm merges later over earlier);
 * - an Application with `chart: argo-cd` selects `$<ref>/…` values files of the repository the same way;
 * - a Flux `HelmRelease` of argo-cd merges its `valuesFrom` ConfigMaps/Secrets in order, then
 *   `spec.values` (fluxcd helm-controller `internal/chartutil/values.go`);
 * - the folders an Application (`path:`) or a Flux `Kustomization` (`spec.path`) deploys, and the files
 *   a kustomization lists: a params ConfigMap that none of them reaches is written but not deployed;
 * - the folders an ApplicationSet's template deploys (`appSetDeploys`, asked apart): its source `path` as written, or, when the path is
 *   templated (`argocd/apps/{{.app}}/overlays/prod`), every folder below the literal folders before the
 *   first placeholder (`argocd/apps/`). A path that starts with a placeholder (`{{path}}`) tells nothing
 *   of where it points without expanding the generators, and is not counted.
 * Repositories named by `repoURL` are taken to be this one (a workspace holds one repository).
 */
import type { Json } from '../types';
import { startsWithScheme } from '../workspace/names';
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import { STEPWISE_CHARS } from '../workspace/index';
import { isObj, own } from '../objects';
import { isArgoChartSource, isOciSource } from '../versions/detect';
import { isAppSetValue } from '../kinds/appset';

const str = (v: Json | undefined): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** One values file an installing Application or HelmRelease selects, in Helm's order. */
export interface SelectedValues {
  /** Absolute path when it resolves inside the workspace. */
  path?: string;
  /** As written (`values-prod.yaml`, `$values/argocd/prod.yaml`). */
  written: string;
  /** Why it cannot be read (inside the chart package, another repository). */
  unread?: string;
}

/** An Application installing a local chart that is or wraps argo-cd. */
export interface ChartInstaller {
  /** `Application argocd (clusters/main/argocd.yaml)`-style label for messages. */
  label: string;
  /** `app:<file>#<name>`. */
  appKey: string;
  chartDir: string;
  namespace?: string;
  valueFiles: SelectedValues[];
}

/** An Application installing the argo-cd chart from a Helm repository, with `$ref` values files. */
export interface RefValues {
  /** The Application's file and name (its install key is `app:<file>#<name>`). */
  file: string;
  name: string;
  valueFiles: SelectedValues[];
}

export interface Installers {
  /** Chart folder → the Applications that install it. */
  charts: Map<string, ChartInstaller[]>;
  /** Application key (`app:<file>#<name>`) → its values files. */
  refs: Map<string, RefValues>;
  /** Folders something deploys (`recurse`: also the folders below). */
  deployed: { dir: string; recurse: boolean }[];
}

/** Joins a repository-relative path; refuses absolute paths, URLs and escapes above `base`'s root. */
export function joinPath(base: string, rel: string): string | undefined {
  if (!rel || rel.startsWith('/') || startsWithScheme(rel)) return undefined;
  const parts = base.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length <= 1) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/') || '/';
}

/** The workspace root that holds a file (the repository its Application paths are relative to). */
function rootOf(roots: readonly string[], file: string): string | undefined {
  return [...roots].sort((a, b) => b.length - a.length).find((r) => file.startsWith(r.endsWith('/') ? r : r + '/')) ?? roots[0];
}

/** True when a Chart.yaml is argo-cd or depends on it. */
export function isArgoChart(v: Json | undefined): boolean {
  const deps = own(v, 'dependencies');
  return own(v, 'name') === 'argo-cd' || (Array.isArray(deps) && deps.some((d) => own(d, 'name') === 'argo-cd'));
}

export function chartAt(workspace: WorkspaceIndex, dir: string): IndexedFile | undefined {
  for (const name of ['Chart.yaml', 'Chart.yml']) {
    const f = workspace.file(`${dir}/${name}`);
    if (f) return f;
  }
  return undefined;
}

/** A values file as written in `helm.valueFiles`, resolved against the chart folder or a `$ref` source's root. */
function selectValues(written: string, chartDir: string | undefined, root: string | undefined, refs: Set<string>): SelectedValues {
  const m = /^\$([^/]+)\/(.*)$/.exec(written);
  if (m) {
    if (!refs.has(m[1])) return { written, unread: `no source of the Application has ref: ${m[1]}` };
    const p = root ? joinPath(root, m[2]) : undefined;
    return p ? { path: p, written } : { written, unread: 'outside the repository' };
  }
  if (!chartDir) return { written, unread: 'inside the chart package, not in this repository' };
  const p = startsWithScheme(written) ? undefined : joinPath(chartDir, written);
  return p ? { path: p, written } : { written, unread: 'a URL or a path outside the repository' };
}

export function findInstallers(files: readonly IndexedFile[], workspace: WorkspaceIndex, roots: readonly string[]): Installers {
  const out: Installers = { charts: new Map(), refs: new Map(), deployed: [] };
  for (const file of files) {
    for (const d of file.docs) {
      const v = d.value;
      const kind = own(v, 'kind');
      const api = String(own(v, 'apiVersion') ?? '');
      const spec = own(v, 'spec');
      const root = rootOf(roots, file.path);
      if (kind === 'Kustomization' && api.startsWith('kustomize.toolkit.fluxcd.io/')) {
        const p = str(own(spec, 'path'));
        const dir = p !== undefined && root ? joinPath(root, p) : undefined;
        // Flux builds the folder (its kustomization, or every manifest below it when it has none).
        if (dir) out.deployed.push({ dir, recurse: true });
        continue;
      }
      if (kind !== 'Application' || !api.startsWith('argoproj.io/')) continue;
      const name = str(own(own(v, 'metadata'), 'name')) ?? '';
      const sources: Json[] = [];
      if (isObj(own(spec, 'source'))) sources.push(own(spec, 'source')!);
      const multi = own(spec, 'sources');
      if (Array.isArray(multi)) sources.push(...multi.slice(0, 50));
      const refs = new Set(sources.map((s) => str(own(s, 'ref'))).filter((x): x is string => !!x));
      const ns = str(own(own(spec, 'destination'), 'namespace'));
      const label = `Application ${name} (${root ? file.path.slice(root.length).replace(/^\/+/, '') : file.path})`;
      for (const src of sources) {
        const helm = own(src, 'helm');
        const vf = own(helm, 'valueFiles');
        const all = Array.isArray(vf) ? vf.filter((x): x is string => typeof x === 'string') : [];
        const written = all.slice(0, 50);
        // Past the bound: one entry said as not read (scanApplications.ts noteUnread), so the verdict is unknown.
        const past: SelectedValues[] =
          all.length > 50
            ? [{ written: `(${all.length - 50} more)`, unread: 'past the first 50 values files, which the install model reads' }]
            : [];
        // An OCI source's path is inside the artifact (Argo CD's OCI sources), not a folder of this repository.
        const path = isOciSource(src) ? undefined : str(own(src, 'path'));
        if (path !== undefined && root) {
          const dir = joinPath(root, path);
          if (!dir) continue;
          out.deployed.push({ dir, recurse: own(own(src, 'directory'), 'recurse') === true });
          const c = chartAt(workspace, dir);
          if (!c || !isArgoChart(c.docs[0]?.value)) continue;
          const list = out.charts.get(dir) ?? [];
          list.push({
            label,
            appKey: `app:${file.path}#${name}`,
            chartDir: dir,
            namespace: ns,
            valueFiles: [...written.map((w) => selectValues(w, dir, root, refs)), ...past],
          });
          out.charts.set(dir, list);
        } else if (isArgoChartSource(src) && written.length) {
          out.refs.set(`app:${file.path}#${name}`, {
            file: file.path,
            name,
            valueFiles: [...written.map((w) => selectValues(w, undefined, root, refs)), ...past],
          });
        }
      }
    }
  }
  return out;
}

/**
 * The folders the ApplicationSets of `files` deploy through their templates (see the header). Not part of
 * `findInstallers`: asked only where a bootstrap may be replaced (install/version.ts), so the ApplicationSet
 * files are parsed only then (workspace/interests.ts APPSET_FILES).
 */
export function appSetDeploys(files: readonly IndexedFile[], roots: readonly string[]): Installers['deployed'] {
  const out: Installers['deployed'] = [];
  for (const file of files) out.push(...fileDeploys(file, roots));
  return out;
}

/**
 * What each file's ApplicationSets deploy, kept per file (and root) instead of the file's parse: the
 * repository's ApplicationSet files (the open document's 111 KiB text among them on the bench) are read
 * for their template paths only, and their values and located trees were the largest thing the server kept
 * after its first answer (every MiB kept costs about 1.5 MiB of peak RSS, heapFlags.ts; issue 39).
 */
const deploysOf = new WeakMap<IndexedFile, { root: string; deployed: Installers['deployed'] }>();

function fileDeploys(file: IndexedFile, roots: readonly string[]): Installers['deployed'] {
  const root = rootOf(roots, file.path);
  if (!root) return [];
  const hit = deploysOf.get(file);
  if (hit && hit.root === root) return hit.deployed;
  const deployed: Installers['deployed'] = [];
  for (const d of file.readDocs()) if (isAppSetValue(d.value)) deployed.push(...templateDeploys(own(d.value, 'spec'), root));
  deploysOf.set(file, { root, deployed });
  return deployed;
}

/**
 * Reads the ApplicationSets of `files` not read yet (`appSetDeploys`), until `chars` characters of text
 * have been read (files of STEPWISE_CHARS or more are left to WorkspaceIndex.inSteps); true when all are. The language server reads them in steps before
 * it logs the installs (install/model.ts `parseInstallFilesAhead`).
 */
export function appSetDeploysAhead(files: readonly IndexedFile[], roots: readonly string[], chars: number): boolean {
  let read = 0;
  for (const file of files) {
    const root = rootOf(roots, file.path);
    // A large file is left to the log's reading in steps (WorkspaceIndex.inSteps): here it would be one block.
    if (!root || deploysOf.get(file)?.root === root || file.text.length >= STEPWISE_CHARS) continue;
    if (read && read + file.text.length > chars) return false;
    read += file.text.length;
    fileDeploys(file, roots);
  }
  return true;
}

/** One ApplicationSet's: literal paths, and templated ones below their literal folders. */
function templateDeploys(spec: Json | undefined, root: string): Installers['deployed'] {
  const tspec = own(own(spec, 'template'), 'spec');
  const sources: Json[] = [];
  if (isObj(own(tspec, 'source'))) sources.push(own(tspec, 'source')!);
  const multi = own(tspec, 'sources');
  if (Array.isArray(multi)) sources.push(...multi.slice(0, 50));
  const out: Installers['deployed'] = [];
  for (const src of sources) {
    const path = isOciSource(src) ? undefined : str(own(src, 'path'));
    if (path === undefined) continue;
    const at = path.indexOf('{{');
    if (at < 0) {
      const dir = joinPath(root, path);
      if (dir) out.push({ dir, recurse: own(own(src, 'directory'), 'recurse') === true });
      continue;
    }
    const literal = path.slice(0, at);
    const folder = literal.slice(0, literal.lastIndexOf('/') + 1).replace(/\/+$/, '');
    const dir = folder && !folder.startsWith('.') ? joinPath(root, folder) : undefined;
    if (dir && dir !== root) out.push({ dir, recurse: true });
  }
  return out;
}

/** True when something in the repository deploys the folder `dir` (an Application's or Flux Kustomization's path). */
export function folderDeployed(inst: Pick<Installers, 'deployed'>, dir: string): boolean {
  return inst.deployed.some((d) => d.dir === dir || (d.recurse && dir.startsWith(d.dir === '/' ? '/' : d.dir + '/')));
}
