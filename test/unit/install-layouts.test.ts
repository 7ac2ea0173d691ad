// The install model over the layouts people use to install Argo CD from git (test/fixtures/installs/,
// our own small reproductions of patterns seen in public repositories, docs/installations.md): which
// install runs the ApplicationSet, whether progressive syncs are on, which version is checked, and the
// enabling fix writes where the install reads (re-running the model on the edited tree).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { repoRoot } from '../helpers/cli';
import { posix, serviceOver, bundledCli } from '../helpers/realworld';
import { getLanguageService } from '@appset-tools/engine';
import { applyEdits, storyService } from './rollout-helpers';
import { memHost } from '../helpers/memHost';
import { rollingSyncBy } from '../helpers/appsets';
import { workspaceFor } from './generators-helpers';

const INSTALLS = path.join(repoRoot, 'test', 'fixtures', 'installs');

/** layout → [ApplicationSet file, progressive syncs, install that runs it, version checked (regexp)]. */
const LAYOUTS: [string, string, 'enabled' | 'disabled' | 'not-found', string, RegExp][] = [
  ['autopilot', 'apps/shop/appset.yaml', 'enabled', 'bootstrap/argo-cd', /no Argo CD install found|assuming the newest/],
  [
    'umbrella-alias',
    'appsets/shop.yaml',
    'enabled',
    'charts/argocd',
    /Argo CD 2\.13 \(detected: argo-cd Helm chart 7\.7\.3 \(Chart\.yaml dependency\)/,
  ],
  ['umbrella-top-level', 'appsets/shop.yaml', 'not-found', 'platform/argocd', /Argo CD 3\.0 \(detected: argo-cd Helm chart 8\.1\.2/],
  [
    'helm-application',
    'teams/shop/appset.yaml',
    'enabled',
    'Application argocd (argocd/argocd.yaml)',
    /Argo CD 3\.0 \(detected: .*Application argocd/,
  ],
  [
    'openshift-gitops',
    'applications/shop.yaml',
    'enabled',
    'cluster/gitops',
    /Argo CD 2\.13(\.1)? \(detected: Argo CD Operator ArgoCD openshift-gitops/,
  ],
  [
    'flux-helmrelease',
    'apps/shop.yaml',
    'enabled',
    'infrastructure/argocd',
    /Argo CD 3\.2 \(detected: argo-cd Helm chart 9\.1\.6 \(HelmRelease\)/,
  ],
  ['kustomize-overlay', 'appsets/shop.yaml', 'enabled', 'argocd/overlays/prod', /Argo CD 2\.14(\.11)? \(detected: kustomize remote base/],
  [
    'unrelated-chart',
    'appsets/shop.yaml',
    'not-found',
    'argocd',
    /Argo CD 3\.1(\.8)? \(detected: install manifest of argoproj\/argo-cd v3\.1\.8/,
  ],
  ['env-values-files', 'apps/shop.yaml', 'enabled', 'platform/argocd', /Argo CD 3\.0 \(detected: argo-cd Helm chart 8\.0\.17/],
  [
    'multi-source-values',
    'appsets/shop.yaml',
    'enabled',
    'Application argocd (argocd/application.yaml)',
    /Argo CD 2\.14 \(detected: argo-cd Helm chart 7\.8\.2/,
  ],
  [
    'flux-values-from',
    'apps/shop.yaml',
    // The Secret listed after the enabling ConfigMap is in the cluster, not here: Flux merges valuesFrom in
    // order, so it may turn them off again, and the verdict is unknown (install/completeness.ts).
    'not-found',
    'infrastructure/argocd',
    /Argo CD 2\.14 \(detected: argo-cd Helm chart 7\.8\.2 \(HelmRelease\)/,
  ],
];

for (const [layout, file, state, install, version] of LAYOUTS) {
  test(`layout ${layout}: ${state} by ${install}, and the version of that same install`, () => {
    const root = path.join(INSTALLS, layout);
    const service = serviceOver(root);
    const abs = posix(path.join(root, file));
    const a = service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
    const plan = service.rolloutPlan(a, 0)!;
    assert.equal(plan.enablement.state, state, JSON.stringify(plan.enablement, null, 1));
    assert.equal(plan.enablement.instance?.name, install);
    const note = service.applications(a)!.notes.find((n) => n.startsWith('checked against'))!;
    assert.match(note, version);
    // The status bar's data names the same install, with the model's lines.
    const info = service.fileInfo(a).appsets[0].enablement;
    assert.ok(
      info.install?.some((l) => l.startsWith(`Argo CD ${install}`)),
      JSON.stringify(info),
    );
  });
}

test('an umbrella chart: configs.params at the top of its values is reported as not read, with where it belongs', () => {
  const root = path.join(INSTALLS, 'umbrella-top-level');
  const service = serviceOver(root);
  const abs = posix(path.join(root, 'appsets/shop.yaml'));
  const a = service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
  const d = service.diagnostics(a).find((x) => x.code === 'rollout/progressive-syncs-not-found')!;
  assert.match(
    d.message,
    /the argo-cd chart reads its values under "argo-cd:" \(the dependency in Chart\.yaml\), not at the top of values\.yaml/,
  );
});

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: services
  namespace: argocd
spec:
  generators:
  - clusters: {}
  template:
    metadata:
      name: '{{name}}'
      labels:
        tier: '{{metadata.labels.tier}}'
    spec:
      destination:
        server: '{{server}}'
${rollingSyncBy('tier', [{ values: ['canary'] }], { block: true, compact: true })}`;

/** What the rollout plan of APPSET, at `at` in the workspace `files`, says of progressive syncs (through the engine's door). */
const enablementAt = (files: Map<string, string>, at = '/ws/appset.yaml') => {
  const service = getLanguageService({ host: memHost(files) });
  return service.rolloutPlan(service.analyze(at, APPSET, at))!.enablement;
};
const enabledAfter = (files: Map<string, string>) => enablementAt(files).state;

/** The findings and quick fixes of `text` at /ws/appset.yaml (with the story's cluster Secrets): the progressive-syncs finding and its enabling fix. */
function enablingFix(text: string, files: Map<string, string>, code = 'rollout/progressive-syncs-') {
  const { service, analysis } = storyService(text, files);
  const d = service.diagnostics(analysis).find((x) => x.code.startsWith(code))!;
  return { d, fix: service.codeActions(analysis, d.span, [d]).find((x) => /^(Enable progressive syncs|Deploy \S+):/.test(x.title)) };
}

for (const [name, alias, values] of [
  ['by name', undefined, 'argo-cd:\n  server:\n    replicas: 2\n'],
  ['by alias', 'argo', 'argo:\n  server:\n    replicas: 2\n'],
  ['by alias, no values yet', 'argo', 'other: {}\n'],
  [
    'with configs.params written at the top (not read)',
    undefined,
    'configs:\n  params:\n    applicationsetcontroller.enable.progressive.syncs: true\n',
  ],
] as const) {
  test(`the enabling fix writes under the umbrella chart's argo-cd dependency (${name}), and the model then says enabled`, () => {
    const files = new Map<string, string>([
      [
        '/ws/charts/argocd/Chart.yaml',
        `apiVersion: v2\nname: argocd\nversion: 1.0.0\ndependencies:\n  - name: argo-cd\n${alias ? `    alias: ${alias}\n` : ''}    version: 7.7.3\n`,
      ],
      ['/ws/charts/argocd/values.yaml', values],
    ]);
    assert.notEqual(enabledAfter(files), 'enabled');
    const { fix } = enablingFix(APPSET, files);
    assert.ok(fix, 'an enabling fix');
    assert.match(fix.title, /in charts\/argocd\/values\.yaml/);
    const edits = fix.edits!;
    assert.ok(
      edits.every((e) => e.file === '/ws/charts/argocd/values.yaml'),
      JSON.stringify(edits),
    );
    const text = applyEdits(values, edits);
    assert.match(
      text,
      new RegExp(
        `^${alias ?? 'argo-cd'}:\\n(.*\\n)*  configs:\\n    params:\\n      applicationsetcontroller\\.enable\\.progressive\\.syncs: "true"`,
        'm',
      ),
    );
    files.set('/ws/charts/argocd/values.yaml', text);
    assert.equal(enabledAfter(files), 'enabled');
  });
}

test('appset instances lists each install with its version, settings, evidence and the ApplicationSets it runs', () => {
  const cli = bundledCli('appset-installs-');
  const root = path.join(INSTALLS, 'umbrella-alias');
  const r = cli.run(['instances', '.', '--workspace', '.'], root);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Argo CD charts\/argocd \(namespace argocd\)$/m);
  assert.match(r.out, /version: Argo CD 2\.13 — argo-cd Helm chart 7\.7\.3 \(Chart\.yaml dependency\) \(charts\/argocd\/Chart\.yaml:7\)/);
  assert.match(r.out, /progressive syncs: enabled \(charts\/argocd\/values\.yaml:6\)/);
  assert.match(r.out, /applicationsetcontroller\.enable\.new\.git\.file\.globbing: true \(charts\/argocd\/values\.yaml:7\)/);
  assert.match(
    r.out,
    /appsets\/shop\.yaml — the repository's only Argo CD install, charts\/argocd\/, runs ApplicationSets for namespace argocd/,
  );
  const json = JSON.parse(cli.run(['instances', '--output', 'json', '--workspace', '.'], root).out);
  assert.equal(json.installs[0].version.line, '2.13');
  assert.deepEqual(
    json.installs[0].governs.map((g: { file: string }) => g.file),
    ['appsets/shop.yaml'],
  );
});

test('written but not deployed: a params ConfigMap its kustomization does not list is not "enabled"; the fix adds it there', () => {
  const cm =
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n';
  const kustomization = 'namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.1.8\n';
  const files = new Map<string, string>([
    ['/ws/argocd/kustomization.yaml', kustomization],
    ['/ws/argocd/argocd-cmd-params-cm.yaml', cm],
  ]);
  const en = enablementAt(files);
  assert.equal(en.state, 'not-found');
  assert.match(
    en.evidence.map((e) => e.description).join('\n'),
    /argocd\/argocd-cmd-params-cm\.yaml is not part of argocd\/kustomization\.yaml: nothing deploys it .*restart it after the change/,
  );
  const { d, fix: found } = enablingFix(APPSET, files);
  assert.match(d.message, /is not part of argocd\/kustomization\.yaml/);
  const fix = found!;
  assert.equal(
    fix.title,
    'Deploy argocd-cmd-params-cm.yaml: list it in argocd/kustomization.yaml (then restart the ApplicationSet controller)',
  );
  files.set('/ws/argocd/kustomization.yaml', applyEdits(kustomization, fix.edits!));
  assert.match(files.get('/ws/argocd/kustomization.yaml')!, /\n {2}- argocd-cmd-params-cm\.yaml\n/);
  assert.equal(enabledAfter(files), 'enabled');
});

test('the git files generator uses the globbing of the install that runs it, and the preview says which', (t) => {
  const gitAppset = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: g, namespace: argocd}
spec:
  generators:
    - git:
        repoURL: https://example.com/r.git
        revision: HEAD
        files: [{path: "apps/*/config.json"}]
  template:
    metadata: {name: '{{path.basenameNormalized}}'}
    spec:
      project: default
      destination: {server: https://kubernetes.default.svc, namespace: x}
`;
  const repo = { 'repo/apps/a/config.json': '{}', 'repo/apps/a/b/config.json': '{}' };
  const settings = { repoMappings: { 'https://example.com/r.git': 'repo' } };
  // No install sets it: the controller's default, where `*` also crosses `/` (2 files).
  const old = workspaceFor(t, repo, settings).expand(gitAppset);
  assert.equal(old.apps.length, 2);
  assert.ok(
    old.notes.some((n) => /^git files generator: old globbing .*controller's default/.test(n)),
    old.notes.join('|'),
  );
  // The install's argocd-cmd-params-cm turns the new globbing on: `*` stays in one folder (1 file).
  const cm =
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd\ndata:\n  applicationsetcontroller.enable.new.git.file.globbing: "true"\n';
  const on = workspaceFor(t, { ...repo, 'argocd/argocd-cmd-params-cm.yaml': cm }, settings).expand(gitAppset);
  assert.equal(on.apps.length, 1);
  assert.ok(
    on.notes.some((n) => /^git files generator: new globbing .* set by argocd\/argocd-cmd-params-cm\.yaml:7$/.test(n)),
    on.notes.join('|'),
  );
});

test('kustomize configMapGenerator envs files are read like literals', () => {
  const files = new Map<string, string>([
    [
      '/ws/argocd/kustomization.yaml',
      'namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.1.8\nconfigMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n    envs:\n      - params.env\n',
    ],
    ['/ws/argocd/params.env', '# controller flags\nserver.insecure=true\napplicationsetcontroller.enable.progressive.syncs=true\n'],
  ]);
  const en = enablementAt(files, '/ws/apps/a.yaml');
  assert.equal(en.state, 'enabled');
  assert.match(en.decidedBy!.description, /configMapGenerator argocd-cmd-params-cm \(envs params\.env, line 3\)/);
  files.set('/ws/argocd/params.env', 'applicationsetcontroller.enable.progressive.syncs=false\n');
  assert.equal(enablementAt(files, '/ws/apps/a.yaml').state, 'disabled');
});

const evidenceOf = (layout: string, file: string) => {
  const root = path.join(INSTALLS, layout);
  const service = serviceOver(root);
  const abs = posix(path.join(root, file));
  const a = service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
  return service
    .rolloutPlan(a, 0)!
    .enablement.evidence.map((e) => `${e.effect}: ${e.where}: ${e.description}`)
    .join('\n');
};

test('the values files the installing Application selects are read in Helm order; the others are said as not read', () => {
  const umbrella = evidenceOf('env-values-files', 'apps/shop.yaml');
  assert.match(umbrella, /^enables: platform\/argocd\/values-prod\.yaml:4: Helm values argo: configs\.params/m);
  assert.match(
    umbrella,
    /^ignored: platform\/argocd\/values-dev\.yaml:4: .*no Application installing argocd selects values-dev\.yaml \(Application argocd \(clusters\/prod\/argocd\.yaml\) selects values\.yaml, values-prod\.yaml\)/m,
  );
  const multi = evidenceOf('multi-source-values', 'appsets/shop.yaml');
  assert.match(multi, /^enables: argocd\/values\/prod\.yaml:3:/m);
  assert.match(multi, /^ignored: argocd\/values\/common\.yaml:3: .*but Helm reads argocd\/values\/prod\.yaml after it/m);
  assert.match(
    multi,
    /^ignored: argocd\/application\.yaml:16: .*\$values\/argocd\/values\/secrets\.yaml: not read \(not in the repository\)/m,
  );
  assert.match(
    multi,
    /^ignored: argocd\/values\/staging\.yaml:3: .*selects argocd\/values\/common\.yaml from this folder, not staging\.yaml/m,
  );
  const flux = evidenceOf('flux-values-from', 'apps/shop.yaml');
  assert.match(flux, /^enables: infrastructure\/argocd\/argocd-values\.yaml:3: /m);
  assert.match(
    flux,
    /^ignored: infrastructure\/argocd\/release\.yaml:\d+: HelmRelease argocd valuesFrom Secret argocd-secret-values: not read/m,
  );
});

const CHART = 'apiVersion: v2\nname: argocd\nversion: 1.0.0\ndependencies:\n  - name: argo-cd\n    alias: argo\n    version: 7.7.3\n';
const installApp = (valueFiles: string[], extra = '') =>
  `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: argocd, namespace: argocd}\nspec:\n  source:\n    repoURL: https://example.com/r.git\n    path: charts/argocd\n    helm:\n      valueFiles: [${valueFiles.join(', ')}]\n${extra}  destination: {namespace: argocd, server: https://kubernetes.default.svc}\n`;
const PARAM = (v: string) => `argo:\n  configs:\n    params:\n      applicationsetcontroller.enable.progressive.syncs: ${v}\n`;

test('Helm order: a later values file, valuesObject or parameter overrides an earlier one', () => {
  const files = (app: string, base: string, prod: string) =>
    new Map<string, string>([
      ['/ws/charts/argocd/Chart.yaml', CHART],
      ['/ws/charts/argocd/values.yaml', base],
      ['/ws/charts/argocd/values-prod.yaml', prod],
      ['/ws/clusters/prod/argocd.yaml', app],
    ]);
  assert.equal(enabledAfter(files(installApp(['values-prod.yaml']), PARAM('true'), PARAM('false'))), 'disabled');
  assert.equal(enabledAfter(files(installApp(['values-prod.yaml']), PARAM('false'), PARAM('true'))), 'enabled');
  assert.equal(enabledAfter(files(installApp(['values-prod.yaml']), PARAM('true'), 'argo: {}\n')), 'enabled');
  // Not selected: values-prod.yaml is read by no install.
  assert.equal(enabledAfter(files(installApp([]), 'argo: {}\n', PARAM('true'))), 'not-found');
  // valuesObject after the values files, parameters (--set) last; under the dependency's alias.
  const vo =
    '      valuesObject:\n        argo:\n          configs:\n            params:\n              applicationsetcontroller.enable.progressive.syncs: true\n';
  assert.equal(enabledAfter(files(installApp(['values-prod.yaml'], vo.replace(/^/gm, '')), 'argo: {}\n', PARAM('false'))), 'enabled');
  const par =
    "      parameters:\n        - {name: argo.configs.params.applicationsetcontroller\\.enable\\.progressive\\.syncs, value: 'false'}\n";
  assert.equal(enabledAfter(files(installApp(['values-prod.yaml'], vo + par), 'argo: {}\n', PARAM('true'))), 'disabled');
});

test('the enabling fix writes in the values file the installing Application reads last, and the model then says enabled', () => {
  const files = new Map<string, string>([
    ['/ws/charts/argocd/Chart.yaml', CHART],
    ['/ws/charts/argocd/values.yaml', 'argo:\n  server:\n    replicas: 1\n'],
    ['/ws/charts/argocd/values-prod.yaml', 'argo:\n  server:\n    replicas: 2\n'],
    ['/ws/clusters/prod/argocd.yaml', installApp(['values.yaml', 'values-prod.yaml'])],
  ]);
  assert.equal(enabledAfter(files), 'not-found');
  const fix = enablingFix(APPSET, files).fix!;
  assert.match(fix.title, /in charts\/argocd\/values-prod\.yaml/);
  files.set('/ws/charts/argocd/values-prod.yaml', applyEdits(files.get('/ws/charts/argocd/values-prod.yaml')!, fix.edits!));
  assert.match(files.get('/ws/charts/argocd/values-prod.yaml')!, /^argo:\n(.*\n)*  configs:\n    params:\n/m);
  assert.equal(enabledAfter(files), 'enabled');
});

test('a remote base of another repository is said as not read, and the verdict is unknown rather than "off" (every front)', () => {
  const root = path.join(INSTALLS, 'remote-base');
  const service = serviceOver(root);
  const abs = posix(path.join(root, 'appsets/shop.yaml'));
  const a = service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
  const en = service.rolloutPlan(a, 0)!.enablement;
  assert.equal(en.state, 'not-found');
  assert.deepEqual(en.unread, ['argocd/kustomization.yaml:5: not read: remote base github.com/acme/platform-base//argocd?ref=v1.4.0']);
  const d = service.diagnostics(a).find((x) => x.code === 'rollout/progressive-syncs-not-found')!;
  assert.match(
    d.message,
    /^Unknown whether honoured: argocd\/kustomization\.yaml:5: not read: remote base github\.com\/acme\/platform-base/,
  );
  assert.match(service.fileInfo(a).appsets[0].enablement.text, /^Unknown whether honoured/);
  const cli = bundledCli('appset-remote-base-');
  const r = cli.run(['instances', '.', '--workspace', '.'], root);
  assert.match(
    r.out,
    /progressive syncs: unknown \(argocd\/kustomization\.yaml:5: not read: remote base github\.com\/acme\/platform-base\/\/argocd\?ref=v1\.4\.0\)/,
  );
  // Argo CD's own manifests as the remote base are known: they leave the default (off), no "unknown".
  const overlay = path.join(INSTALLS, 'kustomize-overlay');
  const o = serviceOver(overlay);
  const oabs = posix(path.join(overlay, 'appsets/shop.yaml'));
  assert.equal(o.rolloutPlan(o.analyze(oabs, fs.readFileSync(oabs, 'utf8'), oabs), 0)!.enablement.unread, undefined);
});

test('kustomize configMapGenerator files: each file is one key, its content verbatim (a trailing newline is not "true")', () => {
  const kustomization = (entry: string) =>
    `namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.1.8\nconfigMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n    files:\n      - ${entry}\n`;
  const run = (entry: string, content: string) =>
    enablementAt(
      new Map([
        ['/ws/argocd/kustomization.yaml', kustomization(entry)],
        ['/ws/argocd/params/progressive', content],
      ]),
      '/ws/apps/a.yaml',
    );
  const on = run('applicationsetcontroller.enable.progressive.syncs=params/progressive', 'true');
  assert.equal(on.state, 'enabled');
  assert.match(on.decidedBy!.description, /configMapGenerator argocd-cmd-params-cm \(files applicationsetcontroller/);
  const nl = run('applicationsetcontroller.enable.progressive.syncs=params/progressive', 'true\n');
  assert.equal(nl.state, 'not-found');
  assert.match(nl.evidence.map((e) => e.description).join('\n'), /"true\\n": only true\/false are recognised/);
  // Without `key=`, the key is the file's name.
  assert.equal(run('params/progressive', 'true').state, 'not-found');
});

test('the "create argocd-cmd-params-cm.yaml" fix in a plain folder lands "written but not deployed" (model and CLI), and a kustomization then deploys it', () => {
  const appset = APPSET;
  const files = new Map<string, string>([['/ws/appset.yaml', appset]]);
  const fix = enablingFix(appset, files, 'rollout/progressive-syncs-not-found').fix!;
  assert.equal(fix.title, 'Enable progressive syncs: create argocd-cmd-params-cm.yaml (then restart the ApplicationSet controller)');
  assert.equal(fix.edits?.length ?? 0, 0, 'no kustomization to extend');
  const created = fix.createFiles![0];
  files.set(created.file, created.text);
  const en = enablementAt(files);
  assert.equal(en.state, 'not-found');
  assert.match(
    en.undeployed!,
    /^argocd-cmd-params-cm\.yaml is written but not deployed: no kustomization lists it and no Application or Flux Kustomization deploys \.\/ /,
  );
  // The same through the CLI on the edited tree.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'appset-undeployed-'));
  try {
    fs.writeFileSync(path.join(dir, 'appset.yaml'), appset);
    fs.writeFileSync(path.join(dir, 'argocd-cmd-params-cm.yaml'), created.text);
    const cli = bundledCli('appset-undeployed-cli-');
    const r = cli.run(['plan', 'appset.yaml', '--workspace', '.'], dir);
    assert.match(r.out, /!! Not deployed yet: argocd-cmd-params-cm\.yaml is written but not deployed/);
    // An Application deploying the folder makes it part of the install.
    fs.mkdirSync(path.join(dir, 'bootstrap'));
    fs.writeFileSync(
      path.join(dir, 'bootstrap', 'apps.yaml'),
      'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: apps, namespace: argocd}\nspec:\n  source: {repoURL: https://example.com/r.git, path: .}\n  destination: {namespace: argocd, server: https://kubernetes.default.svc}\n',
    );
    assert.match(cli.run(['plan', 'appset.yaml', '--workspace', '.'], dir).out, /progressive syncs: enabled/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an install at the workspace root is named as such, never "Argo CD ." (issue 29)', () => {
  const root = path.resolve(__dirname, '..', '..', 'examples', 'team-rollout');
  const service = serviceOver(root);
  const abs = posix(path.join(root, 'applicationset.yaml'));
  const a = service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs);
  const lines = service.fileInfo(a).appsets[0].enablement.install ?? [];
  assert.ok(lines[0]?.startsWith('Argo CD in the workspace root (namespace argocd)'), JSON.stringify(lines));
  assert.ok(!JSON.stringify(lines).includes('Argo CD .'));
  const plan = service.rolloutPlan(a, 0)!;
  assert.equal(plan.enablement.instance?.name, '.', 'the model keeps the relative folder; only the words change');
});

/** Every verdict front of APPSET in `files`: the warning, the lens over `strategy:`, the plan's verdict and the status bar's. */
function fronts(files: Map<string, string>) {
  const { service, analysis } = storyService(APPSET, files);
  const d = service.diagnostics(analysis).find((x) => x.code.startsWith('rollout/progressive-syncs-'));
  const plan = service.rolloutPlan(analysis)!;
  const lens = service.codeLenses(analysis).find((l) => /^(Enabled|Ignored|Not deployed|Unknown)/.test(l.title ?? ''))?.title;
  const info = service.fileInfo(analysis).appsets[0].enablement;
  const actions = d ? service.codeActions(analysis, d.span, [d]) : [];
  return { d, plan, lens, info, actions };
}

test('the fix sequence from an empty folder: create the ConfigMap ("Not deployed yet"), then deploy it ("Enabled"); every front says the same at each step, and no fix writes a key twice (issue 37)', () => {
  const files = new Map<string, string>([['/ws/appset.yaml', APPSET]]);
  // 1. Nothing configures Argo CD: "Ignored", and the fix creates the ConfigMap beside the ApplicationSet.
  let f = fronts(files);
  assert.equal(f.plan.verdict.kind, 'ignored');
  assert.equal(f.lens, f.plan.verdict.lens);
  assert.ok(f.d!.message.startsWith(`${f.plan.verdict.sentence};`), f.d!.message);
  assert.ok(f.info.text.startsWith(f.plan.verdict.sentence));
  assert.equal(f.info.label, 'off');
  const create = f.actions[0];
  assert.equal(create.title, 'Enable progressive syncs: create argocd-cmd-params-cm.yaml (then restart the ApplicationSet controller)');
  for (const c of create.createFiles!) files.set(c.file, c.text);

  // 2. Written, not deployed: one sentence everywhere, said once; the fix deploys it, never writes the key again.
  f = fronts(files);
  assert.equal(f.plan.verdict.kind, 'not-deployed');
  assert.equal(f.lens, 'Not deployed yet · 13 apps at once');
  assert.equal(f.info.label, 'not deployed yet');
  assert.equal(f.info.text, f.plan.verdict.sentence);
  assert.ok(f.d!.message.startsWith(`${f.plan.verdict.sentence};`), f.d!.message);
  assert.equal(f.d!.message.split('is written but not deployed').length, 2, `said once: ${f.d!.message}`);
  // VS Code shows the warning and the strategy's hover together: the sentence is not said again there.
  const { service, analysis } = storyService(APPSET, files);
  const hover = service.hover(analysis, APPSET.indexOf('strategy:') + 2)!.markdown;
  assert.doesNotMatch(hover, /written but not deployed|Ignored|not enabled/, hover);
  assert.match(hover, /Progressive syncs: not deployed yet/);
  assert.doesNotMatch(f.d!.message, /Nothing in|not enabled|Ignored/);
  assert.doesNotMatch(f.plan.verdict.sentence, /Ignored/);
  const deploy = f.actions[0];
  assert.equal(
    deploy.title,
    'Deploy argocd-cmd-params-cm.yaml: create kustomization.yaml listing it (apply it with kubectl apply -k, then restart the ApplicationSet controller)',
  );
  assert.equal(deploy.edits?.length ?? 0, 0, 'argocd-cmd-params-cm.yaml is not edited');
  assert.deepEqual(
    deploy.createFiles!.map((c) => [c.file, c.text.replace(/^#.*\n/, '')]),
    [['/ws/kustomization.yaml', 'resources:\n  - argocd-cmd-params-cm.yaml\n']],
  );
  for (const c of deploy.createFiles!) files.set(c.file, c.text);

  // 3. Deployed: enabled, by the ConfigMap, everywhere; no enabling fix is left.
  f = fronts(files);
  assert.equal(f.plan.verdict.kind, 'enabled');
  assert.equal(f.lens, 'Enabled by argocd-cmd-params-cm.yaml:13');
  assert.equal(f.info.label, 'enabled');
  assert.equal(f.info.text, 'Progressive syncs enabled by argocd-cmd-params-cm.yaml:13');
  assert.equal(f.d, undefined);
});

test('after "Not deployed yet" in a folder with a kustomization, the fix lists the file there; a ConfigMap that writes the key twice is named in the warning (issue 37)', () => {
  const cm = (extra = '') =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n${extra}`;
  const files = new Map<string, string>([
    ['/ws/argocd-cmd-params-cm.yaml', cm()],
    ['/ws/kustomization.yaml', 'resources:\n  - other.yaml\n'],
    ['/ws/other.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n'],
  ]);
  let f = fronts(files);
  assert.equal(f.plan.verdict.kind, 'not-deployed');
  assert.equal(
    f.actions[0].title,
    'Deploy argocd-cmd-params-cm.yaml: list it in kustomization.yaml (then restart the ApplicationSet controller)',
  );
  files.set('/ws/kustomization.yaml', applyEdits(files.get('/ws/kustomization.yaml')!, f.actions[0].edits!));
  assert.equal(files.get('/ws/kustomization.yaml'), 'resources:\n  - other.yaml\n  - argocd-cmd-params-cm.yaml\n');
  assert.equal(fronts(files).plan.verdict.kind, 'enabled');

  // The same key twice: kubectl, kustomize and Argo CD refuse the file. Off, and the warning says why.
  files.set('/ws/argocd-cmd-params-cm.yaml', cm('  applicationsetcontroller.enable.progressive.syncs: "true"\n'));
  f = fronts(files);
  assert.equal(f.plan.verdict.kind, 'ignored');
  assert.match(
    f.d!.message,
    /Note: argocd-cmd-params-cm\.yaml:8 writes the key applicationsetcontroller\.enable\.progressive\.syncs twice: kubectl, kustomize and Argo CD refuse such a file, so nothing in it configures the ApplicationSet controller\./,
  );
  // Its own file carries the error where the second key is, also as the editor shows a file with no
  // ApplicationSet (whose other YAML findings are left to the editor's YAML tools).
  const service = getLanguageService({ host: memHost(files) });
  const text = files.get('/ws/argocd-cmd-params-cm.yaml')!;
  const own = service.diagnosticsToShow(service.analyze('/ws/argocd-cmd-params-cm.yaml', text, '/ws/argocd-cmd-params-cm.yaml'));
  assert.deepEqual(
    own.map((d) => [d.code, text.slice(d.span.start).split(':')[0]]),
    [['yaml/syntax', 'applicationsetcontroller.enable.progressive.syncs']],
  );
  // No enabling fix that would write the key a third time.
  assert.ok(
    !f.actions.some((a) => a.edits?.some((e) => e.newText.includes('progressive.syncs'))),
    JSON.stringify(f.actions.map((a) => a.title)),
  );
});

test('an install at the workspace root is "Argo CD in the workspace root" in errors, hovers and the preview, never "Argo CD ." (issue 37)', () => {
  const appset = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: services, namespace: argocd}
spec:
  generators:
  - scmProvider:
      github: {organization: shop}
  - list:
      elements: [{name: a, tier: canary}]
  template:
    metadata:
      name: '{{name}}'
      labels: {tier: '{{tier}}'}
    spec:
      project: default
      source: {repoURL: https://example.com/r.git, path: '.', targetRevision: HEAD}
      destination: {server: https://kubernetes.default.svc, namespace: shop}
${rollingSyncBy('tier', [{ values: ['canary'] }], { block: true, compact: true })}`;
  const cm = (extra: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n${extra}`;
  const everything = (files: Map<string, string>) => {
    const service = getLanguageService({ host: memHost(files) });
    const a = service.analyze('/ws/appset.yaml', appset, '/ws/appset.yaml');
    const out = service.diagnostics(a).map((d) => d.message);
    for (let off = 0; off < appset.length; off += 5) out.push(service.hover(a, off)?.markdown ?? '');
    out.push(service.previewText(a, 0)!.text, JSON.stringify(service.fileInfo(a)), service.planText(a, 0)!.text);
    return out.join('\n');
  };
  // Settings that stop the controller and turn SCM providers off, at the root.
  const broken = everything(
    new Map([
      [
        '/ws/argocd-cmd-params-cm.yaml',
        cm('  applicationsetcontroller.policy: "bogus"\n  applicationsetcontroller.enable.scm.providers: "false"\n'),
      ],
      ['/ws/kustomization.yaml', 'namespace: argocd\nresources:\n  - argocd-cmd-params-cm.yaml\n'],
    ]),
  );
  assert.doesNotMatch(broken, /Argo CD \.|\. runs it/);
  assert.match(
    broken,
    /The ApplicationSet controller of Argo CD in the workspace root does not start: applicationsetcontroller\.policy is "bogus"/,
  );
  assert.match(broken, /fails: Argo CD in the workspace root runs its ApplicationSet controller with SCM providers disabled/);
  // No version written anywhere: the preview's "checked against" names the root install in words.
  const noVersion = everything(
    new Map([
      ['/ws/argocd-cmd-params-cm.yaml', cm('')],
      ['/ws/kustomization.yaml', 'namespace: argocd\nresources:\n  - argocd-cmd-params-cm.yaml\n'],
    ]),
  );
  assert.doesNotMatch(noVersion, /Argo CD \.|\. runs it/);
  assert.match(noVersion, /\(Argo CD in the workspace root runs it, and nothing in the repository says which version it installs/);
});

test('deletionOrder: Reverse with progressive syncs off: the warning says whether the reverse deletion still runs (it does not depend on them; the finalizer it needs does)', () => {
  const reverse = APPSET.replace('    type: RollingSync\n', '    type: RollingSync\n    deletionOrder: Reverse\n');
  const finalized = reverse.replace(
    '  namespace: argocd\n',
    '  namespace: argocd\n  finalizers:\n    - resources-finalizer.argocd.argoproj.io\n',
  );
  const warning = (text: string) => {
    const { service, analysis } = storyService(text, new Map(), { progressiveSyncs: 'disabled' });
    return service.diagnostics(analysis).find((d) => d.code === 'rollout/progressive-syncs-disabled')!.message;
  };
  assert.match(
    warning(finalized),
    /deletionOrder: Reverse still applies, as the deletion does not depend on progressive syncs: the ApplicationSet carries the resources-finalizer\.argocd\.argoproj\.io finalizer, so deleting it deletes its Applications one at a time, last step first\./,
  );
  assert.match(
    warning(reverse),
    /deletionOrder: Reverse does not apply either: the controller adds the resources-finalizer\.argocd\.argoproj\.io finalizer the reverse deletion needs only while progressive syncs are on, so deleting the ApplicationSet deletes its Applications at once/,
  );
  assert.doesNotMatch(warning(APPSET), /deletionOrder/);
});
