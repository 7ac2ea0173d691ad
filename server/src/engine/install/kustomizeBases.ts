/**
 * A kustomize base that is also found as an install of its own (it states the version: a pinned remote
 * base of argoproj/argo-cd), beside the overlay that builds it (its settings, no version): kustomize
 * builds the overlay with the base's resources in it (kustomize `api/internal/target/kusttarget.go`
 * accumulates `resources:` — files and folders with a kustomization — and `components:`), so the two
 * are one install, the overlay's, whose version is the base's. The overlay's kustomization is read in
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

const MAX_DEPTH = 4;
const MAX_ENTRIES = 100;
const LISTS = ['resources', 'bases', 'components'];

function kustomizationIn(workspace: WorkspaceIndex, dir: string): Json | undefined {
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const f = workspace.file(`${dir}/${name}`);
    if (f) return f.docs[0]?.value;
  }
  return undefined;
}

/** The local folders a kustomization in `dir` builds (below it, through their own kustomizations). */
function builtFolders(workspace: WorkspaceIndex, dir: string): string[] {
  const seen = new Set<string>([dir]);
  const out: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const d of level) {
      const k = kustomizationIn(workspace, d);
      for (const field of LISTS) {
        const list = own(k, field);
        if (!Array.isArray(list)) continue;
        for (const entry of list.slice(0, MAX_ENTRIES)) {
          if (typeof entry !== 'string' || /^[a-z]+:\/\/|^git@|\?ref=|^(github|gitlab|bitbucket)\.(com|org)\//i.test(entry)) continue;
          const sub = joinPath(d, entry);
          if (!sub || seen.has(sub) || kustomizationIn(workspace, sub) === undefined) continue;
          seen.add(sub);
          out.push(sub);
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
    for (const dir of builtFolders(workspace, inst.key)) {
      const base = byKey.get(installOf(`${dir}/kustomization.yaml`).key);
      // A base that builds this install back is a kustomize cycle (a build error): left as it is.
      if (!base || base === inst || inst.bases.includes(base.key) || base.bases.includes(inst.key)) continue;
      inst.bases.push(base.key);
      inst.namespace ??= base.namespace;
    }
  }
}
