// Enablement is read from the configuration of the Argo CD instance that runs an ApplicationSet,
// never from the whole workspace (README "Which Argo CD instance").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, type InstanceMapping } from '@appset-tools/engine';
import { memHost } from '../helpers/memHost';
import { rollingSyncBy } from '../helpers/appsets';

const cm = (value: string, ns?: string, extra = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n${ns ? `  namespace: ${ns}\n` : ''}data:\n  applicationsetcontroller.enable.progressive.syncs: "${value}"\n${extra}`;

/** A RollingSync ApplicationSet in `namespace` (none written when undefined). */
const appsetText = (namespace?: string) =>
  `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: shop\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n` +
  `  generators:\n  - list: {elements: [{env: dev}]}\n  template:\n    metadata: {name: 'shop-{{env}}', labels: {env: '{{env}}'}}\n` +
  `    spec: {project: default, source: {repoURL: https://example.com/r.git, path: x}, destination: {server: https://kubernetes.default.svc, namespace: x}}\n` +
  rollingSyncBy('env', [{ values: ['dev'] }]);

/** The enablement the rollout plan states for an ApplicationSet at `appset` in the workspace `files`, through the engine's door. */
function detect(files: Record<string, string>, appset: string, namespace?: string, mappings: InstanceMapping[] = []) {
  const service = getLanguageService({ host: memHost(new Map(Object.entries(files)), { instances: mappings }) });
  const text = appsetText(namespace);
  const plan = service.rolloutPlan(service.analyze(appset, text, appset));
  assert.ok(plan, 'a rollout plan');
  return plan.enablement;
}

test('a ConfigMap under examples/ does not vouch for an ApplicationSet at the root', () => {
  const files = {
    '/ws/examples/team-rollout/argocd-cmd-params-cm.yaml': cm('true'),
    '/ws/examples/team-rollout/appset.yaml': 'kind: ApplicationSet\n',
  };
  const root = detect(files, '/ws/appset.yaml');
  assert.equal(root.state, 'not-found');
  assert.equal(root.instance?.name, '');
  assert.match(root.instance!.why, /no Argo CD install/);
  const beside = detect(files, '/ws/examples/team-rollout/appset.yaml');
  assert.equal(beside.state, 'enabled');
  assert.equal(beside.instance?.name, 'examples/team-rollout');
  assert.equal(beside.decidedBy?.where, 'examples/team-rollout/argocd-cmd-params-cm.yaml:6');
});

test('every result names the instance and the file that decided', () => {
  const en = detect({ '/ws/argocd/argocd-cmd-params-cm.yaml': cm('true', 'argocd') }, '/ws/appsets/shop.yaml', 'argocd');
  assert.equal(en.state, 'enabled');
  assert.equal(en.instance?.name, 'argocd');
  assert.equal(en.instance?.namespace, 'argocd');
  assert.equal(en.instance?.why, 'installed beside it in argocd/ for namespace argocd');
  assert.equal(en.decidedBy?.where, 'argocd/argocd-cmd-params-cm.yaml:7');
});

test('two instances in one repository: each ApplicationSet reads its own', () => {
  const files = {
    '/ws/staging/argocd/argocd-cmd-params-cm.yaml': cm('true'),
    '/ws/production/argocd/argocd-cmd-params-cm.yaml': cm('false'),
  };
  const staging = detect(files, '/ws/staging/appsets/shop.yaml');
  const production = detect(files, '/ws/production/appsets/shop.yaml');
  assert.equal(staging.state, 'enabled');
  assert.equal(staging.instance?.name, 'staging/argocd');
  assert.equal(production.state, 'disabled');
  assert.equal(production.instance?.name, 'production/argocd');
  assert.equal(production.decidedBy?.where, 'production/argocd/argocd-cmd-params-cm.yaml:6');
});

test('kustomize overlays per environment: a tie that disagrees is not enabled, and a mapping settles it', () => {
  const files = {
    '/ws/argocd/base/kustomization.yaml': 'resources: [https://raw.githubusercontent.com/argoproj/argo-cd/stable/manifests/install.yaml]\n',
    '/ws/argocd/overlays/staging/params.yaml': cm('true'),
    '/ws/argocd/overlays/production/params.yaml': cm('false'),
  };
  const tied = detect(files, '/ws/appsets/shop.yaml');
  assert.equal(tied.state, 'disabled');
  assert.match(
    tied.instance!.why,
    /several Argo CD installs could run it \(argocd\/overlays\/(staging|production)\/, argocd\/overlays\/(staging|production)\/\)/,
  );
  assert.ok(
    tied.notes?.some((n) => /argocd\/overlays\/staging: enabled/.test(n) && /appsetTools\.instances/.test(n)),
    JSON.stringify(tied.notes),
  );
  const mapped = detect(files, '/ws/appsets/shop.yaml', undefined, [
    { name: 'staging', applicationSets: ['appsets/**'], config: ['argocd/overlays/staging', 'argocd/base'] },
  ]);
  assert.equal(mapped.state, 'enabled');
  assert.equal(mapped.instance?.why, 'mapped in appsetTools.instances ("staging")');
  const outside = detect(files, '/ws/appsets/shop.yaml', undefined, [
    { name: 'prod', applicationSets: ['appsets/'], progressiveSyncs: 'enabled' },
  ]);
  assert.equal(outside.state, 'enabled');
  assert.equal(outside.source, 'setting');
});

test('namespaces: an install for another namespace does not count, unless it watches that namespace', () => {
  const files = { '/ws/argocd/argocd-cmd-params-cm.yaml': cm('true', 'argocd') };
  const other = detect(files, '/ws/prod/shop.yaml', 'argocd-prod');
  assert.equal(other.state, 'not-found');
  assert.ok(
    other.notes?.some((n) => /argocd configures the controller in namespace argocd, and this ApplicationSet is in argocd-prod/.test(n)),
    JSON.stringify(other.notes),
  );
  const watched = detect(
    { '/ws/argocd/argocd-cmd-params-cm.yaml': cm('true', 'argocd', '  applicationsetcontroller.namespaces: "team-a, argocd-prod"\n') },
    '/ws/prod/shop.yaml',
    'argocd-prod',
  );
  assert.equal(watched.state, 'enabled');
  // A kustomization's namespace is the install's namespace.
  const kust = detect(
    { '/ws/argocd/kustomization.yaml': 'namespace: argocd\nresources: [params.yaml]\n', '/ws/argocd/params.yaml': cm('true') },
    '/ws/shop.yaml',
    'argocd',
  );
  assert.equal(kust.state, 'enabled');
  assert.equal(kust.instance?.namespace, 'argocd');
});

test('an Argo CD Application installing Argo CD with Helm governs the workspace, in its destination namespace', () => {
  const app = `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: argo-cd\nspec:\n  destination:\n    namespace: argocd\n  source:\n    chart: argo-cd\n    helm:\n      valuesObject:\n        configs:\n          params:\n            applicationsetcontroller.enable.progressive.syncs: true\n`;
  const en = detect({ '/ws/apps/argo-cd.yaml': app }, '/ws/appsets/shop.yaml', 'argocd');
  assert.equal(en.state, 'enabled');
  assert.equal(en.instance?.name, 'Application argo-cd (apps/argo-cd.yaml)');
  assert.equal(detect({ '/ws/apps/argo-cd.yaml': app }, '/ws/appsets/shop.yaml', 'elsewhere').state, 'not-found');
});
