/**
 * Issue 40's "known only at run time" families and the install model's bounds, from the first corpus's
 * CI-clone run (docs/evaluation.md), each fixed from the upstream rule with fixtures written here:
 * - a sed/envsubst scaffold (an upper-case placeholder as the ApplicationSet's own name) is another
 *   tool's template, not an ApplicationSet with an invalid Application name;
 * - a destination or a post-selector result that depends on clusters registered outside the repository
 *   is information (the clusters the generator reads at run time are not in git), an error or a warning
 *   once the repository declares its clusters;
 * - a workspace listing bound (500 Terraform files) makes the progressive-sync verdict Unknown, with the
 *   bound as the reason;
 * - a bootstrap install applied from outside is replaced by the self-managed Argo CD the repository
 *   deploys (an ApplicationSet whose template path covers it): the deployed one's version is checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, workspaceFor } from './generators-helpers';
import { clusterSecret } from '../helpers/clusters';

const loud = (ds: { severity: string; code: string }[]) =>
  ds.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => `${d.severity} ${d.code}`);

const SED_SCAFFOLD = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: SERVICE_NAME
spec:
  generators:
    - list:
        elements: [{env: dev}]
  template:
    metadata:
      name: SERVICE_NAME
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: GIT_BRANCH, path: 'deploy/{{env}}'}
      destination: {server: 'https://kubernetes.default.svc', namespace: TARGET_NAMESPACE}
`;

test('a sed scaffold: a name made of the upper-case placeholders is information, and the rest of the file is still checked', (t) => {
  const ws = workspaceFor(t);
  const ds = ws.diagnostics(SED_SCAFFOLD);
  const name = ds.find((d) => d.code === 'generator/invalid-application');
  assert.equal(name?.severity, 'information', JSON.stringify(ds));
  assert.match(name.message, /"SERVICE_NAME".*ApplicationSet's own name SERVICE_NAME is no Kubernetes name either.*sed or envsubst step/);
  // A word replaced by sed changes nothing around it: a field the CRD prunes is still an error.
  const pruned = ws.diagnostics(SED_SCAFFOLD.replace('  generators:', '  syncOptions: [CreateNamespace=true]\n  generators:'));
  assert.ok(loud(pruned).includes('error appset/unknown-field'), JSON.stringify(pruned));
  // A valid ApplicationSet whose template renders an upper-case Application name is still the controller's error.
  const real = ws.diagnostics(appset(`    - list:\n        elements: [{env: dev}]\n`, { name: 'SERVICE_NAME' }));
  assert.ok(loud(real).includes('error generator/invalid-application'), JSON.stringify(real));
});

const FLAT_RANGE = (literal = false) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: regions, namespace: argocd}
spec:
  goTemplate: true
  generators:
    - matrix:
        generators:
          - list:
              elements: [{region: eu-one}, {region: us-two}]
          - clusters: {flatList: true}
  template:
    metadata:
      name: 'web-{{ .region }}'
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: web}
      destination:
${literal ? '        namespace: web' : "        server: '{{ range .clusters }}{{ if eq .name $.region }}{{ .server }}{{ end }}{{ end }}'\n        namespace: web"}
`;

test('a destination picked from clusters registered outside the repository is information; declared clusters make it an error', (t) => {
  const none = workspaceFor(t);
  const runTime = none.diagnostics(FLAT_RANGE()).filter((d) => d.code === 'generator/invalid-application');
  assert.deepEqual(
    runTime.map((d) => d.severity),
    ['information'],
  );
  assert.match(
    runTime[0].message,
    /Destination server missing.*rendered from the cluster generator's parameters.*no cluster Secret here registers a cluster/,
  );
  // A destination whose name and server are not templates (only its namespace is): wrong whatever clusters exist.
  assert.deepEqual(
    none
      .diagnostics(FLAT_RANGE(true).replace('namespace: web', "namespace: '{{ .region }}'"))
      .filter((d) => d.code === 'generator/invalid-application')
      .map((d) => d.severity),
    ['error'],
  );
  // A destination written without any template: wrong whatever clusters exist.
  assert.deepEqual(
    none
      .diagnostics(FLAT_RANGE(true))
      .filter((d) => d.code === 'generator/invalid-application')
      .map((d) => d.severity),
    ['error'],
  );
  // The repository declares its clusters, and none is named eu-one or us-two: the controller's error.
  const declared = workspaceFor(t, { 'clusters/other.yaml': clusterSecret({ name: 'ap-three' }) });
  assert.deepEqual(
    declared
      .diagnostics(FLAT_RANGE())
      .filter((d) => d.code === 'generator/invalid-application')
      .map((d) => d.severity),
    ['error'],
  );
});

const MERGED_SELECTOR = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: tenants, namespace: argocd}
spec:
  goTemplate: true
  generators:
    - merge:
        mergeKeys: [name]
        generators:
          - list:
              elements: [{name: edge-a, team: red}]
          - clusters: {}
      selector:
        matchExpressions:
          - {key: server, operator: Exists}
  template:
    metadata:
      name: 'tenant-{{ .name }}'
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: tenants}
      destination: {name: '{{ .name }}', namespace: '{{ .team }}'}
`;

test('a post-selector over clusters registered outside the repository that keeps nothing is information; declared clusters make it a warning', (t) => {
  const none = workspaceFor(t);
  const empty = none.diagnostics(MERGED_SELECTOR).filter((d) => d.code === 'generator/empty');
  assert.deepEqual(
    empty.map((d) => d.severity),
    ['information'],
  );
  assert.match(empty[0].message, /selector leaves out .*no cluster Secret in the repository registers a cluster/);
  const declared = workspaceFor(t, { 'clusters/edge-b.yaml': clusterSecret({ name: 'edge-b' }) });
  assert.deepEqual(
    declared
      .diagnostics(MERGED_SELECTOR)
      .filter((d) => d.code === 'generator/empty')
      .map((d) => d.severity),
    ['warning'],
  );
});

const ROLLING = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: waves, namespace: argocd}
spec:
  generators:
    - list:
        elements: [{app: one, wave: '1'}]
  strategy:
    type: RollingSync
    rollingSync:
      steps:
        - matchExpressions: [{key: wave, operator: In, values: ['1']}]
  template:
    metadata:
      name: '{{app}}'
      labels: {wave: '{{wave}}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: '{{app}}'}
      destination: {server: 'https://kubernetes.default.svc', namespace: '{{app}}'}
      syncPolicy: {automated: {}}
`;

test('a workspace listing bound (500 Terraform files) makes the progressive-sync verdict Unknown, with the bound as the reason', (t) => {
  const files: Record<string, string> = { 'argocd/install/kustomization.yaml': 'namespace: argocd\nresources: [install.yaml]\n' };
  const few = workspaceFor(t, { ...files, 'infra/main.tf': 'module "a" {}\n' });
  const ignored = few.diagnostics(ROLLING, 'argocd/appsets/waves.yaml').find((d) => d.code === 'rollout/progressive-syncs-not-found');
  assert.match(ignored?.message ?? '', /^Ignored/);
  for (let i = 0; i < 501; i++) files[`infra/modules/m${String(i).padStart(3, '0')}/main.tf`] = `module "m${i}" {}\n`;
  const many = workspaceFor(t, files);
  const unknown = many.diagnostics(ROLLING, 'argocd/appsets/waves.yaml').find((d) => d.code === 'rollout/progressive-syncs-not-found');
  assert.match(
    unknown?.message ?? '',
    /^Unknown whether honoured: the workspace scan read 500 Terraform files; later ones were not read \(first: infra\/modules\/m500\/main\.tf\)/,
  );
  assert.doesNotMatch(
    unknown?.message ?? '',
    new RegExp(many.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    'no machine path in the message',
  );
});

const APPS_SET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: platform, namespace: argocd}
spec:
  goTemplate: true
  generators:
    - list:
        elements: [{app: argocd}, {app: ingress}]
  template:
    metadata:
      name: '{{ .app }}'
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: 'gitops/apps/{{ .app }}/overlays/prod'}
      destination: {server: 'https://kubernetes.default.svc', namespace: '{{ .app }}'}
`;

const helmChartsKustomization = (version: string) => `namespace: argocd
helmCharts:
  - name: argo-cd
    repo: https://argoproj.github.io/argo-helm
    releaseName: argocd
    namespace: argocd
    version: ${version}
`;

test('a bootstrap applied from outside is replaced by the Argo CD the repository deploys: its version is checked', (t) => {
  const layout = {
    // Applied once by hand; nothing in the repository deploys gitops/bootstrap.
    'gitops/bootstrap/kustomization.yaml': helmChartsKustomization('7.7.5'),
    // The self-managed Argo CD, deployed by the ApplicationSet's template path gitops/apps/{{ .app }}/….
    'gitops/apps/argocd/base/kustomization.yaml': `namespace: argocd
resources: [https://raw.githubusercontent.com/argoproj/argo-cd/v3.1.0/manifests/install.yaml]
`,
  };
  const ws = workspaceFor(t, { ...layout, 'gitops/appsets/platform.yaml': APPS_SET });
  const note = ws.expand(APPS_SET, 'gitops/appsets/platform.yaml').notes.find((n) => n.startsWith('checked against'))!;
  assert.match(note, /^checked against Argo CD 3\.1/, note);
  assert.match(note, /gitops\/bootstrap\/kustomization\.yaml \(Argo CD 2\.13\) is applied from outside the repository/);
  // Without the ApplicationSet that deploys it, the nearer bootstrap stays the install that runs it.
  const alone = workspaceFor(t, layout);
  const other = `${APPS_SET.replace("path: 'gitops/apps/{{ .app }}/overlays/prod'", 'path: web')}`;
  const kept = alone.expand(other, 'gitops/appsets/platform.yaml').notes.find((n) => n.startsWith('checked against'))!;
  assert.match(kept, /^checked against Argo CD 2\.13/, kept);
});

test('a kustomize base whose generators an overlay replaces with patchesStrategicMerge: its generators are not checked', (t) => {
  const base = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: services
spec:
  generators:
    - matrix:
        generators:
          - git:
          - list:
              elements: [{stage: qa}]
  template:
    metadata:
      name: '{{svc}}-{{stage}}'
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: '{{svc}}'}
      destination: {server: 'https://kubernetes.default.svc', namespace: '{{svc}}'}
`;
  const overlayPatch = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: services
spec:
  generators:
    - list:
        elements: [{svc: api, stage: qa}]
`;
  const layout = {
    'sets/base/kustomization.yaml': 'resources:\n  - ./services.yaml\n',
    'sets/base/services.yaml': base,
  };
  const replaced = workspaceFor(t, {
    ...layout,
    'sets/overlays/qa/kustomization.yaml': 'resources:\n  - ../../base\npatchesStrategicMerge:\n  - services.yaml\n',
    'sets/overlays/qa/services.yaml': overlayPatch,
  });
  assert.deepEqual(loud(replaced.diagnostics(base, 'sets/base/services.yaml')), []);
  // Without the overlay the base is what Argo CD gets: the empty matrix child fails the matrix.
  const alone = workspaceFor(t, layout);
  assert.ok(
    loud(alone.diagnostics(base, 'sets/base/services.yaml')).includes('error appset/child-generator-kinds'),
    JSON.stringify(alone.diagnostics(base, 'sets/base/services.yaml')),
  );
});
