/**
 * The workspace index's text pre-filter (engine/workspace/interests.ts) must never hide a file that
 * a consumer would use: through the engine's door, every answer that reads the workspace — the
 * install model's report, progressive-sync enablement and its fixes, the cluster inventory, the Argo CD
 * version — is the same with and without it (`prefilter: false`), over every fixture workspace. The
 * language server's first answer does not wait for the workspace (deferred), and linting one file
 * parses only the kustomizations that can list it. The index's own steps and counts are
 * test/unit/engine/workspace/index.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { getLanguageService, type LanguageService } from '@appset-tools/engine';
import { FIXTURES, fixtureFiles } from './rollout-helpers';
import { memHost, repoFiles } from '../helpers/memHost';
import { appsetHead, MINIMAL_TEMPLATE_SPEC, rollingSyncBy } from '../helpers/appsets';

/** Every YAML file under the given folders of the repository, as one workspace at /ws. */
const allYaml = (...dirs: string[]) => repoFiles((n) => /\.ya?ml$/i.test(n), ...dirs);

const workspaces: [string, Map<string, string>][] = [
  ...fs.readdirSync(FIXTURES).map((n): [string, Map<string, string>] => [`rollout/${n}`, fixtureFiles(n)]),
  ['every fixture and example', allYaml('test/fixtures', 'examples')],
];

/** An ApplicationSet in a folder of its own, rolled out by env: what the plan, lenses and fixes are asked about. */
const PROBE_PATH = '/ws/zz-probe/appset.yaml';
const PROBE = `${appsetHead('probe')}  generators:\n    - list:\n        elements: [{env: dev}, {env: prod}]\n${rollingSyncBy('env', [{ values: ['dev'] }, { values: ['prod'] }])}  template:\n    metadata:\n      name: 'probe-{{.env}}'\n      labels: {env: '{{.env}}'}\n${MINIMAL_TEMPLATE_SPEC}`;

/** Both services over `files` (and the probe): with the index's pre-filter (the default) and without it. */
function bothWays(files: Map<string, string>): [LanguageService, LanguageService] {
  const all = new Map(files).set(PROBE_PATH, PROBE);
  return [getLanguageService({ host: memHost(all) }), getLanguageService({ host: memHost(all), prefilter: false })];
}

/** What a user is shown of the workspace's Argo CD installs and progressive syncs, for the probe. */
function installAnswers(ls: LanguageService) {
  const a = ls.analyze(`file://${PROBE_PATH}`, PROBE, PROBE_PATH);
  const diagnostics = ls.diagnostics(a);
  return {
    summary: ls.enablementSummary(),
    report: ls.installReport([{ path: PROBE_PATH }]),
    enablement: ls.rolloutPlan(a)!.enablement,
    diagnostics,
    // The enabling fixes write where the install reads (the scan's fix targets).
    fixes: diagnostics.flatMap((d) => ls.codeActions(a, d.span, [d])),
  };
}

test('progressive-sync detection finds the same evidence and targets with and without the pre-filter', () => {
  let evidence = 0;
  for (const [name, files] of workspaces) {
    const [filtered, full] = bothWays(files).map(installAnswers);
    assert.deepEqual(filtered, full, name);
    evidence += full.report.installs.reduce((n, i) => n + i.evidence.length, 0) + full.enablement.evidence.length;
  }
  assert.ok(evidence > 40, `the fixtures hold evidence to compare (${evidence})`);
});

test('the cluster inventory is the same with and without the pre-filter', () => {
  const files = allYaml('test/fixtures', 'examples');
  files.set(
    '/ws/clusters/quoted.yaml',
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: c\n  labels: {"argocd.argoproj.io/secret-type": cluster}\nstringData: {name: quoted, server: "https://q"}\n',
  );
  files.set('/ws/inventory.yaml', 'apiVersion: appset-tools/v1\nkind: ClusterInventory\nclusters: [{name: inv, server: "https://i"}]\n');
  // Every cluster the inventory holds becomes a parameter set of a cluster generator without a selector.
  const text = `${appsetHead('every-cluster')}  generators:\n    - clusters: {}\n  template:\n    metadata:\n      name: 'c-{{.name}}'\n${MINIMAL_TEMPLATE_SPEC}`;
  const [filtered, full] = bothWays(files).map((ls) => {
    const a = ls.analyze('file:///ws/apps/every-cluster.yaml', text, '/ws/apps/every-cluster.yaml');
    return { registered: ls.registeredClusters(a), applications: ls.applications(a) };
  });
  assert.deepEqual(filtered, full);
  assert.ok(
    filtered.registered?.names.includes('quoted') && filtered.registered.names.includes('inv'),
    JSON.stringify(filtered.registered),
  );
});

/** The install model's report and its summary lines: every install, its version and where it is defined. */
const reportOf = (ls: LanguageService) => ({ report: ls.installReport([]), summary: ls.enablementSummary() });

/** Every file:line the report names for the installs (their version's and their definitions'). */
const placesIn = (r: ReturnType<LanguageService['installReport']>) =>
  r.installs.flatMap((i) => [...i.evidence, ...(i.version ? [i.version.where] : [])]).join('\n');

test('the Argo CD install version is found the same with and without the pre-filter', () => {
  const files = allYaml('test/fixtures', 'examples');
  files.set(
    '/ws/argocd/kustomization.yaml',
    'resources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.12.3\nimages:\n  - {name: quay.io/argoproj/argocd, newTag: v2.12.4}\n',
  );
  files.set(
    '/ws/chart/Chart.yaml',
    'apiVersion: v2\nname: platform\ndependencies:\n  - {name: argo-cd, version: 7.3.11, repository: https://argoproj.github.io/argo-helm}\n',
  );
  files.set('/ws/chart/values.yaml', 'global:\n  image:\n    tag: v3.1.2\n');
  files.set('/ws/operator.yaml', 'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata: {name: argocd}\nspec: {version: v2.14.1}\n');
  const [filtered, full] = bothWays(files).map(reportOf);
  assert.deepEqual(filtered, full);
  const places = placesIn(full.report);
  for (const f of ['argocd/kustomization.yaml', 'chart/Chart.yaml', 'chart/values.yaml', 'operator.yaml'])
    assert.match(places, new RegExp(`^${f.replace(/\./g, '\\.')}`, 'm'), `${f} is read as an install: ${places}`);
});

test('Argo CD install detection finds the same evidence with and without the pre-filter', () => {
  const files = allYaml('test/fixtures', 'examples');
  const installs: Record<string, string> = {
    '/ws/argocd/kustomization.yaml':
      'resources:\n  - https://github.com/argoproj/argo-cd//manifests/ha/cluster-install?ref=v2.13.4\nimages:\n  - name: quay.io/argoproj/argocd\n    newTag: v2.13.5\n',
    '/ws/helm/Chart.yaml': 'apiVersion: v2\nname: platform\nversion: 0.1.0\ndependencies:\n  - name: argo-cd\n    version: 8.0.1\n',
    '/ws/helm/values.yaml': 'global:\n  image:\n    tag: v3.0.2\n',
    '/ws/flux/release.yaml':
      'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: argocd}\nspec:\n  chart:\n    spec: {chart: argo-cd, version: 9.4.1}\n',
    '/ws/op/argocd.yaml': 'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata: {name: example}\nspec: {version: v3.1.0}\n',
    '/ws/raw/kustomization.yaml': 'resources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v3.2.1/manifests/install.yaml\n',
  };
  for (const [p, t] of Object.entries(installs)) files.set(p, t);
  const [filtered, full] = bothWays(files).map(reportOf);
  assert.deepEqual(filtered, full);
  // Every install form is found: each file is named by the report.
  const places = placesIn(full.report);
  for (const f of Object.keys(installs).map((p) => p.slice('/ws/'.length)))
    assert.match(places, new RegExp(`^${f.replace(/\./g, '\\.')}`, 'm'), `${f} is read as an install: ${places}`);
});

test('deferred mode (the language server): the install is detected from the files read so far, then settled once the warm-up read everything', () => {
  const files = new Map<string, string>([
    ['/ws/apps/a.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n'],
    ['/ws/argocd/kustomization.yaml', 'resources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.9.3\n'],
    ['/ws/zz/values.yaml', 'replicas: 2\n'],
  ]);
  const path = '/ws/apps/shop.yaml';
  const text = `${appsetHead('shop')}  generators:\n    - list:\n        elements: [{env: dev}]\n  template:\n    metadata:\n      name: 'shop-{{.env}}'\n${MINIMAL_TEMPLATE_SPEC}`;
  /** The release the ApplicationSet is checked against, as its preview says it. */
  const checkedAgainst = (ls: LanguageService) =>
    ls.applications(ls.analyze(`file://${path}`, text, path))!.notes.find((n) => n.startsWith('checked against')) ?? '';
  const ls = getLanguageService({ host: memHost(files), deferWorkspaceScan: true });
  // nothing read yet: the first answer does not wait for the workspace (the newest release is assumed)
  assert.doesNotMatch(checkedAgainst(ls), /2\.9/);
  const v0 = ls.workspace.version;
  assert.equal(ls.workspace.warm(1), false, 'one file per step');
  while (!ls.workspace.warm(1));
  assert.equal(ls.workspace.settle(), true, 'the provisional answer missed the install');
  assert.ok(ls.workspace.version > v0, 'cached results are recomputed');
  assert.match(checkedAgainst(ls), /^checked against Argo CD 2\.9\b.*argoproj\/argo-cd/);
  // a full reset defers again; an answer that the warm-up does not change settles quietly
  ls.workspace.invalidate();
  while (!ls.workspace.warm(10));
  assert.match(checkedAgainst(ls), /^checked against Argo CD 2\.9\b/);
  assert.equal(ls.workspace.settle(), false);
  // without `defer` (the CLI) every answer is final
  assert.match(checkedAgainst(getLanguageService({ host: memHost(files) })), /^checked against Argo CD 2\.9\b/);
});

test('linting one file parses only the kustomizations that can list it, not every overlay of the repository', () => {
  const files = new Map<string, string>();
  const patchList =
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../base]\npatches:\n  - path: replicas.yaml\n';
  for (let i = 0; i < 60; i++) {
    files.set(`/ws/apps/svc-${i}/overlays/prod/kustomization.yaml`, patchList);
    files.set(
      `/ws/apps/svc-${i}/overlays/prod/replicas.yaml`,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: 3}\n',
    );
  }
  const whole = `${appsetHead('web')}  generators:\n    - list:\n        elements: [{env: dev}]\n  template:\n    metadata: {name: 'web-{{.env}}'}\n${MINIMAL_TEMPLATE_SPEC}`;
  files.set('/ws/appsets/web.yaml', whole);
  // One overlay lists an ApplicationSet patch: that kustomization is the only one parsed.
  files.set(
    '/ws/appsets/overlays/prod/kustomization.yaml',
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../web.yaml]\npatches:\n  - path: web-patch.yaml\n',
  );
  files.set('/ws/appsets/overlays/prod/web-patch.yaml', `${appsetHead('web')}  syncPolicy: {preserveResourcesOnDeletion: true}\n`);

  const ls = getLanguageService({ host: memHost(files) });
  const a = ls.analyze('/ws/appsets/web.yaml', whole, '/ws/appsets/web.yaml');
  assert.deepEqual(ls.diagnostics(a), []);
  assert.ok(!ls.applications(a)!.notes.some((n) => n.includes('kustomize patch')), 'a whole ApplicationSet');
  // None of the 61 kustomizations with patches is parsed: none is in an ancestor folder of web.yaml, and
  // none has a patch path that climbs out of its folder (validate/partial.ts).
  assert.equal(ls.workspace.counts.parsed, 0);

  const patchPath = '/ws/appsets/overlays/prod/web-patch.yaml';
  const p = ls.analyze(patchPath, files.get(patchPath)!, patchPath);
  assert.deepEqual(ls.diagnostics(p), [], 'the patch is not asked for what it leaves out');
  assert.match(ls.preview(p, 0)!.yaml, /listed under patches in appsets\/overlays\/prod\/kustomization\.yaml/);
  assert.equal(ls.workspace.counts.parsed, 1, 'the kustomization beside web-patch.yaml, no other');
});
