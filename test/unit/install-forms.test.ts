// Install forms the model missed (issue 37, "Install forms still missed"): each fixture under
// test/fixtures/installs/ is our own small reproduction of a form seen in public repositories, and
// gives Argo CD's answer: which install runs the ApplicationSet, whether progressive syncs are honoured,
// and the version it is checked against. Each is checked through the model (the engine's door) and the
// CLI (`plan`, `instances`, `lint`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/cli';
import { posix, serviceOver, bundledCli } from '../helpers/realworld';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../helpers/memHost';
import { applyEdits, storyService } from './rollout-helpers';

const INSTALLS = path.join(repoRoot, 'test', 'fixtures', 'installs');
const cli = bundledCli('appset-install-forms-');

/** The model's answer for one fixture's ApplicationSet: enablement, the version note, the fronts' words. */
function modelOf(layout: string, file: string) {
  const root = path.join(INSTALLS, layout);
  const service = serviceOver(root);
  const abs = posix(path.join(root, file));
  const a = service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
  const enablement = service.rolloutPlan(a, 0)!.enablement;
  const version = service.applications(a)!.notes.find((n) => n.startsWith('checked against'))!;
  const finding = service.diagnostics(a).find((d) => d.code.startsWith('rollout/progressive-syncs-'));
  return { enablement, version, finding, status: service.fileInfo(a).appsets[0].enablement.text };
}

const run = (layout: string, args: string[]) => cli.run(args, path.join(INSTALLS, layout));

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: web, namespace: argocd}
spec:
  generators: [{list: {elements: [{env: dev}]}}]
  strategy:
    type: RollingSync
    rollingSync:
      steps:
        - matchExpressions: [{key: env, operator: In, values: [dev]}]
  template:
    metadata: {name: 'web-{{env}}', labels: {env: '{{env}}'}}
    spec:
      project: default
      source: {repoURL: https://example.com/web.git, path: deploy}
      destination: {server: https://kubernetes.default.svc, namespace: web}
`;

/** The enablement of APPSET at /ws/apps/web.yaml in the workspace `files` (through the engine's door). */
function enablementIn(files: Map<string, string>) {
  const service = getLanguageService({ host: memHost(files) });
  const at = '/ws/apps/web.yaml';
  const a = service.analyze(at, APPSET, at);
  return {
    ...service.rolloutPlan(a)!.enablement,
    version: service.applications(a)!.notes.find((n) => n.startsWith('checked against'))!,
  };
}

// 1. kustomize helmCharts inflating the argo-cd chart.

test('kustomize helmCharts: the chart version gives the release, valuesInline is read over the valuesFile (model)', () => {
  const m = modelOf('kustomize-helm-charts', 'appsets/shop.yaml');
  assert.equal(m.enablement.state, 'enabled', JSON.stringify(m.enablement, null, 1));
  assert.equal(m.enablement.instance?.name, 'platform/argocd');
  assert.match(m.enablement.decidedBy!.description, /^kustomize helmCharts argo-cd valuesInline configs\.params/);
  assert.match(m.version, /Argo CD 3\.0 \(detected: argo-cd Helm chart 8\.0\.17 \(kustomize helmCharts\)/);
  // The valuesFile's "false" is read first and overridden (valuesMerge defaults to override).
  assert.ok(
    m.enablement.evidence.some(
      (e) =>
        e.effect === 'ignored' && /argocd-values\.yaml/.test(e.file) && /but Helm reads .*kustomization\.yaml after it/.test(e.description),
    ),
    JSON.stringify(m.enablement.evidence, null, 1),
  );
  assert.equal(m.finding, undefined);
});

test('kustomize helmCharts: plan, instances and lint name the install, its namespace and its 3.0 release', () => {
  const plan = run('kustomize-helm-charts', ['plan', 'appsets/shop.yaml', '--workspace', '.']);
  assert.equal(plan.code, 0, plan.out + plan.err);
  assert.match(plan.out, /progressive syncs: enabled — Argo CD platform\/argocd .*for namespace argocd/);
  const inst = run('kustomize-helm-charts', ['instances', '.', '--workspace', '.']);
  assert.match(inst.out, /^Argo CD platform\/argocd \(namespace argocd\)$/m);
  assert.match(inst.out, /version: Argo CD 3\.0 — argo-cd Helm chart 8\.0\.17 \(kustomize helmCharts\)/);
  const lint = run('kustomize-helm-charts', ['lint', '.', '--workspace', '.']);
  assert.equal(lint.code, 0, lint.out + lint.err);
  assert.doesNotMatch(lint.out, /progressive-syncs/);
});

const HELM_CHARTS = (entry: string, ns = '') =>
  `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${ns}helmCharts:\n  - name: argo-cd\n    repo: https://argoproj.github.io/argo-helm\n    version: 7.8.2\n    releaseName: argocd\n    namespace: argocd\n${entry}`;
const PARAMS = (v: string) => `configs:\n  params:\n    applicationsetcontroller.enable.progressive.syncs: ${v}\n`;

test('kustomize helmCharts: Helm order (valuesFile, valuesInline, additionalValuesFiles), valuesMerge replace, unread values', () => {
  const files = (entry: string, extra: [string, string][] = []) =>
    new Map<string, string>([['/ws/argocd/kustomization.yaml', HELM_CHARTS(entry)], ...extra]);
  // The additional files come after the inline values (kustomize passes them as later -f).
  const later = files(
    '    valuesFile: values.yaml\n    additionalValuesFiles: [prod.yaml]\n    valuesInline:\n      configs: {params: {applicationsetcontroller.enable.progressive.syncs: true}}\n',
    [
      ['/ws/argocd/values.yaml', PARAMS('true')],
      ['/ws/argocd/prod.yaml', PARAMS('false')],
    ],
  );
  const en = enablementIn(later);
  assert.equal(en.state, 'disabled');
  assert.match(en.version, /Argo CD 2\.14 \(detected: argo-cd Helm chart 7\.8\.2 \(kustomize helmCharts\)/);
  // valuesMerge: replace drops the valuesFile's values: only the inline ones count.
  const replace = files('    valuesFile: values.yaml\n    valuesMerge: replace\n    valuesInline:\n      server: {replicas: 2}\n', [
    ['/ws/argocd/values.yaml', PARAMS('true')],
  ]);
  const r = enablementIn(replace);
  assert.equal(r.state, 'not-found');
  assert.equal(r.unread, undefined);
  // A valuesFile kustomize fetches (a URL) may enable them: unknown, never "off".
  const remote = enablementIn(files('    valuesFile: https://example.com/argocd-values.yaml\n'));
  assert.equal(remote.state, 'not-found');
  assert.match(remote.unread?.join('\n') ?? '', /valuesFile https:\/\/example\.com\/argocd-values\.yaml: not read/);
  // A valuesFile that is not in the repository: the same.
  assert.match(
    enablementIn(files('    valuesFile: missing.yaml\n')).unread?.join('\n') ?? '',
    /missing\.yaml: not read \(not in the repository\)/,
  );
});

test('kustomize helmCharts with no values: an install; the enabling fix writes valuesInline and the model then says enabled', () => {
  const kustomization = HELM_CHARTS('', 'namespace: argocd\n');
  const files = new Map<string, string>([['/ws/argocd/kustomization.yaml', kustomization]]);
  const before = enablementIn(files);
  assert.equal(before.state, 'not-found');
  assert.equal(before.instance?.name, 'argocd');
  const { service, analysis } = storyService(APPSET, files);
  const d = service.diagnostics(analysis).find((x) => x.code.startsWith('rollout/progressive-syncs-'))!;
  const fix = service.codeActions(analysis, d.span, [d]).find((x) => x.title.startsWith('Enable progressive syncs'))!;
  assert.match(fix.title, /in argocd\/kustomization\.yaml/);
  const text = applyEdits(kustomization, fix.edits!);
  assert.match(text, /\n {4}valuesInline:\n {6}configs:\n {8}params:\n {10}applicationsetcontroller\.enable\.progressive\.syncs: "true"/);
  files.set('/ws/argocd/kustomization.yaml', text);
  assert.equal(enablementIn(files).state, 'enabled');
});

test('kustomize helmCharts beside an images: tag of the argocd image: the tag runs (kustomize transforms what the chart generates)', () => {
  const chartOnly = enablementIn(new Map([['/ws/argocd/kustomization.yaml', HELM_CHARTS('', 'namespace: argocd\n')]]));
  assert.match(chartOnly.version, /Argo CD 2\.14/);
  const tagged = HELM_CHARTS('', 'namespace: argocd\nimages:\n  - name: quay.io/argoproj/argocd\n    newTag: v3.0.6\n');
  const withTag = enablementIn(new Map([['/ws/argocd/kustomization.yaml', tagged]]));
  assert.match(withTag.version, /Argo CD 3\.0/);
  assert.doesNotMatch(withTag.version, /2\.14/);
});

// 2. An argocd-autopilot bootstrap whose kustomization merges only into argocd-cm.

test('autopilot bootstrap merging only into argocd-cm: found as the install; progressive syncs at their default, off (model)', () => {
  const m = modelOf('autopilot-argocd-cm', 'apps/shop/appset.yaml');
  assert.equal(m.enablement.state, 'not-found');
  assert.equal(m.enablement.instance?.name, 'bootstrap/argo-cd');
  assert.equal(m.enablement.unread, undefined, 'the autopilot base leaves the controller at its defaults');
  assert.match(m.finding!.message, /^Ignored: .*Argo CD bootstrap\/argo-cd/);
  assert.doesNotMatch(m.finding!.message, /no Argo CD install/);
  assert.match(m.version, /bootstrap\/argo-cd runs it, and nothing in the repository says which version it installs/);
});

test('autopilot bootstrap merging only into argocd-cm: plan, instances and lint name the install', () => {
  const plan = run('autopilot-argocd-cm', ['plan', 'apps/shop/appset.yaml', '--workspace', '.']);
  assert.match(plan.out, /progressive syncs: not enabled .* — Argo CD bootstrap\/argo-cd \(the repository's only Argo CD install/);
  const inst = run('autopilot-argocd-cm', ['instances', '.', '--workspace', '.']);
  assert.match(inst.out, /^Argo CD bootstrap\/argo-cd \(namespace argocd\)$/m);
  assert.doesNotMatch(inst.out, /no Argo CD install found/);
  const lint = run('autopilot-argocd-cm', ['lint', '.', '--workspace', '.', '--no-fail']);
  assert.match(
    lint.out,
    /apps\/shop\/appset\.yaml:\d+:\d+ warning rollout\/progressive-syncs-not-found Ignored: .*Argo CD bootstrap\/argo-cd/,
  );
});

test("Argo CD's own manifests make a kustomization an install (unpinned, without namespace); its CRDs alone do not", () => {
  const k = (resource: string) => new Map([['/ws/platform/gitops/kustomization.yaml', `resources:\n  - ${resource}\n`]]);
  for (const r of [
    'github.com/argoproj-labs/argocd-autopilot/manifests/base?ref=v0.4.17',
    'https://raw.githubusercontent.com/argoproj/argo-cd/stable/manifests/install.yaml',
    'https://github.com/argoproj/argo-cd//manifests/ha/cluster-install',
  ])
    assert.equal(enablementIn(k(r)).instance?.name, 'platform/gitops', r);
  assert.equal(enablementIn(k('https://github.com/argoproj/argo-cd//manifests/crds')).instance?.name, '');
  assert.equal(enablementIn(k('https://github.com/argoproj-labs/argocd-image-updater/manifests/base')).instance?.name, '');
});

// 3. A Flux HelmRelease with only valuesFrom and no chart version.

test('Flux HelmRelease with only valuesFrom, no chart version: an install, its ConfigMap values read, the version said unknown', () => {
  const m = modelOf('flux-values-from-only', 'apps/shop.yaml');
  assert.equal(m.enablement.state, 'not-found');
  assert.equal(m.enablement.instance?.name, 'clusters/home/argocd');
  assert.equal(m.enablement.unread, undefined, 'its ConfigMap is in the repository and was read');
  assert.match(m.version, /clusters\/home\/argocd runs it, and nothing in the repository says which version it installs/);
  const inst = run('flux-values-from-only', ['instances', '.', '--workspace', '.']);
  assert.match(inst.out, /^Argo CD clusters\/home\/argocd \(namespace argocd\)$/m);
  assert.match(inst.out, /version: not stated in the repository/);
  const plan = run('flux-values-from-only', ['plan', 'apps/shop.yaml', '--workspace', '.']);
  assert.match(plan.out, /progressive syncs: not enabled .* — Argo CD clusters\/home\/argocd/);
  const lint = run('flux-values-from-only', ['lint', '.', '--workspace', '.', '--no-fail']);
  assert.match(lint.out, /rollout\/progressive-syncs-not-found Ignored: .*Argo CD clusters\/home\/argocd/);
});

const RELEASE = (from: string) =>
  `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: argo-cd, namespace: argocd}\nspec:\n  interval: 1h\n  chart:\n    spec: {chart: argo-cd, sourceRef: {kind: HelmRepository, name: argo}}\n  valuesFrom:\n${from}`;
const VALUES_CM = (name: string, values: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: argocd}\ndata:\n  values.yaml: |\n${values.replace(/^/gm, '    ')}`;

test('Flux valuesFrom: a source in a sibling folder is read; one the repository does not hold makes the verdict unknown, never "off"', () => {
  const sibling = new Map([
    ['/ws/flux/argocd/release.yaml', RELEASE('    - {kind: ConfigMap, name: argo-values}\n')],
    ['/ws/flux/config/values.yaml', VALUES_CM('argo-values', PARAMS('"true"'))],
  ]);
  assert.equal(enablementIn(sibling).state, 'enabled');
  const secret = enablementIn(
    new Map([['/ws/flux/argocd/release.yaml', RELEASE('    - {kind: Secret, name: argo-oidc, optional: true}\n')]]),
  );
  assert.equal(secret.state, 'not-found');
  assert.equal(secret.instance?.name, 'flux/argocd');
  assert.match(secret.unread?.join('\n') ?? '', /HelmRelease argo-cd valuesFrom Secret argo-oidc: not read/);
  const service = getLanguageService({
    host: memHost(new Map([['/ws/flux/argocd/release.yaml', RELEASE('    - {kind: Secret, name: argo-oidc}\n')]])),
  });
  const a = service.analyze('/ws/apps/web.yaml', APPSET, '/ws/apps/web.yaml');
  assert.match(service.fileInfo(a).appsets[0].enablement.text, /^Unknown whether honoured/);
});

test('Flux HelmRelease: the enabling fix writes spec.values (Flux merges it last), and the model then says enabled', () => {
  const release = RELEASE('    - {kind: ConfigMap, name: argo-values}\n');
  const files = new Map([
    ['/ws/flux/argocd/release.yaml', release],
    ['/ws/flux/argocd/values.yaml', VALUES_CM('argo-values', 'server: {replicas: 2}\n')],
  ]);
  assert.equal(enablementIn(files).state, 'not-found');
  const { service, analysis } = storyService(APPSET, files);
  const d = service.diagnostics(analysis).find((x) => x.code.startsWith('rollout/progressive-syncs-'))!;
  const fix = service.codeActions(analysis, d.span, [d]).find((x) => x.title.startsWith('Enable progressive syncs'))!;
  assert.match(fix.title, /in flux\/argocd\/release\.yaml/);
  files.set('/ws/flux/argocd/release.yaml', applyEdits(release, fix.edits!));
  assert.match(files.get('/ws/flux/argocd/release.yaml')!, /\n {2}values:\n {4}configs:\n {6}params:\n/);
  assert.equal(enablementIn(files).state, 'enabled');
});

// 5. A kustomize base found as its own install beside the overlay that builds it.

test("a kustomize base beside the overlay that builds it: one install, the overlay's, with the base's version and namespace", () => {
  const m = modelOf('base-beside-overlay', 'apps/shop.yaml');
  assert.equal(m.enablement.state, 'enabled', JSON.stringify(m.enablement, null, 1));
  assert.equal(m.enablement.instance?.name, 'clusters/prod/argocd');
  assert.match(
    m.version,
    /Argo CD 3\.0(\.12)? \(detected: kustomize remote base of argoproj\/argo-cd \?ref=v3\.0\.12 in platform\/argocd\/kustomization\.yaml/,
  );
  const inst = run('base-beside-overlay', ['instances', '.', '--workspace', '.']);
  assert.match(inst.out, /^Argo CD clusters\/prod\/argocd \(namespace argocd\)$/m);
  assert.doesNotMatch(inst.out, /^Argo CD platform\/argocd/m);
  assert.doesNotMatch(inst.out, /several Argo CD installs/);
  const plan = run('base-beside-overlay', ['plan', 'apps/shop.yaml', '--workspace', '.']);
  assert.match(plan.out, /progressive syncs: enabled — Argo CD clusters\/prod\/argocd \(the repository's only Argo CD install/);
  const lint = run('base-beside-overlay', ['lint', '.', '--workspace', '.']);
  assert.equal(lint.code, 0, lint.out + lint.err);
  assert.doesNotMatch(lint.out, /progressive-syncs/);
});

test('kustomize bases are followed through a middle kustomization, and a cycle neither hangs nor drops both installs', () => {
  const base = 'namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.14.11\n';
  const overlay = (res: string) =>
    `resources:\n  - ${res}\nconfigMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n    literals: [applicationsetcontroller.enable.progressive.syncs=true]\n`;
  const chain = enablementIn(
    new Map([
      ['/ws/platform/argocd/kustomization.yaml', base],
      ['/ws/platform/common/kustomization.yaml', 'resources:\n  - ../argocd\n'],
      ['/ws/clusters/east/argocd/kustomization.yaml', overlay('../../../platform/common')],
    ]),
  );
  assert.equal(chain.state, 'enabled');
  assert.equal(chain.instance?.name, 'clusters/east/argocd');
  assert.match(chain.version, /Argo CD 2\.14/);
  const cycle = enablementIn(
    new Map([
      ['/ws/a/argocd/kustomization.yaml', overlay('../../b/argocd') + 'namespace: argocd\n'],
      ['/ws/b/argocd/kustomization.yaml', base + '  - ../../a/argocd\n'],
    ]),
  );
  assert.ok(cycle.instance?.name, JSON.stringify(cycle));
});

// 6. A folder holding only a params ConfigMap that nothing deploys.

test('a lone params ConfigMap nothing deploys does not make ApplicationSets ambiguous beside a real install', () => {
  const m = modelOf('lone-params-configmap', 'apps/shop.yaml');
  assert.equal(m.enablement.state, 'enabled', JSON.stringify(m.enablement, null, 1));
  assert.equal(m.enablement.instance?.name, 'bootstrap/argocd');
  assert.match(m.version, /Argo CD 3\.1/);
  const plan = run('lone-params-configmap', ['plan', 'apps/shop.yaml', '--workspace', '.']);
  assert.match(plan.out, /progressive syncs: enabled — Argo CD bootstrap\/argocd /);
  assert.doesNotMatch(plan.out, /several Argo CD installs/);
  const inst = run('lone-params-configmap', ['instances', '.', '--workspace', '.']);
  assert.doesNotMatch(inst.out, /several Argo CD installs/);
  assert.match(inst.out, /apps\/shop\.yaml — the repository's only Argo CD install, bootstrap\/argocd\//);
  const lint = run('lone-params-configmap', ['lint', '.', '--workspace', '.']);
  assert.equal(lint.code, 0, lint.out + lint.err);
  assert.doesNotMatch(lint.out, /progressive-syncs/);
});

test('a lone params ConfigMap is still the install (applied by hand) where the repository holds no other', () => {
  const cm = (v: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cmd-params-cm, namespace: argocd}\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "${v}"\n`;
  const alone = enablementIn(new Map([['/ws/cluster/params/argocd-cmd-params-cm.yaml', cm('true')]]));
  assert.equal(alone.state, 'enabled');
  assert.equal(alone.instance?.name, 'cluster/params');
  // Beside an Argo CD Application installing the chart, the lone ConfigMap's "false" no longer decides (its
  // folder, named like an install, governs the whole workspace: it was the nearer install before).
  const app =
    'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: argocd, namespace: argocd}\nspec:\n  source:\n    repoURL: https://argoproj.github.io/argo-helm\n    chart: argo-cd\n    targetRevision: 8.1.2\n    helm:\n      valuesObject: {configs: {params: {applicationsetcontroller.enable.progressive.syncs: true}}}\n  destination: {namespace: argocd, server: https://kubernetes.default.svc}\n';
  const beside = enablementIn(
    new Map([
      ['/ws/platform/argocd-cmd-params-cm.yaml', cm('false')],
      ['/ws/bootstrap/argocd.yaml', app],
    ]),
  );
  assert.equal(beside.state, 'enabled');
  assert.equal(beside.instance?.name, 'Application argocd (bootstrap/argocd.yaml)');
  assert.deepEqual(beside.notes ?? [], []);
});

// 4. Terraform's helm_release of the argo-cd chart.

test('Terraform helm_release: its set block enables progressive syncs; its chart version gives the release (model, plan, instances, lint)', () => {
  const m = modelOf('terraform-helm-release', 'appsets/shop.yaml');
  assert.equal(m.enablement.state, 'enabled', JSON.stringify(m.enablement, null, 1));
  assert.equal(m.enablement.instance?.name, 'infra/argocd');
  assert.match(
    m.enablement.decidedBy!.description,
    /^Terraform helm_release argocd set sets applicationsetcontroller\.enable\.progressive\.syncs: "true"/,
  );
  assert.equal(m.enablement.decidedBy!.where, 'infra/argocd/main.tf:20');
  assert.match(m.version, /Argo CD 2\.14 \(detected: argo-cd Helm chart 7\.8\.2 \(Terraform helm_release argocd\)/);
  const plan = run('terraform-helm-release', ['plan', 'appsets/shop.yaml', '--workspace', '.']);
  assert.equal(plan.code, 0, plan.out + plan.err);
  assert.match(plan.out, /progressive syncs: enabled — Argo CD infra\/argocd .* decided by infra\/argocd\/main\.tf:20/);
  assert.doesNotMatch(plan.out, /Ignored/);
  const inst = run('terraform-helm-release', ['instances', '.', '--workspace', '.']);
  assert.match(inst.out, /^Argo CD infra\/argocd \(namespace argocd\)$/m);
  assert.match(
    inst.out,
    /version: Argo CD 2\.14 — argo-cd Helm chart 7\.8\.2 \(Terraform helm_release argocd\) \(infra\/argocd\/main\.tf:12\)/,
  );
  const lint = run('terraform-helm-release', ['lint', '.', '--workspace', '.']);
  assert.equal(lint.code, 0, lint.out + lint.err);
  assert.doesNotMatch(lint.out, /progressive-syncs/);
});

const TF = (body: string) =>
  `resource "helm_release" "argo" {\n  name       = "argo"\n  repository = "https://argoproj.github.io/argo-helm"\n  chart      = "argo-cd"\n  version    = "8.1.2"\n  namespace  = "argocd"\n${body}}\n`;

test('Terraform helm_release: values in the provider order (values files, heredocs, yamlencode, then set); what it cannot read is unknown, never "off"', () => {
  const tf = (body: string, extra: [string, string][] = []) => enablementIn(new Map([['/ws/terraform/argocd.tf', TF(body)], ...extra]));
  // A values file turns them off, a later set block on: the set wins.
  const later = tf(
    '  values = [file("values.yaml")]\n  set {\n    name  = "configs.params.applicationsetcontroller\\\\.enable\\\\.progressive\\\\.syncs"\n    value = true\n  }\n',
    [['/ws/terraform/values.yaml', PARAMS('false')]],
  );
  assert.equal(later.state, 'enabled');
  assert.match(later.version, /Argo CD 3\.0 \(detected: argo-cd Helm chart 8\.1\.2 \(Terraform helm_release argo\)/);
  // The values file alone decides.
  assert.equal(tf('  values = [file("${path.module}/values.yaml")]\n', [['/ws/terraform/values.yaml', PARAMS('false')]]).state, 'disabled');
  // A heredoc and yamlencode of a literal object are read.
  assert.equal(tf(`  values = [<<-EOT\n    ${PARAMS('true').replace(/\n/g, '\n    ')}EOT\n  ]\n`).state, 'enabled');
  assert.equal(
    tf('  values = [yamlencode({ configs = { params = { "applicationsetcontroller.enable.progressive.syncs" = true } } })]\n').state,
    'enabled',
  );
  // The provider 3.x list form of set.
  assert.equal(tf('  set = [{ name = "applicationSet.extraArgs[0]", value = "--enable-progressive-syncs" }]\n').state, 'enabled');
  // Values Terraform computes: unknown, with what was not read.
  for (const [body, what] of [
    ['  values = [templatefile("${path.module}/values.tpl", { env = var.env })]\n', /values: not read \(templatefile/],
    ['  values = [var.argocd_values]\n', /values: not read \(var\.argocd_values\)/],
    ['  values = [file("missing.yaml")]\n', /file\(missing\.yaml\): not read \(not in the repository\)/],
    [
      '  dynamic "set" {\n    for_each = var.sets\n    content {\n      name  = set.key\n      value = set.value\n    }\n  }\n',
      /dynamic "set"/,
    ],
    [
      '  set {\n    name  = "configs.params.applicationsetcontroller\\\\.enable\\\\.progressive\\\\.syncs"\n    value = var.progressive\n  }\n',
      /its value is computed by Terraform/,
    ],
  ] as const) {
    const en = tf(body);
    assert.equal(en.state, 'not-found', body);
    assert.match(en.unread?.join('\n') ?? '', what, body);
    assert.equal(en.instance?.name, 'terraform');
  }
  // A release of another chart is no install.
  assert.equal(enablementIn(new Map([['/ws/terraform/argocd.tf', TF('').replace('argo-cd', 'argo-workflows')]])).instance?.name, '');
});

test('Terraform heredoc values that interpolate only numbers are read; any other interpolation, or one on a setting line, stays unknown', () => {
  // A homelab's helm_release: the controller's memory limit from numeric locals (one computed with floor),
  // interpolated into a resource limit and a comment; the flag that enables progressive syncs is literal.
  const LOCALS = 'locals {\n  memory_mib = 1500\n  gomemlimit_mib = floor(local.memory_mib * 0.85)\n}\n';
  const heredoc = (extra: string) =>
    `  values = [<<EOF\ncontroller:\n  # the runtime is told \${local.gomemlimit_mib}MiB, below the \${local.memory_mib}Mi limit\n  resources:\n    limits:\n      memory: "\${local.memory_mib}Mi"\napplicationSet:\n  extraArgs:\n    - --enable-progressive-syncs\n${extra}EOF\n  ]\n`;
  const tf = (locals: string, body: string) => enablementIn(new Map([['/ws/terraform/argocd.tf', locals + TF(body)]]));
  assert.equal(tf(LOCALS, heredoc('')).state, 'enabled');
  // A variable may hold anything (newlines, keys): the text is not read.
  const byVar = tf(LOCALS, heredoc('server:\n  url: "\${var.url}"\n'));
  assert.equal(byVar.state, 'not-found');
  assert.match(byVar.unread?.join('\n') ?? '', /a values text that interpolates Terraform values/);
  // A local that is a string is not a number.
  assert.equal(tf('locals {\n  memory_mib = "1500"\n  gomemlimit_mib = 1\n}\n', heredoc('')).state, 'not-found');
  // A number interpolated into a setting the model reads: its value is not known.
  const onSetting = tf(
    LOCALS,
    heredoc('configs:\n  params:\n    applicationsetcontroller.enable.progressive.syncs: \${local.memory_mib}\n'),
  );
  assert.equal(onSetting.state, 'not-found');
  // A directive is not read either.
  assert.equal(tf(LOCALS, heredoc('%{ if true }\nx: 1\n%{ endif }\n')).state, 'not-found');
});

test('Terraform yamlencode with computed values away from the settings the model reads is read; computed at or above them, unknown', () => {
  const tf = (values: string) => enablementIn(new Map([['/ws/terraform/argocd.tf', TF(`  values = [\n${values}\n  ]\n`)]]));
  const enable = '    yamlencode({ configs = { params = { "applicationsetcontroller.enable.progressive.syncs" = true } } }),';
  // A domain and a URL built from variables, a selector from a local: none is a controller setting.
  const elsewhere =
    '    yamlencode({ global = { domain = "argocd.\${var.env}.\${var.domain}" } }),\n    yamlencode({ configs = { cm = { url = "https://\${var.domain}" } }, controller = { metrics = { selector = local.selector } } }),';
  assert.equal(tf(`${elsewhere}\n${enable}`).state, 'enabled');
  // Computed where the model reads: the flag list, the params themselves, or the whole configs.
  for (const computed of [
    '    yamlencode({ applicationSet = { extraArgs = var.args } }),',
    '    yamlencode({ configs = { params = { "applicationsetcontroller.enable.progressive.syncs" = var.on } } }),',
    '    yamlencode({ configs = local.configs }),',
  ]) {
    const en = tf(`${enable}\n${computed}`);
    assert.equal(en.state, 'not-found', computed);
    assert.match(en.unread?.join('\n') ?? '', /yamlencode\(…\) of values Terraform computes/, computed);
  }
});

test('Terraform files that are not HCL the reader follows neither crash nor hang, and say nothing', () => {
  for (const text of [
    'resource "helm_release" "a" { chart = "argo-cd" values = [',
    'resource "helm_release" "a" {\n  chart = "argo-cd"\n  values = [}\n  set { name = "x" value = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1 }\n',
    `resource "helm_release" "a" {\n  chart = "argo-cd"\n  values = [<<EOT\n${'x: y\n'.repeat(20000)}`,
    '"'.repeat(50000) + ' helm_release argo-cd',
    `resource "helm_release" "a" {\n  chart = "argo-cd"\n${'  set {\n    name = "a"\n    value = "${x}"\n  }\n'.repeat(3000)}}\n`,
  ]) {
    const started = Date.now();
    const en = enablementIn(new Map([['/ws/terraform/main.tf', text]]));
    assert.ok(Date.now() - started < 20_000);
    assert.notEqual(en.state, 'enabled');
  }
});

test('a params ConfigMap patched in by the kustomization above is part of its install, not a second one', () => {
  const files = new Map([
    [
      '/ws/argocd/install/kustomization.yaml',
      'namespace: argocd\nresources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v3.1.8/manifests/ha/install.yaml\npatches:\n  - path: overlays/argocd-cmd-params-cm.yaml\n',
    ],
    [
      '/ws/argocd/install/overlays/argocd-cmd-params-cm.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cmd-params-cm}\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n',
    ],
  ]);
  const en = enablementIn(files);
  assert.equal(en.state, 'enabled');
  assert.equal(en.instance?.name, 'argocd/install');
  assert.deepEqual(en.notes ?? [], []);
  assert.match(en.version, /Argo CD 3\.1/);
});

test('an install kept under archive/ (an old Terraform setup) governs only its own folder, and does not join the tie', () => {
  const files = new Map([
    ['/ws/archive/deploy/main.tf', TF('').replace('8.1.2', '5.35.0')],
    [
      '/ws/platform/argocd/kustomization.yaml',
      'namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.11.2\n',
    ],
  ]);
  const en = enablementIn(files);
  assert.equal(en.instance?.name, 'platform/argocd');
  assert.match(en.version, /Argo CD 2\.11/);
});

test('kustomize helmCharts with the pulled chart kept in the repository: its values.yaml is read first, and it is the same install', () => {
  const files = new Map<string, string>([
    ['/ws/argocd/kustomization.yaml', HELM_CHARTS('    valuesInline:\n      server: {replicas: 2}\n', 'namespace: argocd\n')],
    ['/ws/argocd/charts/argo-cd-7.8.2/argo-cd/Chart.yaml', 'apiVersion: v2\nname: argo-cd\nversion: 7.8.2\nappVersion: v2.14.2\n'],
    ['/ws/argocd/charts/argo-cd-7.8.2/argo-cd/values.yaml', PARAMS('false')],
  ]);
  const en = enablementIn(files);
  assert.equal(en.state, 'disabled');
  assert.equal(en.instance?.name, 'argocd');
  assert.deepEqual(en.notes ?? [], []);
  assert.match(en.version, /Argo CD 2\.14/);
  // valuesInline is read after the chart's own values.
  files.set(
    '/ws/argocd/kustomization.yaml',
    HELM_CHARTS(`    valuesInline:\n${PARAMS('true').replace(/^/gm, '      ')}`, 'namespace: argocd\n'),
  );
  assert.equal(enablementIn(files).state, 'enabled');
});

test('Flux HelmRelease with chartRef: an OCIRepository of argo-cd gives the chart and version; one not in the repository is unknown', () => {
  const release = (values: string) =>
    `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: argocd, namespace: argocd}\nspec:\n  interval: 1h\n  chartRef: {kind: OCIRepository, name: argo-cd-chart}\n${values}`;
  const oci = (url: string) =>
    `apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: OCIRepository\nmetadata: {name: argo-cd-chart, namespace: argocd}\nspec:\n  interval: 1h\n  url: ${url}\n  ref: {tag: 7.8.2}\n`;
  const on = `  values:\n${PARAMS('true').replace(/^/gm, '    ')}`;
  const resolved = enablementIn(
    new Map([
      ['/ws/flux/argocd/release.yaml', release(on)],
      ['/ws/flux/sources/argo.yaml', oci('oci://ghcr.io/argoproj/argo-helm/argo-cd')],
    ]),
  );
  assert.equal(resolved.state, 'enabled');
  assert.equal(resolved.instance?.name, 'flux/argocd');
  assert.match(resolved.version, /Argo CD 2\.14 \(detected: argo-cd Helm chart 7\.8\.2 \(HelmRelease\)/);
  // The source is another chart: no Argo CD install.
  const other = enablementIn(
    new Map([
      ['/ws/flux/argocd/release.yaml', release(on)],
      ['/ws/flux/sources/argo.yaml', oci('oci://ghcr.io/stefanprodan/charts/podinfo')],
    ]),
  );
  assert.equal(other.instance?.name, '');
  // The source is not in the repository: seen by its name, read as unknown.
  const unknown = enablementIn(new Map([['/ws/flux/argocd/release.yaml', release('')]]));
  assert.equal(unknown.state, 'not-found');
  assert.equal(unknown.instance?.name, 'flux/argocd');
  assert.match(unknown.unread?.join('\n') ?? '', /HelmRelease argocd spec\.chartRef OCIRepository argo-cd-chart: not in this repository/);
});

test('Flux chartRef: the version is found when neither the HelmRelease nor its file names argo-cd', () => {
  const en = enablementIn(
    new Map([
      [
        '/ws/flux/cd/release.yaml',
        'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: cd, namespace: argocd}\nspec:\n  interval: 1h\n  chartRef: {kind: OCIRepository, name: cd-chart}\n',
      ],
      [
        '/ws/flux/sources/cd.yaml',
        'apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: cd-chart, namespace: argocd}\nspec:\n  url: oci://ghcr.io/argoproj/argo-helm/argo-cd\n  ref: {semver: 8.1.x}\n',
      ],
    ]),
  );
  assert.equal(en.instance?.name, 'flux/cd');
  assert.match(en.version, /Argo CD 3\.0 \(detected: argo-cd Helm chart 8\.1\.x \(HelmRelease\)/);
});

test("an Application installing argo-cd from an OCI repository (Argo CD's OCI sources: no chart:, path inside the artifact) is an install", () => {
  const app = (source: string, extra = '') =>
    `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: argocd, namespace: argocd}\nspec:\n  project: default\n  sources:\n    - repoURL: oci://ghcr.io/argoproj/argo-helm/argo-cd\n      targetRevision: 9.1.4\n      path: .\n${source}${extra}  destination: {server: https://kubernetes.default.svc, namespace: argocd}\n`;
  const inline = enablementIn(
    new Map([
      [
        '/ws/bootstrap/argocd.yaml',
        app(`      helm:\n        valuesObject:\n          configs: {params: {applicationsetcontroller.enable.progressive.syncs: true}}\n`),
      ],
    ]),
  );
  assert.equal(inline.state, 'enabled');
  assert.equal(inline.instance?.name, 'Application argocd (bootstrap/argocd.yaml)');
  assert.match(inline.version, /Argo CD 3\.2 \(detected: argo-cd Helm chart 9\.1\.4 \(Application argocd\)/);
  // Its $values files are read; its `path: .` is not this repository's root (nothing here is "deployed" by it).
  const files = new Map([
    [
      '/ws/bootstrap/argocd.yaml',
      app(
        '      helm:\n        valueFiles: [$values/argocd/values.yaml]\n',
        '    - repoURL: https://example.com/r.git\n      ref: values\n',
      ),
    ],
    ['/ws/argocd/values.yaml', PARAMS('false')],
  ]);
  assert.equal(enablementIn(files).state, 'disabled');
});
