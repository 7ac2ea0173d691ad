/**
 * What the engine looks for in the workspace's YAML files, as cheap text tests that run before any
 * YAML parsing. A repository may hold thousands of YAML files while only a handful can matter
 * (cluster Secrets, Argo CD's own configuration); the index reads each file once, keeps the text
 * of files that pass some interest's test and parses only those, when a consumer asks.
 *
 * A test must never miss a file that its consumer would use: it may let through files that turn
 * out not to matter (they are parsed and ignored), never the other way round. Each test below says
 * why it is complete for its consumer; `test/unit/workspace-index.test.ts` checks, through the
 * engine's door, that every consumer's answers are the same with and without the pre-filter
 * (`getLanguageService({ prefilter: false })`) over the test fixtures.
 */
import { declaresAppSet } from '../kinds/appset';
import { isKustomizationName } from './names';
import { isTrimmed, isWordCode } from '../yaml';

export interface Interest {
  /** Stable name (part of the CLI cache key). */
  name: string;
  /** Passes the files the consumer may use: true when the text (or path) may matter. */
  test(text: string, path: string): boolean;
  /**
   * The language server may answer from the files read so far while the workspace is read in the
   * background (WorkspaceIndexOptions.defer), and re-validates once it is read. Only for interests
   * whose absence has a safe default (no install found: the newest release), or whose consumer asks
   * `WorkspaceIndex.stillReading()` and claims nothing meanwhile (no AppProject called unknown); never
   * for ones whose absence is itself a finding (no cluster Secret matches, progressive syncs off).
   */
  deferrable?: boolean;
}

/**
 * Cluster Secrets and our ClusterInventory files (generators/inventory.ts): a Secret is only read
 * when it carries the `argocd.argoproj.io/secret-type` label, an inventory only when its kind is
 * `ClusterInventory`; both names must appear literally in the file.
 */
export const CLUSTER_FILES: Interest = {
  name: 'clusters',
  test: (text) => text.includes('argocd.argoproj.io/secret-type') || text.includes('ClusterInventory'),
};

/**
 * Argo CD configuration that can enable progressive syncs (install/scan.ts). Every piece of
 * evidence names the setting (`applicationsetcontroller.enable.progressive.syncs`,
 * `--enable-progressive-syncs`, `ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS`, or the
 * pre-rename `…progressive.rollouts` forms), so it contains "progressive" in either case. The quick
 * fix's targets are the `argocd-cmd-params-cm` ConfigMap, `ArgoCD` resources and argo-cd chart
 * values (`configs.params`, `applicationSet.extraArgs/extraEnv`). A kustomization matters without
 * naming the setting only when it points a patch file at the controller (its JSON6902 `target`
 * names the `…applicationset-controller`) or reads a non-YAML patch file (`.json`, not indexed on
 * its own). A kustomization's `helmCharts:` matters (install/helmCharts.ts: an argo-cd chart inflated there is
 * an install, its values files and `valuesInline` its configuration), and so does one that lists Argo CD's own
 * manifests (`argoproj/argo-cd`, argocd-autopilot's base: install/upstreamManifests.ts). A kustomization's `namespace:` also matters: it is the namespace of the install it builds
 * (install/instances.ts decides which install runs an ApplicationSet by it). The other controller
 * settings the install model reads (install/evidence.ts CONTROLLER_SETTINGS) are named by a ConfigMap key
 * `applicationsetcontroller.…`, an env var `ARGOCD_APPLICATIONSET_CONTROLLER_…`, or a flag of the
 * `…applicationset-controller` Deployment (or chart values holding `params`/`extraArgs`/`extraEnv`). A
 * `Chart.yaml` that names `argo-cd` (the chart itself or an umbrella's dependency) passes too: the scan
 * reads its values files from there, so values that do not name a setting yet are still its configuration.
 */
export const ARGOCD_CONFIG: Interest = {
  name: 'argocd-config',
  // Literal words by `includes`, a pattern only where a word needs its boundary (kept behind its word): the
  // patterns, compiled for the open document in every first answer, cost it about 0.35 ms (names.ts).
  test: (text, path) =>
    text.includes('progressive') ||
    text.includes('PROGRESSIVE') ||
    text.includes('params') ||
    text.includes('extraArgs') ||
    text.includes('extraEnv') ||
    text.includes('applicationsetcontroller') ||
    text.includes('APPLICATIONSET_CONTROLLER') ||
    text.includes('applicationset-controller') ||
    (text.includes('ArgoCD') && /\bArgoCD\b/.test(text)) ||
    // What installs or deploys the configuration (install/installers.ts): Applications, HelmReleases,
    // Flux Kustomizations.
    text.includes('valueFiles') ||
    text.includes('valuesFrom') ||
    text.includes('kustomize.toolkit.fluxcd.io') ||
    namesDeployerKind(text) ||
    (text.includes('argo-cd') && /(^|\/)Chart\.ya?ml$/.test(path)) ||
    ((text.includes('Kustomization') || isKustomizationName(path)) &&
      /applicationset-controller|\.json\b|^namespace:|configMapGenerator|secretGenerator|^helmCharts:|argoproj\/argo-cd|argocd-autopilot/m.test(
        text,
      )),
};

/**
 * `kind:`, spaces, an optional quote, then `Application` or `HelmRelease` as a whole word: what
 * `/kind:\s*["']?(Application|HelmRelease)\b/` finds (a space as `\s` has it: yaml/charClasses.ts isTrimmed), by searches.
 */
function namesDeployerKind(text: string): boolean {
  for (let at = text.indexOf('kind:'); at >= 0; at = text.indexOf('kind:', at + 1)) {
    let i = at + 5;
    while (i < text.length && isTrimmed(text.charCodeAt(i))) i++;
    if (text[i] === '"' || text[i] === "'") i++;
    for (const kind of ['Application', 'HelmRelease'])
      if (text.startsWith(kind, i) && !isWordCode(text.charCodeAt(i + kind.length))) return true;
  }
  return false;
}

/**
 * Argo CD installs that tell which version runs (versions/detect.ts). Every piece of evidence names
 * `argoproj/argo…` (the argocd image, the argo-cd repository in a remote base or raw URL, the image
 * in kustomize `images:`), the chart `argo-cd` (Chart.yaml, HelmRelease, Application), the Operator's
 * kind `ArgoCD`, or is chart values under `global:` (`global.image.tag`). A Flux HelmRelease may name its
 * chart only through `chartRef` (an OCIRepository or HelmChart, which itself names `argo-cd`:
 * versions/fluxChart.ts).
 */
export const ARGOCD_INSTALL: Interest = {
  name: 'argocd-install',
  deferrable: true,
  test: (text) =>
    text.includes('argoproj/argo') ||
    text.includes('argo-cd') ||
    (text.includes('ArgoCD') && /\bArgoCD\b/.test(text)) ||
    (text.includes('global') && /\bglobal\s*:/.test(text)) ||
    (text.includes('chartRef') && /\bchartRef\b/.test(text)),
};

/**
 * Kustomizations whose patch files may lie outside their own folder (validate/partial.ts). kustomize's
 * default load restrictor (`LoadRestrictionsRootOnly`, kustomize `api/internal/loader/loadrestrictions.go`)
 * refuses any file that is not in or below the kustomization's folder, so a patch file can only be
 * listed by a kustomization in one of its ancestor folders, which partial.ts reads directly. Only a
 * build with `--load-restrictor LoadRestrictionsNone` (Argo CD: `kustomize.buildOptions` in argocd-cm)
 * reaches further, and a path that leaves the folder always climbs with `..` (an absolute path names
 * the machine that runs the build, not a file of the repository). So this passes a kustomization (by its
 * file name or kind) with a `..` in one of its `patches`, `patchesStrategicMerge` or `patchesJson6902`
 * entries, or any YAML it cannot follow line by line (flow or complex keys at the top). Deferrable: the
 * answer only adds reasons to skip required fields, and the server re-validates once the workspace is read.
 */
export const KUSTOMIZE_OUTSIDE_PATCHES: Interest = {
  name: 'kustomize-outside-patches',
  deferrable: true,
  test: (text, path) =>
    (isKustomizationName(path) || (text.includes('Kustomization') && /\bKustomization\b/.test(text))) &&
    text.includes('patches') &&
    patchesClimb(text),
};

/** Whether a `..` appears inside a top-level `patches*` field (see KUSTOMIZE_OUTSIDE_PATCHES); true when unsure. */
function patchesClimb(text: string): boolean {
  if (!text.includes('..')) return false;
  let inPatches = false;
  for (const line of text.split('\n')) {
    const c = line[0];
    if (c === undefined || c === ' ' || c === '\t' || c === '#' || c === '-' || c === '\r') {
      // Inside the current top-level field (a sequence may start at column 0 under its key).
      if (inPatches && line.includes('..')) return true;
      continue;
    }
    if (line.startsWith('---') || line.startsWith('...') || line.startsWith('%')) {
      inPatches = false;
      continue;
    }
    const key = /^(["']?)([A-Za-z0-9_$.\/-]+)\1\s*:(\s|$)/.exec(line);
    if (!key) return true; // flow mappings, complex keys, anything else: cannot tell
    inPatches = key[2].startsWith('patches');
    if (inPatches && line.includes('..')) return true;
  }
  return false;
}

/**
 * Argo CD AppProjects (validate/projects.ts, and their sync windows in rollout/syncWindows.ts): every
 * resource declares `kind: AppProject`; values of the argocd-apps chart declare them under a `projects:` key.
 */
export const APP_PROJECTS: Interest = {
  name: 'app-projects',
  // validate/projects.ts claims no unknown project while the workspace is read; sync windows come
  // from the projects read so far (a window not yet read parks no step until the re-validation).
  deferrable: true,
  test: (text) => text.includes('AppProject') || (text.includes('projects:') && /^[ \t]*projects:/m.test(text)),
};

/**
 * ApplicationSet files, for the folders their templates deploy (install/installers.ts `appSetDeploys`).
 * Asked only when a bootstrap install may have been replaced by a self-managed Argo CD the repository
 * deploys (install/version.ts), so they are parsed only then. Complete: the one kind test on the text
 * (kinds/appset.ts). Deferrable: the target version has a safe default and is settled once read.
 */
export const APPSET_FILES: Interest = {
  name: 'appset-files',
  deferrable: true,
  test: (text) => declaresAppSet(text),
};

/** Every interest of the engine, in a fixed order (the CLI cache stores one bit per interest). */
export const INTERESTS: readonly Interest[] = [
  CLUSTER_FILES,
  ARGOCD_CONFIG,
  ARGOCD_INSTALL,
  KUSTOMIZE_OUTSIDE_PATCHES,
  APP_PROJECTS,
  APPSET_FILES,
];
