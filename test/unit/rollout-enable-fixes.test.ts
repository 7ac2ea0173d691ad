// Quick fixes that enable progressive syncs for real, in the form the repository already uses, for
// the Argo CD instance that runs the ApplicationSet (and only that one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, storyService } from './rollout-helpers';
import { rollingSyncBy } from '../helpers/appsets';

const APPSET = (ns = 'argocd') => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: services
  namespace: ${ns}
spec:
  generators:
  - clusters: {}
  template:
    metadata:
      name: '{{name}}-{{service}}'
      labels:
        tier: '{{metadata.labels.tier}}'
    spec:
      destination:
        server: '{{server}}'
${rollingSyncBy('tier', [{ values: ['canary'] }], { block: true, compact: true })}`;

const OUTSIDE_TITLE = 'I have enabled it outside this repository (sets appsetTools.progressiveSyncs to "enabled")';

function enableFix(files: Map<string, string>, ns?: string) {
  const { service, analysis } = storyService(APPSET(ns), files);
  const d = service.diagnostics(analysis).find((x) => x.code.startsWith('rollout/progressive-syncs-'));
  assert.ok(d, 'a not-enabled warning');
  const actions = service.codeActions(analysis, d.span, [d]);
  return { d, actions, fix: actions.find((a) => a.title.startsWith('Enable progressive syncs')) };
}

/** What the rollout plan says of progressive syncs once the fix is applied to the files. */
const enabledAfter = (files: Map<string, string>, ns = 'argocd') => {
  const { service, analysis } = storyService(APPSET(ns), files);
  return service.rolloutPlan(analysis)?.enablement.state;
};

test('nothing in the repository: the fix creates argocd-cmd-params-cm.yaml next to the ApplicationSet and says to restart', () => {
  const files = new Map<string, string>();
  const { d, actions, fix } = enableFix(files, 'argocd-prod');
  assert.equal(d.code, 'rollout/progressive-syncs-not-found');
  assert.ok(fix, actions.map((a) => a.title).join('\n'));
  assert.equal(fix.title, 'Enable progressive syncs: create argocd-cmd-params-cm.yaml (then restart the ApplicationSet controller)');
  assert.deepEqual(
    fix.createFiles?.map((f) => f.file),
    ['/ws/argocd-cmd-params-cm.yaml'],
  );
  const text = fix.createFiles![0].text;
  assert.match(text, /kind: ConfigMap\nmetadata:\n {2}name: argocd-cmd-params-cm\n {2}namespace: argocd-prod\n/);
  assert.match(text, /data:\n {2}applicationsetcontroller\.enable\.progressive\.syncs: "true"\n$/);
  assert.match(text, /kubectl -n argocd-prod rollout restart deployment argocd-applicationset-controller/);
  files.set('/ws/argocd-cmd-params-cm.yaml', text);
  assert.equal(enabledAfter(files, 'argocd-prod'), 'enabled');
  // The override stays, worded as what it is.
  assert.ok(actions.some((a) => a.title === OUTSIDE_TITLE && a.command?.id === 'appsetTools.setProgressiveSyncs'));
});

test('a kustomization beside it lists the new file: as a patch over an upstream install, else as a resource', () => {
  const over = new Map([
    [
      '/ws/kustomization.yaml',
      'resources:\n- https://raw.githubusercontent.com/argoproj/argo-cd/v3.5.1/manifests/install.yaml\n- appset.yaml\n',
    ],
  ]);
  const a = enableFix(over).fix!;
  assert.equal(
    applyEdits(over.get('/ws/kustomization.yaml')!, a.edits!),
    'resources:\n- https://raw.githubusercontent.com/argoproj/argo-cd/v3.5.1/manifests/install.yaml\n- appset.yaml\npatches:\n  - path: argocd-cmd-params-cm.yaml\n',
  );
  const plain = new Map([['/ws/kustomization.yaml', 'resources:\n  - appset.yaml\n']]);
  const b = enableFix(plain).fix!;
  assert.equal(applyEdits(plain.get('/ws/kustomization.yaml')!, b.edits!), 'resources:\n  - appset.yaml\n  - argocd-cmd-params-cm.yaml\n');
});

test('a kustomize configMapGenerator for argocd-cmd-params-cm gets the literal', () => {
  const files = new Map([
    [
      '/ws/argocd/kustomization.yaml',
      'configMapGenerator:\n- name: argocd-cmd-params-cm\n  behavior: merge\n  literals:\n  - server.insecure=true\n',
    ],
  ]);
  const { fix } = enableFix(files);
  assert.equal(
    fix?.title,
    'Enable progressive syncs: in argocd/kustomization.yaml (kustomize renames the ConfigMap, so the controller restarts)',
  );
  const edited = applyEdits(files.get('/ws/argocd/kustomization.yaml')!, fix.edits!);
  assert.match(edited, /literals:\n {2}- server\.insecure=true\n {2}- applicationsetcontroller\.enable\.progressive\.syncs=true\n$/);
  files.set('/ws/argocd/kustomization.yaml', edited);
  assert.equal(enabledAfter(files), 'enabled');
});

test('Helm values and the Operator: the fix says who restarts the controller', () => {
  const helm = new Map([['/ws/argocd/values.yaml', 'configs:\n  params:\n    server.insecure: true\n']]);
  const h = enableFix(helm).fix!;
  assert.equal(h.title, 'Enable progressive syncs: in argocd/values.yaml (the chart restarts the controller)');
  helm.set('/ws/argocd/values.yaml', applyEdits(helm.get('/ws/argocd/values.yaml')!, h.edits!));
  assert.equal(enabledAfter(helm), 'enabled');
  const op = new Map([
    [
      '/ws/argocd/argocd.yaml',
      'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata:\n  name: argocd\nspec:\n  applicationSet:\n    webhookServer: {}\n',
    ],
  ]);
  const o = enableFix(op).fix!;
  assert.equal(o.title, 'Enable progressive syncs: in argocd/argocd.yaml (the Operator restarts the controller)');
  op.set('/ws/argocd/argocd.yaml', applyEdits(op.get('/ws/argocd/argocd.yaml')!, o.edits!));
  assert.match(
    op.get('/ws/argocd/argocd.yaml')!,
    /applicationSet:\n {4}webhookServer: \{\}\n {4}extraCommandArgs:\n {6}- --enable-progressive-syncs\n/,
  );
  assert.equal(enabledAfter(op), 'enabled');
});

test('only the instance that runs it is edited: a ConfigMap of another install is left alone', () => {
  const files = new Map([
    ['/ws/examples/demo/argocd-cmd-params-cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\ndata: {}\n'],
  ]);
  const { fix } = enableFix(files);
  assert.deepEqual(
    fix?.createFiles?.map((f) => f.file),
    ['/ws/argocd-cmd-params-cm.yaml'],
  );
  assert.deepEqual(fix?.edits, []);
});
