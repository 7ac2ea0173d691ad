import { foldAscii } from '../workspace/names';

/**
 * A kustomize resource that is Argo CD's own install, fetched when kustomize builds: the manifests of
 * argoproj/argo-cd (`manifests/cluster-install`, `namespace-install`, `ha/…`, `core-install`, or a raw
 * `…/manifests/install.yaml`), or argocd-autopilot's bootstrap base (`argoproj-labs/argocd-autopilot`
 * `manifests/base`, `manifests/insecure`, which themselves build argo-cd's `cluster-install`:
 * argocd-autopilot `manifests/base/kustomization.yaml`). A kustomization listing one is an Argo CD
 * install, whatever else it merges (autopilot's bootstrap often merges only into `argocd-cm`). Argo CD's
 * CRDs alone (`manifests/crds`) are not an install. These upstream manifests leave the ApplicationSet
 * controller's settings at their defaults (install/scan.ts reads them as known, never as "not read").
 * The patterns are in lower case and read the reference folded (workspace/names.ts `foldAscii`): the matches of
 * `/i` patterns, whose compile in the first answer cost a half more.
 */
const ARGO_CD_MANIFESTS =
  /argoproj\/argo-cd(?:\.git)?\/{1,2}manifests(?:\/|\?|$)|raw\.githubusercontent\.com\/argoproj\/argo-cd\/[^/\s]+\/manifests\//;
const AUTOPILOT_MANIFESTS = /argoproj-labs\/argocd-autopilot(?:\.git)?\/{1,2}manifests(?:\/|\?|$)/;
const CRDS_ONLY = /\/manifests\/crds(?:[/?]|$)/;

/** True when a kustomization resource is Argo CD's own install manifests (see above). */
export function installsArgoCd(ref: string): boolean {
  // The manifests' patterns need `argoproj`, the CRDs' one `/manifests/crds` (in any case): looked for first, a
  // pattern runs (and is compiled, once per process: workspace/names.ts) only for a reference that may match it.
  const lower = foldAscii(ref);
  if (!lower.includes('argoproj')) return false;
  return (
    (ARGO_CD_MANIFESTS.test(lower) || AUTOPILOT_MANIFESTS.test(lower)) && !(lower.includes('/manifests/crds') && CRDS_ONLY.test(lower))
  );
}
