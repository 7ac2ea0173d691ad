/**
 * A kustomize base that is also found as an install of its own (it states the version: a pinned remote
 * base of argoproj/argo-cd), beside the overlay that builds it (its settings, no version): kustomize
 * builds the overlay with the base's resources in it (kustomize `api/internal/target/kusttarget.go`
 * accumulates `resources:` — files and folders with a kustomization — and `components:`), so the two
 * are one install, the overlay's, whose version is the base's. The same holds for a file it lists as a
 * resource or patch whose folder was taken as an install of its own (`overlays/argocd-cmd-params-cm.yaml`
 * patched in by the kustomization above), and for the argo-cd chart a `helmCharts:` entry pulled and the
 * repository keeps (its Chart.yaml states a version of its own). The overlay's kustomization is read in
 * its install's folder; local folders it lists are followed down (bounded: MAX_DEPTH levels,
 * MAX_ENTRIES entries each); each one that is an install becomes a base of the overlay, which then runs
 * the ApplicationSets alone (install/instances.ts leaves bases out) and takes the base's namespace when
 * it states none. Remote resources are not followed (install/scan.ts says them as not read).
 */
import type { Json } from '../types';
import type { WorkspaceIndex } from '../workspace/index';
import type { Instance } from './instances';
import { installOf } from './instances';
import { joinPath } from './installers';
import { own } from '../objects';
import { argoHelmCharts } from './helmCharts';
import { foldAscii, isYamlName, startsWithScheme } from '../workspace/names';
import { GIT_HOST_PREFIXES } from './kustomizePaths';

const MAX_DEPTH = 4;
const MAX_ENTRIES = 100;
const LISTS = ['resources', 'bases', 'components'];
/** Lists whose entries are files kustomize reads into the build (a patch's `path:` too). */
const FILE_LISTS = ['resources', 'patches', 'patchesStrategicMerge'];

/**
 * An entry the walk does not follow, in any case: a URL (`scheme://`), `git@…`, a `?ref=` anywhere, or a bare
 * GitHub, GitLab or Bitbucket path. String tests, not a pattern (its compile was 0.2 ms of a first answer,
 * workspace/names.ts); the same answers as `/^[a-z]+:\/\/|^git@|\?ref=|^(github|gitlab|bitbucket)\.(com|org)\//i`.
 */
export function isRemoteEntry(ref: string): boolean {
  const lower = foldAscii(ref);
  return startsWithScheme(ref) || lower.startsWith('git@') || lower.includes('?ref=') || GIT_HOST_PREFIXES.some((h) => lower.startsWith(h));
}

function kustomizationIn(workspace: WorkspaceIndex, dir: string): Json | undefined {
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const f = workspace.file(`${dir}/${name}`);
    if (f) return f.docs[0]?.value;
  }
  return undefined;
}

/**
 * What a kustomization in `dir` builds from elsewhere: the local folders with a kustomization it lists
 * (followed through theirs), as `<folder>/kustomization.yaml`, and the files it lists as resources or
 * patches (`overlays/argocd-cmd-params-cm.yaml`), whose folder may have been taken as an install of its own.
 */
function builtFolders(workspace: WorkspaceIndex, dir: string): string[] {
  const seen = new Set<string>([dir]);
  const out: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const d of level) {
      const k = kustomizationIn(workspace, d);
      // A pulled argo-cd chart kept beside a `helmCharts:` entry (install/helmCharts.ts) is built here too.
      for (const chart of argoHelmCharts(k, `${d}/kustomization.yaml`, (p) => !!workspace.file(p)))
        for (const f of chart.files) if (f.rank === 0 && f.path) out.push(f.path);
      for (const field of FILE_LISTS) {
        const list = own(k, field);
        if (!Array.isArray(list)) continue;
        for (const entry of list.slice(0, MAX_ENTRIES)) {
          const ref = typeof entry === 'string' ? entry : own(entry, 'path');
          if (typeof ref !== 'string' || ref.includes('\n') || isRemoteEntry(ref) || !isYamlName(ref)) continue;
          const file = joinPath(d, ref);
          if (file && !seen.has(file) && workspace.file(file)) {
            seen.add(file);
            out.push(file);
          }
        }
      }
      for (const field of LISTS) {
        const list = own(k, field);
        if (!Array.isArray(list)) continue;
        for (const entry of list.slice(0, MAX_ENTRIES)) {
          if (typeof entry !== 'string' || isRemoteEntry(entry)) continue;
          const sub = joinPath(d, entry);
          if (!sub || seen.has(sub) || kustomizationIn(workspace, sub) === undefined) continue;
          seen.add(sub);
          out.push(`${sub}/kustomization.yaml`);
          next.push(sub);
        }
      }
    }
    level = next;
  }
  return out;
}

/** Makes each install that another install's kustomization builds a base of that one (see above). */
export function linkKustomizeBases(instances: Instance[], workspace: WorkspaceIndex): void {
  const byKey = new Map(instances.map((i) => [i.key, i]));
  for (const inst of instances) {
    if (inst.key.startsWith('app:')) continue;
    for (const path of builtFolders(workspace, inst.key)) {
      const base = byKey.get(installOf(path).key);
      // A base that builds this install back is a kustomize cycle (a build error): left as it is.
      if (!base || base === inst || inst.bases.includes(base.key) || base.bases.includes(inst.key)) continue;
      inst.bases.push(base.key);
      inst.namespace ??= base.namespace;
    }
  }
}
