/**
 * Where a Flux HelmRelease's `valuesFrom` ConfigMaps and Secrets may be written in the repository. Flux
 * reads them from the cluster (helm-controller `internal/chartutil/values.go` ChartValuesFromReferences,
 * in the HelmRelease's namespace), so any manifest of the repository could define them, and their text
 * need not name any Argo CD setting (values holding only `server:` or `configs.cm`), so the install
 * scan's pre-filter (workspace/interests.ts ARGOCD_CONFIG) does not pass them. Teams keep them beside the
 * HelmRelease, in its kustomization's folder or one level up (`clusters/<name>/argocd/`, `…/values/`):
 * the YAML files under the HelmRelease folder's parent are the candidates, at most MAX_CANDIDATES of them.
 * A source not found there is said as not read (the verdict is then unknown), never taken as absent.
 */
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import { dirname } from '../paths';

const MAX_CANDIDATES = 200;

/** The YAML files that may define `valuesFrom` sources of the HelmRelease in `file`, nearest folder first. */
export function valuesFromCandidates(workspace: WorkspaceIndex, file: string): IndexedFile[] {
  const dir = dirname(file);
  const parent = dirname(dir);
  const under = (d: string) => (p: string) => p.startsWith(d === '/' ? '/' : d + '/');
  const paths = workspace.paths();
  const near = [...paths.filter(under(dir)), ...paths.filter((p) => under(parent)(p) && !under(dir)(p))];
  const out: IndexedFile[] = [];
  for (const p of near.slice(0, MAX_CANDIDATES)) {
    const f = workspace.file(p);
    if (f) out.push(f);
  }
  return out;
}
