/**
 * Is progressive sync enabled on the ApplicationSet controller? Detected from the workspace's
 * Argo CD configuration, in every form teams write it:
 * - `argocd-cmd-params-cm` key `applicationsetcontroller.enable.progressive.syncs` (wired into the
 *   controller's env var by the upstream manifests and the Helm chart);
 * - the controller Deployment's `--enable-progressive-syncs[=bool]` argument (pflag bool parsing) or
 *   env `ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS` (only true/false, any case:
 *   Argo CD `util/env/env.go` ParseBoolFromEnv; flag and env defined in
 *   `cmd/argocd-applicationset-controller/commands/applicationset_controller.go`);
 * - kustomize: strategic-merge patch files (they look like the resources themselves), inline
 *   `patches:`, JSON6902 patches, `configMapGenerator` literals;
 * - argo-cd Helm chart values (`configs.params`, `applicationSet.extraArgs`, `applicationSet.extraEnv`,
 *   `global.env`), also inline in an Argo CD Application's `helm.valuesObject` / `values` / `parameters`;
 * - the Argo CD Operator's `ArgoCD` resource (`spec.applicationSet.extraCommandArgs` / `env`;
 *   `spec.cmdParams` is copied to the ConfigMap but not wired to the controller → ignored).
 * The pre-rename "progressive rollouts" names are reported as ignored evidence.
 *
 * Precedence follows the controller: an explicit flag beats the env var, which beats the ConfigMap.
 * Within one level, any enabling evidence wins (repos often hold several overlays, one per
 * environment, and we cannot tell which controller runs the ApplicationSet).
 *
 * This file is the scan's door and its router: it selects the values files the installs read, then
 * hands each document to the reader of its format — plain manifests (scanManifests.ts), the Operator
 * (scanOperator.ts), Applications (scanApplications.ts) and Flux (scanFlux.ts), kustomize
 * (scanKustomize.ts), Helm values (scanValuesFiles.ts, scanHelmValues.ts), Helm charts of kustomize and
 * Terraform (helmCharts.ts, terraform.ts, through sinkOf.ts) — which all report to one collector
 * (collector.ts); finish.ts ends the scan.
 */
import type { Json } from '../types';
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import { ARGOCD_CONFIG } from '../workspace/interests';
import { fluxArgoChart } from '../versions/fluxChart';
import { dirname } from '../paths';
import { isObj, own } from '../objects';
import { selectHelmChartValues } from './helmCharts';
import { checkTerraform, selectTerraformValues, terraformReleases } from './terraform';
import { Collector, resourceName, scalarText, TOP, type Place, type Site } from './collector';
import { isControllerName } from './controllerInputs';
import { CM_NAME, type WorkspaceScan } from './evidence';
import { finishScan } from './finish';
import { checkArgoApplication } from './scanApplications';
import { checkHelmRelease, selectFluxValues } from './scanFlux';
import { scanValuesDoc } from './scanHelmValues';
import { checkKustomization } from './scanKustomize';
import { checkControllerWorkload, checkParamsConfigMap } from './scanManifests';
import { checkArgoCDResource } from './scanOperator';
import { checkChartFile, checkValuesFile, selectInstallerValues } from './scanValuesFiles';
import { sinkOf } from './sinkOf';
import { isKustomizationName } from '../workspace/names';

export * from './evidence';

/**
 * Scans the workspace's YAML files that may hold Argo CD configuration (see `ARGOCD_CONFIG`).
 * `provisional`: from the files read so far while the language server reads the workspace
 * (`WorkspaceIndex.matchingProvisional`), for consumers whose answer has a safe default.
 */
export function scanWorkspace(workspace: WorkspaceIndex, roots: readonly string[] = [], provisional = false): WorkspaceScan {
  const files = provisional ? workspace.matchingProvisional(ARGOCD_CONFIG) : workspace.matching(ARGOCD_CONFIG);
  const c = new Collector(workspace, roots, files, { resource: checkResource, file: scanFile });
  // The values files the installs select, read below as those installs', in Helm's order.
  selectInstallerValues(c);
  selectHelmChartValues(sinkOf(c), files);
  selectTerraformValues(sinkOf(c), (c.terraform = terraformReleases(c.workspace)));
  selectFluxValues(c, files);
  for (const file of files) scanFile(c, file, TOP);
  checkTerraform(sinkOf(c), c.terraform ?? []);
  // Selected values files that name no setting yet are still where the fix writes.
  for (const path of c.selected.keys()) {
    const f = workspace.file(path);
    if (f) scanFile(c, f, TOP);
  }
  const scan = finishScan(c);
  // Only once the listing is complete: a provisional scan's consumers have a safe default of their own.
  return provisional ? scan : { ...scan, listingCaps: workspace.listingCaps() };
}

/** Reads one file's documents, once per scan (a chart's values are also reached from its Chart.yaml). */
function scanFile(c: Collector, file: IndexedFile, place: Place) {
  if (c.scanned.has(file.path)) return;
  c.scanned.add(file.path);
  const sel = c.selected.get(file.path);
  // A values file an install selects: that install's, under the chart's keys, at its merge position.
  const selected: Place | undefined = sel && {
    install: { key: sel.key, namespace: sel.namespace },
    rank: sel.chain ? { chain: sel.chain, rank: sel.rank } : undefined,
  };
  // One that cannot be read as values (binary, not YAML, an alias bomb): what it sets is unknown, and so
  // the install's verdict (Helm would not render it either).
  const bad = sel ? unreadable(file) : undefined;
  if (sel && selected && bad) c.unread(selected, { file, docIndex: 0, path: [], inner: false }, `${sel.who}: not read (${bad})`);
  for (const d of file.docs) {
    if (!isObj(d.value)) continue;
    const site: Site = { file, docIndex: d.index, path: [], inner: false };
    if (sel && selected) scanValuesDoc(c, selected, site, d.value, sel.keys);
    else checkResource(c, place, site, d.value, 0);
  }
}

/** Why a file selected as Helm values cannot be read as values, if it cannot. */
function unreadable(file: IndexedFile): string | undefined {
  return (
    file.unread[0]?.why ??
    (file.docs.length === 0 && /^[ \t]*[^#\s]/m.test(file.text)
      ? file.text.includes('\0')
        ? 'it is not a text file'
        : 'it does not parse as YAML'
      : undefined)
  );
}

/** A Kubernetes resource (or a strategic-merge patch of one): its `metadata.namespace` is its install's. */
function checkResource(c: Collector, place: Place, site: Site, v: Json, depth: number) {
  const ns = own(own(v, 'metadata'), 'namespace');
  const inNamespace: Place =
    typeof ns === 'string' && ns && !place.install?.key.startsWith('app:')
      ? { ...place, install: { key: c.installKey(place, site), namespace: ns } }
      : place;
  readByFormat(c, inNamespace, site, v, depth);
}

/** Hands a document to the reader of its format. */
function readByFormat(c: Collector, place: Place, site: Site, v: Json, depth: number) {
  const kind = own(v, 'kind');
  const name = resourceName(v);
  const argo = String(own(v, 'apiVersion') ?? '').startsWith('argoproj.io/');
  if (kind === 'ConfigMap' && name === CM_NAME) checkParamsConfigMap(c, place, site, v);
  else if ((kind === 'Deployment' || kind === 'StatefulSet') && isControllerName(name)) checkControllerWorkload(c, place, site, v, name);
  else if (kind === 'ArgoCD' && argo) checkArgoCDResource(c, place, site, v, name);
  else if (kind === 'Application' && argo) {
    const ns = scalarText(own(own(v, 'metadata'), 'namespace'));
    if (ns && !site.inner && !c.appNamespaces.has(ns)) c.appNamespaces.set(ns, site.file.path);
    checkArgoApplication(c, site, v, name, depth);
  } else if (kind === 'HelmRelease' && fluxArgoChart(v, c.fluxSources())) checkHelmRelease(c, place, site, v, name);
  else if (kind === 'Kustomization' || (kind === undefined && isKustomizationName(site.file.path))) {
    const kns = own(v, 'namespace');
    if (typeof kns === 'string' && kns && !site.inner) c.kustomizeNamespaces.set(dirname(site.file.path), kns);
    checkKustomization(c, place, site, v, depth);
  } else if (kind === undefined && !site.inner && /(^|\/)Chart\.ya?ml$/.test(site.file.path)) checkChartFile(c, place, site, v);
  else if (kind === undefined && own(v, 'apiVersion') === undefined) checkValuesFile(c, place, site, v);
}
