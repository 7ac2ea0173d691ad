// Lint acts on the ApplicationSet controller settings the install model reads (install/controller.ts):
// the namespaces it processes, SCM provider switches and allow-lists, and its applications sync policy
// with the override switch — on our own fixture (test/fixtures/installs/controller-settings) and on
// in-memory variations, each re-run through the language service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/cli';
import { posix, serviceOver } from '../helpers/realworld';
import { storyFindings } from './rollout-helpers';
import { rollingSyncBy } from '../helpers/appsets';

const ROOT = path.join(repoRoot, 'test', 'fixtures', 'installs', 'controller-settings');

const lintOf = (file: string) => {
  const service = serviceOver(ROOT);
  const abs = posix(path.join(ROOT, file));
  return service.diagnostics(service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs)).filter((d) => d.code.startsWith('controller/'));
};

test('the fixture: SCM provider allow-list, the policy without override, a namespace the controller does not watch', () => {
  const previews = lintOf('appsets/previews.yaml');
  assert.deepEqual(previews.map((d) => d.code).sort(), ['controller/policy-not-applied', 'controller/scm-provider-not-allowed']);
  const scm = previews.find((d) => d.code === 'controller/scm-provider-not-allowed')!;
  // Only the scmProvider's API is refused; the pull request generator's GitLab API is on the list.
  assert.match(
    scm.message,
    /"https:\/\/ghe\.example\.com\/api\/v3" is not one of the SCM providers Argo CD argocd allows \(.*argocd-cmd-params-cm\.yaml:8/,
  );
  const policy = previews.find((d) => d.code === 'controller/policy-not-applied')!;
  assert.match(
    policy.message,
    /^applicationsSync: sync is not applied: the controller's policy create-only \(argocd\/argocd-cmd-params-cm\.yaml:6\) applies, because the policy override is off — so/,
  );
  assert.match(policy.message, /never updates or deletes them/);
  const sandbox = lintOf('appsets/sandbox.yaml');
  assert.equal(sandbox.length, 1);
  assert.equal(sandbox[0].code, 'controller/namespace-not-watched');
  assert.match(sandbox[0].message, /namespace sandbox \(argocd processes those in argocd, team-\*\)/);
});

const cm = (data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;
const appset = (ns: string, extra = '', generator = '  - clusters: {}\n') => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: services
  namespace: ${ns}
spec:
${extra}  generators:
${generator}  template:
    metadata:
      name: '{{name}}'
      labels:
        tier: '{{metadata.labels.tier}}'
    spec:
      project: default
      source: {repoURL: https://example.com/r.git, path: x, targetRevision: HEAD}
      destination:
        server: '{{server}}'
`;
const codes = (text: string, data: Record<string, string>) =>
  storyFindings(text, new Map([['/ws/argocd/argocd-cmd-params-cm.yaml', cm(data)]]))
    .filter((d) => d.code.startsWith('controller/'))
    .map((d) => d.code);

test('namespaces: globs and /regexp/ as Argo CD matches them; the own namespace always', () => {
  assert.deepEqual(codes(appset('argocd'), {}), []);
  assert.deepEqual(codes(appset('team-a'), {}), ['controller/namespace-not-watched']);
  const watch = {
    'applicationsetcontroller.namespaces': 'team-*',
    'applicationsetcontroller.enable.scm.providers': 'false',
    'application.namespaces': 'team-*, ops',
  };
  assert.deepEqual(codes(appset('team-a'), watch), []);
  assert.deepEqual(codes(appset('ops'), { ...watch, 'applicationsetcontroller.namespaces': '/^(ops|dev)$/' }), []);
  assert.deepEqual(codes(appset('opsx'), { ...watch, 'applicationsetcontroller.namespaces': '/^(ops|dev)$/' }), [
    'controller/namespace-not-watched',
  ]);
  // Other namespaces with SCM providers on and no allow-list: the controller refuses to start.
  assert.deepEqual(codes(appset('argocd'), { 'applicationsetcontroller.namespaces': 'team-*' }), ['controller/does-not-start']);
});

test('SCM providers disabled: every SCM provider and pull request generator fails, nested ones too', () => {
  const gen =
    '  - merge:\n      mergeKeys: [x]\n      generators:\n        - pullRequest:\n            github: {owner: acme, repo: app}\n        - clusters: {}\n';
  assert.deepEqual(codes(appset('argocd', '', gen), { 'applicationsetcontroller.enable.scm.providers': 'false' }), [
    'controller/scm-providers-disabled',
  ]);
  assert.deepEqual(codes(appset('argocd', '', gen), { 'applicationsetcontroller.enable.scm.providers': 'FALSE' }), [
    'controller/scm-providers-disabled',
  ]);
  // Without a custom API URL the allow-list does not apply (ScmProviderAllowed).
  assert.deepEqual(codes(appset('argocd', '', gen), { 'applicationsetcontroller.allowed.scm.providers': 'https://git.example.com' }), []);
});

test('policy: the ApplicationSet chooses only with the override; the controller policy reaches the RollingSync check', () => {
  const own = '  syncPolicy:\n    applicationsSync: create-update\n';
  assert.deepEqual(codes(appset('argocd', own), {}), []);
  assert.deepEqual(codes(appset('argocd', own), { 'applicationsetcontroller.policy': 'sync' }), ['controller/policy-not-applied']);
  assert.deepEqual(
    codes(appset('argocd', own), { 'applicationsetcontroller.policy': 'sync', 'applicationsetcontroller.enable.policy.override': 'true' }),
    [],
  );
  assert.deepEqual(codes(appset('argocd'), { 'applicationsetcontroller.policy': 'create-upsert' }), ['controller/does-not-start']);
  // RollingSync under the controller's create-only: the rollout can never sync (said at the strategy).
  const rolling = appset('argocd', `${rollingSyncBy('tier', [{ values: ['canary'] }], { block: true, compact: true })}\n`);
  const files = new Map([['/ws/argocd/argocd-cmd-params-cm.yaml', cm({ 'applicationsetcontroller.policy': 'create-only' })]]);
  const d = storyFindings(rolling, files).find((x) => x.code === 'rollout/sync-policy-blocks-rollout');
  assert.ok(d, 'the controller policy blocks the rollout');
  assert.match(
    d.message,
    /^the controller's policy create-only \(argocd\/argocd-cmd-params-cm\.yaml:7\): create-only never updates existing Applications/,
  );
});
