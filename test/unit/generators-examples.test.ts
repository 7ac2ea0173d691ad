/**
 * Argo CD's own example ApplicationSets (v3.5.1, `applicationset/examples/`), rendered offline with
 * their directory trees as the git checkout of https://github.com/argoproj/argo-cd.git.
 * Read from ../shared; skipped with a message where it is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appset, examplesDir, secret, secrets, workspace, workspaceFor } from './generators-helpers';
import { gitGenerator } from '../helpers/appsets';

const REPO = 'https://example.com/r.git';

const have = existsSync(examplesDir);
const skip = have ? false : `../shared/argocd-data is absent (${examplesDir})`;
const read = (rel: string) => readFileSync(join(examplesDir, rel), 'utf8');
const repo = { 'https://github.com/argoproj/argo-cd.git': 'repo' };
const copyExamples = () => ({ 'repo/applicationset/examples': examplesDir });
const names = (e: { apps: { name: string }[] }) => e.apps.map((a) => a.name).sort();

test('list-example (both template modes) renders the two guestbooks', { skip }, (t) => {
  const ws = workspaceFor(t);
  for (const f of ['list-generator/list-example.yaml', 'list-generator/list-example-fasttemplate.yaml']) {
    const e = ws.expand(read(f));
    assert.deepEqual(names(e), ['engineering-dev-guestbook', 'engineering-prod-guestbook'], f);
    const src = (e.apps[0].app.spec as Record<string, Record<string, string>>).source;
    assert.equal(src.path, 'applicationset/examples/list-generator/guestbook/engineering-dev', f);
    assert.deepEqual(
      e.problems.filter((p) => p.severity === 'error'),
      [],
      f,
    );
  }
});

test('git directories example: one Application per add-on directory (git_test.go TestGitGenerateParamsFromDirectories)', { skip }, (t) => {
  const ws = workspaceFor(t, {}, { repoMappings: repo }, copyExamples());
  for (const f of [
    'git-generator-directory/git-directories-example.yaml',
    'git-generator-directory/git-directories-example-fasttemplate.yaml',
  ]) {
    const e = ws.expand(read(f));
    assert.deepEqual(names(e), ['argo-workflows', 'prometheus-operator'], f);
    const src = (e.apps[0].app.spec as Record<string, Record<string, string>>).source;
    assert.equal(src.path, 'applicationset/examples/git-generator-directory/cluster-addons/argo-workflows');
    assert.ok(
      e.notes.some((n) => /working tree/.test(n)),
      'the preview says the working tree was used',
    );
    assert.equal(e.exact, false);
  }
});

test('git directories with exclude: excluded directories never appear, whatever the order', { skip }, (t) => {
  const ws = workspaceFor(t, {}, { repoMappings: repo }, copyExamples());
  const e = ws.expand(read('git-generator-directory/excludes/git-directories-exclude-example.yaml'));
  assert.ok(e.apps.length >= 1);
  assert.ok(!e.apps.some((a) => a.name.includes('exclude-helm-guestbook')), JSON.stringify(names(e)));
});

test('git files example: one Application per config.json, nested params in goTemplate (TestGitGenerateParamsFromFiles)', { skip }, (t) => {
  const ws = workspaceFor(t, {}, { repoMappings: repo }, copyExamples());
  const go = ws.expand(read('git-generator-files-discovery/git-generator-files.yaml'));
  assert.deepEqual(names(go), ['engineering-dev-guestbook', 'engineering-prod-guestbook']);
  const p = go.apps.find((a) => a.name === 'engineering-dev-guestbook')!.params as Record<string, Record<string, unknown>>;
  assert.equal(p.path.path, 'applicationset/examples/git-generator-files-discovery/cluster-config/engineering/dev');
  assert.equal(p.path.filename, 'config.json');
  assert.deepEqual((p.path.segments as string[]).slice(-2), ['engineering', 'dev']);
  const fast = ws.expand(read('git-generator-files-discovery/git-generator-files-fasttemplate.yaml'));
  assert.deepEqual(names(fast), ['engineering-dev-guestbook', 'engineering-prod-guestbook']);
  assert.equal(fast.apps[0].params['cluster.name'], 'engineering-dev', 'fasttemplate flattens nested keys');
  assert.equal(fast.apps[0].params['path.basename'], 'dev');
});

test('git files globbing: default pathspec vs new doublestar (util/git/git_test.go TestLsFilesForGitFileGeneratorGlobbingPatterns)', () => {
  const files = {
    'repo/p1/config.json': '{"a": "1"}',
    'repo/p1/p2/config.json': '{"a": "2"}',
    'repo/p1/p2/p3/config.json': '{"a": "3"}',
    'repo/config.json': '{"a": "0"}',
  };
  const text = (pattern: string) => appset(gitGenerator(REPO, 'files', pattern), { name: 'x{{a}}' });
  const old = workspace(files, { repoMappings: { [REPO]: 'repo' } });
  const neu = workspace(files, { repoMappings: { [REPO]: 'repo' }, newGitFileGlobbing: true });
  try {
    assert.deepEqual(names(old.expand(text('p1/**/config.json'))), ['x2', 'x3'], 'old: ** needs at least one directory in between');
    assert.deepEqual(names(neu.expand(text('p1/**/config.json'))), ['x1', 'x2', 'x3'], 'new: ** matches zero directories');
    assert.deepEqual(names(old.expand(text('p1/*.json'))), ['x1', 'x2', 'x3'], 'old: * crosses /');
    assert.deepEqual(names(neu.expand(text('p1/*.json'))), ['x1'], 'new: * stays in one directory');
    assert.deepEqual(names(old.expand(text('**/config.json'))), ['x1', 'x2', 'x3'], 'old: not the root file');
  } finally {
    old.close();
    neu.close();
  }
});

test('git patterns cannot leave the checkout (git: "is outside repository")', (t) => {
  const ws = workspaceFor(t, { 'repo/a/config.json': '{}', 'secret/config.json': '{"token": "x"}' }, { repoMappings: { [REPO]: 'repo' } });
  const e = ws.expand(appset(gitGenerator(REPO, 'files', '../secret/config.json'), { name: 'x' }));
  assert.equal(e.apps.length, 0);
  assert.match(e.problems.find((p) => p.severity === 'error')!.message, /is outside repository/);
});

test('matrix-and-union / cluster / design-doc examples expand without crashing', { skip }, (t) => {
  const ws = workspaceFor(t, { 'clusters.yaml': have ? read('design-doc/clusters.yaml') : '' }, { repoMappings: repo }, copyExamples());
  for (const dir of [
    'cluster',
    'matrix',
    'merge',
    'design-doc',
    'template-override',
    'applications-sync-policies',
    'pull-request-generator',
    'scm-provider-generator',
    'clusterDecisionResource',
  ]) {
    if (!existsSync(join(examplesDir, dir))) continue;
    for (const f of require('node:fs').readdirSync(join(examplesDir, dir)) as string[]) {
      if (!f.endsWith('.yaml')) continue;
      const text = read(`${dir}/${f}`);
      if (!/kind: ApplicationSet/.test(text)) continue;
      const e = ws.expand(text);
      assert.ok(Array.isArray(e.apps), `${dir}/${f}`);
    }
  }
});

// Our own cluster Secrets (not from Argo CD) so the cluster-based examples have clusters to expand over.
const fleet = () => ({
  'argocd/clusters.yaml': secrets(
    secret('engineering-dev', 'https://1.2.3.4', { environment: 'dev', 'use-kafka': 'false' }),
    secret('engineering-prod', 'https://2.4.6.8', { environment: 'prod' }),
    secret('specific', 'https://some-specific-cluster', { environment: 'staging' }),
  ),
});
const helmParams = (a: { app: Record<string, unknown> }) =>
  Object.fromEntries(
    (a.app.spec as { source: { helm: { parameters: { name: string; value: string }[] } } }).source.helm.parameters.map((p) => [
      p.name,
      p.value,
    ]),
  );

test('cluster examples over a workspace fleet: no selector adds in-cluster, a selector drops it (cluster.go)', { skip }, (t) => {
  const ws = workspaceFor(t, fleet(), { repoMappings: repo }, copyExamples());
  for (const f of ['cluster/cluster-example.yaml', 'cluster/cluster-example-fasttemplate.yaml']) {
    assert.deepEqual(
      names(ws.expand(read(f))),
      ['engineering-dev-guestbook', 'engineering-prod-guestbook', 'in-cluster-guestbook', 'specific-guestbook'],
      f,
    );
  }
  for (const f of ['matrix/cluster-and-git.yaml', 'matrix/cluster-and-git-fasttemplate.yaml']) {
    const e = ws.expand(read(f));
    assert.deepEqual(
      names(e),
      [
        'argo-workflows-engineering-dev',
        'argo-workflows-engineering-prod',
        'argo-workflows-specific',
        'prometheus-operator-engineering-dev',
        'prometheus-operator-engineering-prod',
        'prometheus-operator-specific',
      ],
      f,
    );
    const one = e.apps.find((a) => a.name === 'argo-workflows-engineering-prod')!;
    assert.equal((one.app.spec as Record<string, unknown>).project, 'prod', 'project from the cluster label');
    assert.deepEqual((one.app.spec as Record<string, unknown>).destination, { server: 'https://2.4.6.8', namespace: 'argo-workflows' });
  }
});

test(
  'merge-clusters-and-list: values deep-merged by server; the goTemplate list key values.redis stays a flat key (research §2.1 quirk)',
  { skip },
  () => {
    const ws = workspace(fleet(), { repoMappings: repo }, copyExamples());
    try {
      const go = ws.expand(read('merge/merge-clusters-and-list.yaml'));
      assert.deepEqual(names(go), ['engineering-dev', 'engineering-prod', 'in-cluster', 'specific']);
      const by = (n: string) => helmParams(go.apps.find((a) => a.name === n)!);
      assert.deepEqual(by('engineering-dev'), { kafka: 'false', redis: 'false' }, 'use-kafka=false clusters override kafka');
      assert.deepEqual(by('engineering-prod'), { kafka: 'true', redis: 'false' });
      assert.deepEqual(
        by('specific'),
        { kafka: 'true', redis: 'false' },
        'values.redis is a literal top-level key in goTemplate, so .values.redis is unchanged',
      );
      const fast = ws.expand(read('merge/merge-clusters-and-list-fasttemplate.yaml'));
      const spec = helmParams(fast.apps.find((a) => a.name === 'specific')!);
      assert.equal(spec.redis, 'true', 'in fasttemplate values.redis is the very key the template reads');
    } finally {
      ws.close();
    }
  },
);

test('broken upstream examples fail the way the controller would', { skip }, (t) => {
  const ws = workspaceFor(t, fleet(), { repoMappings: repo }, copyExamples());
  // `union` is not a generator kind (it was renamed merge), so the first matrix child is empty.
  const union = ws.expand(read('matrix/matrix-and-union-in-matrix.yaml'));
  assert.equal(union.apps.length, 0);
  assert.deepEqual(
    union.problems.filter((p) => p.severity === 'error').map((p) => p.message),
    ['error failed to get params for first generator in matrix generator: child generator generated no parameters'],
  );
  // list × list has no .path, and missingkey=error turns that into a render error for each parameter set.
  const lists = ws.expand(read('matrix/list-and-list.yaml'));
  assert.equal(lists.apps.length, 0);
  assert.ok(lists.problems.some((p) => p.code === 'template/missing-key' && /map has no entry for key "path"/.test(p.message)));
  // The fasttemplate variant leaves unknown tags as they are.
  const fast = ws.expand(read('matrix/list-and-list-fasttemplate.yaml'));
  assert.deepEqual(names(fast), ['engineering-dev-1', 'engineering-dev-2', 'engineering-prod-1', 'engineering-prod-2']);
  assert.equal((fast.apps[0].app.spec as Record<string, Record<string, string>>).destination.namespace, '{{path.basename}}');
});
