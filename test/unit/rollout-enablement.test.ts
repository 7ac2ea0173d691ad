/**
 * Progressive-sync enablement from every form of Argo CD configuration (test/fixtures/rollout/), as a
 * user is shown it: the rollout plan's enablement for an ApplicationSet (what lint, the lens, the hover,
 * `appset plan` and the status bar all say), through the engine's door. The ApplicationSet lives in a
 * folder of its own (apps/shop/); one that lies beside a ConfigMap nothing deploys changes the answer to
 * "not deployed yet", which is tested explicitly below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, type EngineSettings } from '@appset-tools/engine';
import { fixtureFiles } from './rollout-helpers';
import { memHost } from '../helpers/memHost';
import { appsetHead, MINIMAL_TEMPLATE_SPEC, rollingSyncBy } from '../helpers/appsets';

/** A RollingSync ApplicationSet of two Applications (dev, then prod). */
const APPSET = `${appsetHead('shop')}  generators:\n    - list:\n        elements: [{env: dev}, {env: prod}]\n${rollingSyncBy('env', [{ values: ['dev'] }, { values: ['prod'] }])}  template:\n    metadata:\n      name: 'shop-{{.env}}'\n      labels: {env: '{{.env}}'}\n${MINIMAL_TEMPLATE_SPEC}`;
const APPSET_PATH = '/ws/apps/shop/appset.yaml';

/** The service over `files` with the ApplicationSet at `at`, and its analysis. */
function analysed(files: Map<string, string>, settings: Partial<EngineSettings> = {}, at = APPSET_PATH) {
  const ls = getLanguageService({ host: memHost(new Map(files).set(at, APPSET), settings) });
  return { ls, a: ls.analyze(`file://${at}`, APPSET, at) };
}

/** The enablement of the ApplicationSet's controller, as the rollout plan gives it; the status bar says the same. */
function enablementOf(files: Map<string, string>, settings: Partial<EngineSettings> = {}, at = APPSET_PATH) {
  const { ls, a } = analysed(files, settings, at);
  const en = ls.rolloutPlan(a)!.enablement;
  assert.equal(ls.fileInfo(a).appsets[0].enablement?.state, en.state, 'the status bar says what the plan says');
  return en;
}

const detect = (name: string, progressiveSyncs: 'auto' | 'enabled' | 'disabled' = 'auto') =>
  enablementOf(fixtureFiles(name), { progressiveSyncs });

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

test('evidence carries precise spans (the value scalar) for plain fields, and the enabling fix rewrites that scalar', () => {
  const files = fixtureFiles('cm-false');
  const { ls, a } = analysed(files);
  const e = ls.rolloutPlan(a)!.enablement.evidence[0];
  const text = files.get(e.file)!;
  assert.equal(text.slice(e.span!.start, e.span!.end), '"false"');
  assert.equal(e.effect, 'disables');
  // The quick fix edits the value itself (the scan's value span), in the file that disables them.
  const [off] = ls.diagnostics(a).filter((d) => d.code === 'rollout/progressive-syncs-disabled');
  const edits = ls.codeActions(a, off.span, [off]).flatMap((c) => c.edits ?? []);
  assert.deepEqual(
    edits.map((x) => [x.file, text.slice(x.span.start, x.span.end), x.newText]),
    [[e.file, '"false"', '"true"']],
  );
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
  const en = enablementOf(files);
  assert.equal(en.state, 'not-found');
});

test('a ConfigMap dropped beside the ApplicationSets, in a folder nothing deploys, is written, not deployed', () => {
  // cm-true's ConfigMap alone in the workspace root is the install's configuration (applied by hand);
  // the same ConfigMap beside the ApplicationSet it is meant for, with nothing deploying the folder,
  // enables nothing yet (install/notDeployed.ts): lint, lens and status bar say "Not deployed yet".
  assert.equal(detect('cm-true').state, 'enabled');
  const { ls, a } = analysed(fixtureFiles('cm-true'), {}, '/ws/appset.yaml');
  const en = ls.rolloutPlan(a)!.enablement;
  assert.equal(en.state, 'not-found');
  assert.deepEqual(
    en.evidence.map((e) => e.effect),
    ['ignored'],
  );
  assert.match(en.undeployed ?? '', /^argocd-cmd-params-cm\.yaml is written but not deployed: no kustomization lists it/);
  assert.ok(ls.codeLenses(a).some((l) => /^Not deployed yet · 2 apps at once$/.test(l.title)));
  assert.match(ls.fileInfo(a).appsets[0].enablement!.text, /^Not deployed yet: argocd-cmd-params-cm\.yaml is written but not deployed/);
  assert.ok(ls.diagnostics(a).some((d) => d.code === 'rollout/progressive-syncs-not-found' && /^Not deployed yet/.test(d.message)));
});

test("a file is applied whole: the controller's Deployment and a ConfigMap in one file beside the ApplicationSets are both deployed", () => {
  // deployment-flag-false's deploy.yaml holds the controller Deployment (--enable-progressive-syncs=false)
  // and a ConfigMap enabling them. Beside the ApplicationSet, in a folder nothing deploys, the file is
  // still Argo CD's install: the flag decides (flag > ConfigMap), never "not deployed yet" (applying the
  // file would not enable them).
  const { ls, a } = analysed(fixtureFiles('deployment-flag-false'), {}, '/ws/appset.yaml');
  const en = ls.rolloutPlan(a)!.enablement;
  assert.equal(en.state, 'disabled');
  assert.deepEqual(en.evidence.map((e) => e.effect).sort(), ['disables', 'enables']);
  assert.equal(en.undeployed, undefined);
  assert.match(en.decidedBy!.description, /passes --enable-progressive-syncs=false$/);
  assert.ok(ls.codeLenses(a).some((l) => l.title === 'Ignored · all 2 apps sync at once'));
  assert.match(ls.fileInfo(a).appsets[0].enablement!.text, /^Ignored: progressive syncs are off/);
});

test('a flag that turns them off is the reason, even beside a ConfigMap that is not deployed', () => {
  // The install's kustomization builds the controller's Deployment, which passes
  // --enable-progressive-syncs=false, and does not list the enabling ConfigMap written beside it:
  // deploying the ConfigMap would change nothing (flag > ConfigMap), so the answer is "off" by the flag,
  // not "not deployed yet".
  const deployment = fixtureFiles('deployment-flag-false').get('/ws/deploy.yaml')!.split('\n---\n')[0] + '\n';
  const files = new Map([
    ['/ws/argocd/kustomization.yaml', 'resources:\n  - deploy.yaml\n'],
    ['/ws/argocd/deploy.yaml', deployment],
    ['/ws/argocd/argocd-cmd-params-cm.yaml', fixtureFiles('cm-true').get('/ws/argocd-cmd-params-cm.yaml')!],
  ]);
  const { ls, a } = analysed(files);
  const en = ls.rolloutPlan(a)!.enablement;
  assert.equal(en.state, 'disabled');
  assert.equal(en.undeployed, undefined);
  assert.match(en.decidedBy!.description, /passes --enable-progressive-syncs=false$/);
  assert.ok(en.evidence.some((e) => e.effect === 'ignored' && /is not part of argocd\/kustomization\.yaml/.test(e.description)));
  assert.match(ls.fileInfo(a).appsets[0].enablement!.text, /^Ignored: progressive syncs are off/);
  // Without the flag, the same ConfigMap is what is missing: "not deployed yet".
  files.set('/ws/argocd/deploy.yaml', deployment.replace(', "--enable-progressive-syncs=false"', ''));
  const without = enablementOf(files);
  assert.equal(without.state, 'not-found');
  assert.match(without.undeployed ?? '', /is not part of argocd\/kustomization\.yaml/);
});
