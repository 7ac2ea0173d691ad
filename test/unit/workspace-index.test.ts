/**
 * The workspace index's text pre-filter (engine/workspace/interests.ts) must never hide a file that
 * a consumer would use: progressive-sync detection and the cluster inventory give the same results
 * with and without it, over every fixture workspace. And it must actually spare the work: files that
 * pass no interest are neither kept nor parsed, and with a probe cache not even read again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { WorkspaceIndex, type ProbeCache } from '../../server/src/engine/workspace/index';
import { ARGOCD_CONFIG, CLUSTER_FILES } from '../../server/src/engine/workspace/interests';
import { scanWorkspace } from '../../server/src/engine/rollout/enablement';
import { loadInventory } from '../../server/src/engine/generators/inventory';
import { detectInstalls } from '../../server/src/engine/versions/detect';
import type { SourceText } from '../../server/src/engine/inputs';
import { FIXTURES, fixtureFiles } from './rollout-helpers';
import { memHost, repoFiles } from '../helpers/memHost';
import { flowClusterSecret } from '../helpers/clusters';
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';
import { getLanguageService } from '../../server/src/engine/service/languageService';

/** Every YAML file under the given folders of the repository, as one workspace at /ws. */
const allYaml = (...dirs: string[]) => repoFiles((n) => /\.ya?ml$/i.test(n), ...dirs);

const workspaces: [string, Map<string, string>][] = [
  ...fs.readdirSync(FIXTURES).map((n): [string, Map<string, string>] => [`rollout/${n}`, fixtureFiles(n)]),
  ['every fixture and example', allYaml('test/fixtures', 'examples')],
];

function inventoryOf(ws: WorkspaceIndex, files: Map<string, string>) {
  const host = memHost(files);
  const ctx = { workspace: ws, host, settings: host.settings() } as unknown as SourceText;
  return loadInventory(ctx).clusters;
}

test('progressive-sync detection finds the same evidence and targets with and without the pre-filter', () => {
  let evidence = 0;
  for (const [name, files] of workspaces) {
    const filtered = scanWorkspace(new WorkspaceIndex(memHost(files)));
    const full = scanWorkspace(new WorkspaceIndex(memHost(files), { prefilter: false }));
    assert.deepEqual(filtered, full, name);
    evidence += full.evidence.length + full.targets.length;
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
  const filtered = inventoryOf(new WorkspaceIndex(memHost(files)), files);
  const full = inventoryOf(new WorkspaceIndex(memHost(files), { prefilter: false }), files);
  assert.deepEqual(filtered, full);
  assert.ok(filtered.some((c) => c.name === 'quoted') && filtered.some((c) => c.name === 'inv'));
});

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
  const filtered = detectInstalls(new WorkspaceIndex(memHost(files)));
  const full = detectInstalls(new WorkspaceIndex(memHost(files), { prefilter: false }));
  assert.deepEqual(filtered, full);
  assert.ok(full.length >= 5, JSON.stringify(full.map((e) => e.description)));
});

test('files that pass no interest are read once, never kept or parsed, and skipped on the next run', () => {
  const files = new Map<string, string>([
    ['/ws/app/deployment.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n'],
    ['/ws/app/values.yaml', 'replicaCount: 2\n'],
    ['/ws/clusters/prod.yaml', flowClusterSecret({ name: 'prod', secretName: 'prod', server: 'https://prod' })],
    [
      '/ws/argocd/cm.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cmd-params-cm}\ndata: {applicationsetcontroller.enable.progressive.syncs: "true"}\n',
    ],
  ]);
  const host = memHost(files);
  const reads: string[] = [];
  const counting = { ...host, readFile: (p: string) => (reads.push(p), host.readFile(p)) };
  const saved = new Map<string, { key: string; mask: number }>();
  const cache: ProbeCache = { get: (p) => saved.get(p), set: (p, key, mask) => void saved.set(p, { key, mask }) };

  const ws = new WorkspaceIndex(counting, { cache });
  assert.deepEqual(
    ws.matching(CLUSTER_FILES).map((f) => f.path),
    ['/ws/clusters/prod.yaml'],
  );
  assert.deepEqual(
    ws.matching(ARGOCD_CONFIG).map((f) => f.path),
    ['/ws/argocd/cm.yaml'],
  );
  assert.equal(reads.length, 4, 'each file read once for both interests');
  assert.equal(saved.get('/ws/app/values.yaml')?.mask, 0);

  // A second run with the same cache reads only the files that matter.
  reads.length = 0;
  const again = new WorkspaceIndex(counting, { cache });
  assert.equal(again.matching(CLUSTER_FILES).length, 1);
  assert.equal(again.matching(ARGOCD_CONFIG).length, 1);
  assert.deepEqual(reads.sort(), ['/ws/argocd/cm.yaml', '/ws/clusters/prod.yaml']);

  // An open document overrides the file: a Deployment edited into a cluster Secret counts at once.
  again.setOverlay('/ws/app/deployment.yaml', files.get('/ws/clusters/prod.yaml')!.replace(/prod/g, 'web'));
  assert.deepEqual(
    again.matching(CLUSTER_FILES).map((f) => f.path),
    ['/ws/app/deployment.yaml', '/ws/clusters/prod.yaml'],
  );
  // Asking for one file by path still works for any file (kustomize patches, inventory settings).
  assert.equal(again.file('/ws/app/values.yaml')?.docs[0]?.value && 'ok', 'ok');
});

test('warming reads the workspace in steps and stops when every file has been seen', () => {
  const files = new Map<string, string>();
  for (let i = 0; i < 25; i++) files.set(`/ws/f${String(i).padStart(2, '0')}.yaml`, `a: ${i}\n`);
  const ws = new WorkspaceIndex(memHost(files));
  let steps = 0;
  while (!ws.warm(10)) steps++;
  assert.equal(steps, 2);
  assert.equal(ws.matching(CLUSTER_FILES).length, 0);
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
  const filtered = detectInstalls(new WorkspaceIndex(memHost(files)));
  const full = detectInstalls(new WorkspaceIndex(memHost(files), { prefilter: false }));
  assert.deepEqual(filtered, full);
  assert.ok(full.length >= 7, `every install form is found (${full.map((e) => e.description).join('; ')})`);
});

test('deferred mode (the language server): the install is detected from the files read so far, then settled once the warm-up read everything', () => {
  const files = new Map<string, string>([
    ['/ws/apps/a.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n'],
    ['/ws/argocd/kustomization.yaml', 'resources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.9.3\n'],
    ['/ws/zz/values.yaml', 'replicas: 2\n'],
  ]);
  const ws = new WorkspaceIndex(memHost(files), { defer: true });
  // nothing read yet: the first answer does not wait for the workspace
  assert.deepEqual(detectInstalls(ws), []);
  const v0 = ws.version;
  assert.equal(ws.warm(1), false, 'one file per step');
  while (!ws.warm(1));
  assert.equal(ws.settle(), true, 'the provisional answer missed the install');
  assert.ok(ws.version > v0, 'cached results are recomputed');
  assert.deepEqual(
    detectInstalls(ws).map((e) => [e.file, e.line]),
    [['/ws/argocd/kustomization.yaml', '2.9']],
  );
  // a full reset defers again; an answer that the warm-up does not change settles quietly
  ws.invalidate();
  while (!ws.warm(10));
  assert.equal(detectInstalls(ws).length, 1);
  assert.equal(ws.settle(), false);
  // without `defer` (the CLI) every answer is final
  assert.equal(detectInstalls(new WorkspaceIndex(memHost(files))).length, 1);
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
  assert.equal(a.appsets[0].doc.partial, undefined, 'a whole ApplicationSet');
  // None of the 61 kustomizations with patches is parsed: none is in an ancestor folder of web.yaml, and
  // none has a patch path that climbs out of its folder (validate/partial.ts).
  assert.equal(ls.workspace.counts.parsed, 0);

  const patchPath = '/ws/appsets/overlays/prod/web-patch.yaml';
  const p = ls.analyze(patchPath, files.get(patchPath)!, patchPath);
  assert.deepEqual(ls.diagnostics(p), [], 'the patch is not asked for what it leaves out');
  assert.match(ls.preview(p, 0)!.yaml, /listed under patches in appsets\/overlays\/prod\/kustomization\.yaml/);
  assert.equal(ls.workspace.counts.parsed, 1, 'the kustomization beside web-patch.yaml, no other');
});

test('recheck: after a change, the files are looked at again in small batches, and the next matching looks at none of them again', () => {
  const files = allYaml('test/fixtures', 'examples');
  const ws = new WorkspaceIndex(memHost(files));
  const before = ws.matching(CLUSTER_FILES).map((f) => f.path);
  assert.ok(files.size > 20, `${files.size} files`);
  // An open document changes the index: every file must be looked at again once in the new version.
  ws.setOverlay('/ws/open.yaml', 'kind: ConfigMap\n');
  let calls = 0;
  let stats = ws.counts.statted;
  while (!ws.recheck(25)) {
    assert.ok(ws.counts.statted - stats <= 25, 'at most 25 files a call');
    stats = ws.counts.statted;
    calls++;
  }
  assert.ok(calls >= files.size / 25 - 1, `${calls} calls for ${files.size} files`);
  const statted = ws.counts.statted;
  assert.deepEqual(
    ws.matching(CLUSTER_FILES).map((f) => f.path),
    before,
  );
  assert.equal(ws.counts.statted, statted, 'matching looked at no file again');
  assert.equal(ws.recheck(25), true);
});

/**
 * A host over a generated tree: /ws/d<i>/e<j> for i < wide, j < deep, an `a.yaml` in every e0 and a
 * `b.yml` in every d<i>; it counts the folder reads and stats each call makes (the scan's work).
 */
function treeHost(wide: number, deep: number) {
  const work = { calls: 0 };
  const dir = (p: string): string[] | undefined => {
    const parts = p.split('/').slice(2);
    if (parts.length === 0) return Array.from({ length: wide }, (_, i) => `d${i}`);
    if (parts.length === 1 && /^d\d+$/.test(parts[0])) return ['b.yml', ...Array.from({ length: deep }, (_, j) => `e${j}`)];
    if (parts.length === 2 && /^e\d+$/.test(parts[1])) return parts[1] === 'e0' ? ['a.yaml'] : [];
    return undefined;
  };
  const host = {
    ...memHost(new Map()),
    roots: () => ['/ws'],
    readDir: (p: string) => (work.calls++, dir(p)),
    stat: (p: string) => {
      work.calls++;
      const isDirectory = dir(p) !== undefined;
      return { isFile: !isDirectory, isDirectory, mtimeMs: 1, size: 10, id: p };
    },
    readFile: () => 'a: 1\n',
  };
  return { host, work };
}

test('issue 25: a 100,000-folder tree is listed in steps of at most 1,000 folder reads and stats, in the order of one walk, the cap said', () => {
  const { host, work } = treeHost(100, 1000);
  const stepped = new WorkspaceIndex(host, { defer: true });
  let steps = 0;
  let most = 0;
  for (;;) {
    const before = work.calls;
    const done = stepped.scan(1000);
    most = Math.max(most, work.calls - before);
    if (done) break;
    steps++;
    assert.equal(stepped.scanned.complete, false);
  }
  // 50,000 entries (the cap) and one folder read for each folder entered: every step does at most its
  // budget of host calls, and the steps together do no more than one walk.
  assert.ok(most <= 1000, `a step made ${most} host calls`);
  assert.ok(steps >= 50 && steps <= Math.ceil(work.calls / 1000), `${steps} steps for ${work.calls} host calls`);
  assert.equal(stepped.scanned.complete, true);
  const whole = new WorkspaceIndex(treeHost(100, 1000).host);
  assert.deepEqual(stepped.paths(), whole.paths(), 'the same listing as one walk');
  assert.deepEqual(stepped.scanNotes(), whole.scanNotes());
  assert.deepEqual(stepped.scanNotes(), ['the workspace scan stopped after 50,000 folder entries; later files were not read']);
  // A small tree: the same files in the same order, stepped one entry at a time.
  const small = new WorkspaceIndex(treeHost(3, 4).host);
  let n = 0;
  while (!small.scan(1)) n++;
  assert.deepEqual(small.paths(), new WorkspaceIndex(treeHost(3, 4).host).paths());
  assert.equal(small.paths().length, 6);
  assert.ok(n > 20, `${n} steps`);
  // The language server's warm-up lists in steps too: `warm(50)` looks at 1,000 entries a call.
  const warm = new WorkspaceIndex(treeHost(100, 1000).host, { defer: true });
  let calls = 1;
  while (!warm.warm(50)) calls++;
  assert.ok(calls >= 50, `${calls} warm-up calls`);
});
