/**
 * The workspace index's own behaviour (engine/workspace/): files that pass no interest's text test
 * are read once and neither kept nor parsed (and, with a probe cache, not read again); which
 * kustomizations the pre-filter passes; warming, rechecking and listing in bounded steps. That the
 * pre-filter never changes an answer is tested through the engine's door in
 * test/unit/workspace-index.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkspaceIndex, type ProbeCache } from '../../../../server/src/engine/workspace/index';
import {
  APPSET_FILES,
  ARGOCD_CONFIG,
  ARGOCD_INSTALL,
  CLUSTER_FILES,
  INTERESTS,
  KUSTOMIZE_OUTSIDE_PATCHES,
} from '../../../../server/src/engine/workspace/interests';
import { memHost, repoFiles } from '../../../helpers/memHost';
import { flowClusterSecret } from '../../../helpers/clusters';
import { patchWorkspace } from '../../../helpers/kustomize';

/** Every YAML file under the given folders of the repository, as one workspace at /ws. */
const allYaml = (...dirs: string[]) => repoFiles((n) => /\.ya?ml$/i.test(n), ...dirs);

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

test('the pre-filter passes only the kustomizations whose patches leave their folder', () => {
  // The kustomizations in a patch's own ancestor folders are read by path (validate/partial.ts); the
  // index is asked only for the ones listing a patch with `..` (kustomize's LoadRestrictionsNone).
  const ws = new WorkspaceIndex(memHost(patchWorkspace()));
  assert.deepEqual(
    ws.matching(KUSTOMIZE_OUTSIDE_PATCHES).map((f) => f.path),
    ['/ws/overlays/dev/kustomization.yaml', '/ws/overlays/qa/kustomization.yml'],
  );
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

test('issue 39: a held answer (cluster data while the language server still reads the workspace) is the files read so far, counted, and always asks for the re-validation', () => {
  const files = new Map<string, string>([
    ['/ws/a/deploy.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n'],
    ['/ws/clusters/c1.yaml', flowClusterSecret({ name: 'c1' })],
  ]);
  const ws = new WorkspaceIndex(memHost(files), { defer: true });
  assert.deepEqual(ws.matchingHeld(CLUSTER_FILES), [], 'nothing read yet: no listing is made for it');
  assert.equal(ws.heldReads, 1);
  ws.noteHeld();
  assert.equal(ws.heldReads, 2, 'a cached reading used again counts too');
  while (!ws.warm(1));
  const before = ws.version;
  assert.equal(ws.settle(), true, 'the held answer asks for the re-validation');
  assert.ok(ws.version > before, 'and cached results are made again');
  assert.deepEqual(
    ws.matchingHeld(CLUSTER_FILES).map((f) => f.path),
    ['/ws/clusters/c1.yaml'],
    'read: the whole answer',
  );
  assert.equal(ws.heldReads, 2, 'not counted once read');
  // Held with no cluster file in the whole workspace: still re-validated (the absence is a finding too).
  const empty = new WorkspaceIndex(memHost(new Map([['/ws/a.yaml', 'a: 1\n']])), { defer: true });
  empty.matchingHeld(CLUSTER_FILES);
  while (!empty.warm(1));
  assert.equal(empty.settle(), true);
  // The CLI's index (no deferral) answers whole at once.
  const cli = new WorkspaceIndex(memHost(files));
  assert.deepEqual(
    cli.matchingHeld(CLUSTER_FILES).map((f) => f.path),
    ['/ws/clusters/c1.yaml'],
  );
  assert.equal(cli.heldReads, 0);
});

test('while the workspace is read, the files an earlier run knew are read per interest asked, and a known large workspace is not listed', () => {
  const files = new Map<string, string>([
    [
      '/ws/argocd/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v2.12.0/manifests/install.yaml\n',
    ],
    ['/ws/appsets/web.yaml', 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: web}\nspec: {generators: []}\n'],
    ['/ws/app/values.yaml', 'replicaCount: 2\n'],
  ]);
  const host = memHost(files);
  const reads: string[] = [];
  const counting = { ...host, readFile: (p: string) => (reads.push(p), host.readFile(p)) };
  const saved = new Map<string, { key: string; mask: number }>();
  const first = new WorkspaceIndex(counting, {
    cache: { get: (p) => saved.get(p), set: (p, key, mask) => void saved.set(p, { key, mask }) },
  });
  for (const interest of INTERESTS) first.matching(interest);
  assert.ok((saved.get('/ws/appsets/web.yaml')!.mask & (1 << INTERESTS.indexOf(APPSET_FILES))) !== 0);
  assert.ok((saved.get('/ws/argocd/kustomization.yaml')!.mask & (1 << INTERESTS.indexOf(ARGOCD_INSTALL))) !== 0);

  // The next session: known files only, nothing listed.
  const cache: ProbeCache = {
    get: (p) => saved.get(p),
    peek: (p) => saved.get(p),
    set: (p, key, mask) => void saved.set(p, { key, mask }),
    passing: (mask) => [...saved].filter(([, e]) => (e.mask & mask) !== 0).map(([p]) => p),
    known: () => saved.size,
  };
  reads.length = 0;
  const ws = new WorkspaceIndex(counting, { cache, defer: true });
  ws.readKnownWhenAsked();
  assert.deepEqual(reads, [], 'nothing is read before an answer asks');
  assert.ok(ws.knownLarger(2) && !ws.knownLarger(3), 'the earlier run knew 3 files');
  assert.deepEqual(
    ws.matching(ARGOCD_INSTALL).map((f) => f.path),
    ['/ws/argocd/kustomization.yaml'],
  );
  assert.deepEqual(reads, ['/ws/argocd/kustomization.yaml'], 'the install asked: its file read, not the ApplicationSet file');
  assert.deepEqual(
    ws.matching(APPSET_FILES).map((f) => f.path),
    ['/ws/appsets/web.yaml'],
  );
  assert.deepEqual(reads, ['/ws/argocd/kustomization.yaml', '/ws/appsets/web.yaml'], 'then the ApplicationSet file, once asked');
  assert.equal(ws.scanned.entries, 0, 'and no folder was listed for it');
});
