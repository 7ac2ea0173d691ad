/**
 * Issue 40: families a third round of unseen repositories showed, each fixed from the upstream rule
 * (Argo CD's ApplicationSet controller and repo-server, Helm). The fixtures are written here; none is
 * copied from a repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, emptyHost } from '@appset-tools/engine';
import { appset, workspaceFor } from './generators-helpers';
import { clusterSecret } from '../helpers/clusters';

const ls = getLanguageService({ host: emptyHost() });
let n = 0;
const run = (text: string) => {
  const a = ls.analyze(`mem://u${n++}.yaml`, text);
  const ds = ls.diagnostics(a);
  return { a, ds };
};
const loud = (ds: { severity: string; code: string }[]) =>
  ds.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => `${d.severity} ${d.code}`);

test("generator/missing-param: a field the generator's own template sets is not the spec template's reference", () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: teams, namespace: argocd}
spec:
  generators:
    - list:
        elements: [{team: red}]
        template:
          metadata: {}
          spec:
            project: default
            source: {repoURL: 'https://example.com/r.git', path: 'teams/{{team}}'}
            destination: {server: 'https://kubernetes.default.svc', namespace: '{{team}}'}
    - list:
        elements: [{team: blue}]
  template:
    metadata: {name: '{{team}}-app'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: '{{path}}'}
      destination: {server: 'https://kubernetes.default.svc', namespace: '{{namespace}}'}
`;
  // The two findings (only the second generator, which has no template of its own, renders the spec's
  // {{path}} and {{namespace}}): test/fixtures/rules/generator/missing-param.yaml. Here, what the
  // first generator's own template renders.
  const r = run(text);
  const apps = ls.applications(r.a)!.apps;
  const red = apps.find((a) => a.name === 'red-app')!.app as { spec: { source: { path: string } } };
  assert.equal(red.spec.source.path, 'teams/red');
});

test('generator/empty: a git files generator matching nothing beside one that yields is information; alone, a warning', (t) => {
  const ws = workspaceFor(
    t,
    { 'repo/projects/web/config.json': '{"name": "web"}' },
    { repoMappings: { 'https://example.com/r.git': 'repo' } },
  );
  const files = (pattern: string) =>
    `  - git:\n      repoURL: https://example.com/r.git\n      revision: HEAD\n      files: [{path: '${pattern}'}]\n`;
  const both = ws.diagnostics(appset(files('projects/*/config.json') + files('projects/*/config_dir.json')));
  const empty = both.filter((d) => d.code === 'generator/empty');
  assert.equal(empty.length, 1, JSON.stringify(both));
  assert.equal(empty[0].severity, 'information');
  assert.match(empty[0].message, /generator 2 \(git\) produces 0 Applications.*generator 1 \(git\) yields 1/);
  // The same generator alone: the ApplicationSet generates nothing, which is worth a warning.
  const alone = ws.diagnostics(appset(files('projects/*/config_dir.json'))).filter((d) => d.code === 'generator/empty');
  assert.deepEqual(
    alone.map((d) => d.severity),
    ['warning'],
  );
});

test('rollout/progressive-syncs-not-found: the syncPolicy clause is read from the template when nothing renders offline', () => {
  const text = (policy: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: waves, namespace: argocd}
spec:
  generators:
    - clusters: {selector: {matchLabels: {tier: edge}}}
  strategy:
    type: RollingSync
    rollingSync:
      steps:
        - matchExpressions: [{key: env, operator: In, values: [dev]}]
  template:
    metadata: {name: '{{name}}-web', labels: {env: '{{metadata.labels.env}}'}}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: web}
      destination: {server: '{{server}}', namespace: web}
${policy}`;
  const message = (policy: string) => run(text(policy)).ds.find((d) => d.code === 'rollout/progressive-syncs-not-found')?.message ?? '';
  const automated = message('      syncPolicy: {automated: {prune: true}}\n');
  assert.match(automated, /with the template's own automated syncPolicy/);
  assert.doesNotMatch(automated, /has no automated syncPolicy/);
  assert.match(message(''), /the template has no automated syncPolicy/);
});

test('generator/empty: exclude patterns that remove every match say so, as information', (t) => {
  const ws = workspaceFor(
    t,
    { 'repo/apps/web/k.yaml': 'a: 1', 'repo/apps/legacy/k.yaml': 'a: 1' },
    { repoMappings: { 'https://example.com/r.git': 'repo' } },
  );
  const text = appset(
    `  - git:\n      repoURL: https://example.com/r.git\n      revision: HEAD\n      directories:\n        - path: 'apps/*'\n        - {path: apps/web, exclude: true}\n        - {path: apps/legacy, exclude: true}\n`,
    { name: '{{path.basename}}' },
  );
  const empty = ws.diagnostics(text).filter((d) => d.code === 'generator/empty');
  assert.equal(empty.length, 1);
  assert.equal(empty[0].severity, 'information');
  assert.match(empty[0].message, /match 2 directories \("apps\/legacy", "apps\/web"\) and the exclude patterns remove every one/);
  assert.doesNotMatch(empty[0].message, /matches none/);
});

test('a destination name no cluster Secret in the repository registers is known only at run time: information, an error with an inventory', (t) => {
  const secret = clusterSecret({ name: 'staging', secretName: 'staging', server: 'https://10.0.0.1' });
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: web, namespace: argocd}
spec:
  generators:
    - list: {elements: [{cluster: prod-east}, {cluster: staging}]}
  template:
    metadata: {name: 'web-{{cluster}}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: web}
      destination: {name: '{{cluster}}', namespace: web}
`;
  const found = (settings: object) =>
    workspaceFor(t, { 'clusters/staging.yaml': secret }, settings)
      .diagnostics(text)
      .filter((d) => d.code === 'generator/invalid-application');
  const plain = found({});
  assert.equal(plain.length, 1);
  assert.equal(plain[0].severity, 'information');
  assert.match(
    plain[0].message,
    /there are no clusters with this name: prod-east — the controller skips this Application unless a cluster of that name is registered outside the repository/,
  );
  const declared = found({ inventoryFiles: ['clusters/staging.yaml'] });
  assert.deepEqual(
    declared.map((d) => d.severity),
    ['error'],
  );
});

// appset/matrix-path-clash: a directories generator that descends below the first one's paths
// clashes; one that stays on them does not: test/fixtures/rules/appset/matrix-path-clash-descends.yaml.

// appset/constant-name: a name made only of a parameter the matrix's list sets alike in every
// element: test/fixtures/rules/appset/constant-name-matrix.yaml.

// appset/glob-source-path: a glob in source.path is a literal folder for Argo CD:
// test/fixtures/rules/appset/glob-source-path.yaml.

test('a repeated YAML key does not hide the other certain mistakes of the document', () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: web, namespace: argocd}
spec:
  generators:
    - list: {elements: [{env: dev}]}
  template:
    metadata: {name: 'web-{{env}}'}
    spec:
      project: default
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: web}
      destination: {name: in-cluster, server: 'https://kubernetes.default.svc', namespace: web}
`;
  assert.deepEqual(loud(run(text).ds).sort(), ['error generator/invalid-application', 'error yaml/syntax']);
  // Any other YAML error still stops the findings read from the library's best-effort reading.
  const broken = text.replace('      project: default\n      project: default\n', '      project: default\n     bad: [\n');
  assert.deepEqual([...new Set(loud(run(broken).ds))], ['error yaml/syntax']);
});

test('helm/render-fails: lint says that Helm itself fails on a chart template (a nil pointer in .Values)', (t) => {
  const template = (ref: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: apps
spec:
  generators:
    - list:
        elements:
          - env: dev
  template:
    metadata:
      name: '{{\`{{env}}\`}}-web'
    spec:
      project: default
      source:
        repoURL: {{ .Values.apps.repo }}
        targetRevision: ${ref}
        path: web
      destination:
        server: https://kubernetes.default.svc
        namespace: web
`;
  const files = (ref: string, extra: Record<string, string> = {}) => ({
    'chart/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 0.1.0\n',
    'chart/values.yaml': 'apps:\n  repo: https://example.com/r.git\n',
    'chart/templates/appset.yaml': template(ref),
    ...extra,
  });
  const lint = (ref: string, extra?: Record<string, string>) => {
    const ws = workspaceFor(t, files(ref, extra));
    return ws.diagnostics(template(ref), 'chart/templates/appset.yaml').filter((d) => d.code === 'helm/render-fails');
  };
  const fails = lint('{{ .Values.git.revision }}');
  assert.equal(fails.length, 1);
  assert.equal(fails[0].severity, 'warning');
  assert.match(fails[0].message, /nil pointer evaluating interface \{\}\.revision/);
  assert.equal(lint('{{ .Values.apps.repo }}').length, 0, 'renders with values.yaml');
  // Helm's own objects that this render does not hold (.Files) are no failure of Helm's.
  assert.equal(lint('{{ (.Files.Glob "x/*").AsConfig }}').length, 0, '.Files is Helm`s');
  assert.deepEqual(
    lint('{{ .Values.git.revision }}', { 'chart/values-prod.yaml': 'git:\n  revision: main\n' }).map((d) => d.severity),
    ['information'],
    'another values file may set it',
  );
});

test('a kustomize base whose overlays replace its generators is not expanded as written', (t) => {
  const base = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: metrics
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - cluster: <cluster>
            env: <env>
  template:
    metadata:
      name: '{{.env}}-metrics'
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: metrics}
      destination: {name: '{{.cluster}}', namespace: metrics}
`;
  const overlay = (patch: string) => `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
patches:
  - target: {kind: ApplicationSet}
    patch: |
      kind: ApplicationSet
      metadata:
        name: any
      spec:
${patch}
`;
  const files = (patch: string) => ({
    'deploy/base/kustomization.yaml': 'resources:\n  - metrics.yaml\n',
    'deploy/base/metrics.yaml': base,
    'deploy/overlays/dev/kustomization.yaml': overlay(patch),
  });
  const loudIn = (patch: string) =>
    loud(workspaceFor(t, files(patch)).diagnostics(base, 'deploy/base/metrics.yaml') as { severity: string; code: string }[]);
  assert.deepEqual(
    loudIn('        generators:\n        - list:\n            elements:\n            - {cluster: in-cluster, env: dev}'),
    [],
  );
  // An overlay that patches something else leaves the base's generators as written: the name is invalid.
  assert.deepEqual(loudIn('        syncPolicy:\n          preserveResourcesOnDeletion: true'), ['error generator/invalid-application']);
});

test('AppProjects in a documentation folder are examples: they do not make the repository`s project list known', (t) => {
  const project = 'apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: my-project, namespace: argocd}\nspec: {}\n';
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: guestbook, namespace: argocd}
spec:
  generators:
    - list: {elements: [{env: dev}]}
  template:
    metadata: {name: 'guestbook-{{env}}'}
    spec:
      project: '{{env}}'
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: guestbook}
      destination: {server: 'https://kubernetes.default.svc', namespace: guestbook}
`;
  const unknown = (at: string) =>
    workspaceFor(t, { [at]: project })
      .diagnostics(text)
      .filter((d) => d.code === 'appset/unknown-project').length;
  assert.equal(unknown('docs/operator-manual/project.yaml'), 0);
  assert.equal(unknown('argocd/projects/project.yaml'), 1);
});

test('generator/empty: a working tree that is not the revision the generator reads says nothing certain (information)', (t) => {
  const git = (revision: string) =>
    appset(`  - git:\n      repoURL: https://example.com/r.git\n      revision: ${revision}\n      directories: [{path: 'services/*'}]\n`);
  const empty = (revision: string) =>
    workspaceFor(
      t,
      { '.git/HEAD': 'ref: refs/heads/main\n', 'apps/web/k.yaml': 'a: 1\n' },
      { repoMappings: { 'https://example.com/r.git': '.' } },
    )
      .diagnostics(git(revision))
      .filter((d) => d.code === 'generator/empty');
  const other = empty('release-2');
  assert.deepEqual(
    other.map((d) => d.severity),
    ['information'],
  );
  assert.match(other[0].message, /the working tree is branch main, and the generator reads revision release-2/);
  for (const same of ['HEAD', 'main', 'master'])
    assert.deepEqual(
      empty(same).map((d) => d.severity),
      ['warning'],
      same,
    );
});
