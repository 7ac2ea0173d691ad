import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { detectEnablement } from '../../server/src/engine/rollout/enablement';
import { fixtureFiles } from './rollout-helpers';
import { memHost } from '../helpers/memHost';

function detect(name: string, override: 'auto' | 'enabled' | 'disabled' = 'auto') {
  const host = memHost(fixtureFiles(name));
  return detectEnablement(new WorkspaceIndex(host), override);
}

// Sources from research §5 (cmd/argocd-applicationset-controller/commands/applicationset_controller.go,
// util/env/env.go ParseBoolFromEnv, the argo-helm chart, argocd-operator).
const CASES: [fixture: string, state: 'enabled' | 'disabled' | 'not-found', evidence: RegExp][] = [
  ['cm-true', 'enabled', /ConfigMap argocd-cmd-params-cm sets applicationsetcontroller\.enable\.progressive\.syncs: "True"/],
  ['cm-false', 'disabled', /"false"/],
  ['cm-yes', 'not-found', /only true\/false are recognised/],
  ['deployment-flag', 'enabled', /Deployment argocd-applicationset-controller passes --enable-progressive-syncs$/],
  ['deployment-flag-false', 'disabled', /--enable-progressive-syncs=false/],
  ['deployment-env', 'enabled', /sets ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS="TRUE"/],
  ['deployment-env-1', 'not-found', /="1": only true\/false/],
  ['kustomize-smp', 'enabled', /ConfigMap argocd-cmd-params-cm/],
  [
    'kustomize-json6902',
    'enabled',
    /kustomize JSON6902 patch of Deployment argocd-applicationset-controller passes --enable-progressive-syncs/,
  ],
  ['kustomize-inline', 'enabled', /JSON6902 patch of Deployment .* sets ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS="true"/],
  ['kustomize-inline-smp', 'enabled', /ConfigMap argocd-cmd-params-cm sets/],
  ['kustomize-cmgen', 'enabled', /configMapGenerator argocd-cmd-params-cm \(behavior merge\)/],
  ['helm-values', 'enabled', /Helm values configs\.params sets applicationsetcontroller\.enable\.progressive\.syncs: "true"/],
  ['helm-extraargs', 'enabled', /applicationSet\.extraArgs passes --enable-progressive-syncs/],
  ['helm-extraenv', 'disabled', /applicationSet\.extraEnv sets/],
  ['app-valuesobject', 'enabled', /Application helm\.valuesObject configs\.params/],
  ['app-values-string', 'enabled', /Application helm\.values applicationSet\.extraArgs/],
  ['operator', 'enabled', /ArgoCD example-argocd \(spec\.applicationSet\.extraCommandArgs\) passes --enable-progressive-syncs/],
  ['operator-env', 'enabled', /spec\.applicationSet\.env/],
  ['operator-cmdparams', 'not-found', /spec\.cmdParams .*does not pass this key/],
  ['old-names', 'not-found', /renamed/],
  ['none', 'not-found', /^$/],
];

for (const [fixture, state, evidence] of CASES) {
  test(`enablement from ${fixture}: ${state}`, () => {
    const en = detect(fixture);
    assert.equal(en.state, state, JSON.stringify(en.evidence, null, 1));
    assert.equal(en.source, 'detected');
    const text = en.evidence.map((e) => e.description).join('\n');
    assert.match(en.evidence.length ? text : '', evidence);
    if (state === 'not-found') assert.ok(en.searched.length > 0);
    for (const e of en.evidence) assert.ok(e.file.startsWith('/ws/'), e.file);
  });
}

test('evidence carries precise spans (the value scalar) for plain fields', () => {
  const files = fixtureFiles('cm-false');
  const en = detectEnablement(new WorkspaceIndex(memHost(files)), 'auto');
  const e = en.evidence[0];
  const text = files.get(e.file)!;
  assert.equal(text.slice(e.span!.start, e.span!.end), '"false"');
  assert.equal(e.effect, 'disables');
  assert.equal(text.slice(e.valueSpan!.start, e.valueSpan!.end), '"false"');
});

test('old names are ignored evidence, each explained', () => {
  const en = detect('old-names');
  assert.equal(en.evidence.length, 2);
  assert.ok(en.evidence.every((e) => e.effect === 'ignored' && /renamed/.test(e.description)));
});

test('a flag beats the ConfigMap (flag > env > ConfigMap)', () => {
  const en = detect('deployment-flag-false');
  assert.equal(en.state, 'disabled');
  assert.deepEqual(en.evidence.map((e) => e.effect).sort(), ['disables', 'enables']);
});

test('the setting overrides detection', () => {
  assert.equal(detect('cm-false', 'enabled').state, 'enabled');
  assert.equal(detect('cm-false', 'enabled').source, 'setting');
  assert.equal(detect('cm-true', 'disabled').state, 'disabled');
  assert.equal(detect('none', 'auto').state, 'not-found');
});

test('hostile and broken configuration never throws', () => {
  const files = new Map<string, string>([
    [
      '/ws/a.yaml',
      'kind: ConfigMap\nmetadata: {name: argocd-cmd-params-cm}\ndata: {__proto__: x, applicationsetcontroller.enable.progressive.syncs: [1,2]}\n',
    ],
    [
      '/ws/b.yaml',
      'kind: Deployment\nmetadata: {name: argocd-applicationset-controller}\nspec: {template: {spec: {containers: [null, {args: 5, env: [null, {name: ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS}]}]}}}\n',
    ],
    [
      '/ws/kustomization.yaml',
      'patches: [5, {path: ../../../etc/passwd}, {patch: "- op: add\\n  path: /data/x\\n", target: {kind: ConfigMap, name: argocd-cmd-params-cm}}]\nconfigMapGenerator: [{name: argocd-cmd-params-cm, literals: [5, "noequals"]}]\n',
    ],
    ['/ws/c.yaml', 'a: &a [*a]\n'],
    ['/ws/d.yaml', ': : :\n  - [\n'],
  ]);
  const en = detectEnablement(new WorkspaceIndex(memHost(files)), 'auto');
  assert.equal(en.state, 'not-found');
});
