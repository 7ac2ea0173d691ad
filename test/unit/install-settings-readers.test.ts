// The controller settings read as Argo CD v3.5.1 and kustomize read them (the readers' own tests, from the
// upstream test tables, are in test/unit/engine/install/settings-readers.test.ts): what each rule changes in
// what lint and the plan say, through the language service and on our own fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/cli';
import { bundledCli, posix, serviceOver } from '../helpers/realworld';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../helpers/memHost';
import { storyFindings } from './rollout-helpers';
import { rollingSyncBy } from '../helpers/appsets';

const INSTALLS = path.join(repoRoot, 'test', 'fixtures', 'installs');

// ---- what the rules change, through the language service ----

const cm = (data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;
const deployment = (args: string[]) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: argocd-applicationset-controller\n  namespace: argocd\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          args:\n${args.map((a) => `            - ${JSON.stringify(a)}`).join('\n')}\n`;
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
const PR = '  - pullRequest:\n      github: {owner: acme, repo: app}\n';
const codesWith = (text: string, files: Record<string, string>) =>
  storyFindings(text, new Map(Object.entries(files)))
    .filter((d) => d.code.startsWith('controller/'))
    .map((d) => d.code)
    .sort();
const kustomization = (gen: string) =>
  `namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.1.8\nconfigMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n${gen}`;

test('files: verbatim for every setting — "false\\n" keeps SCM providers on, "create-only\\n" stops the controller', () => {
  const files = (key: string, content: string) => ({
    '/ws/argocd/kustomization.yaml': kustomization(`    files:\n      - ${key}=params/value\n`),
    '/ws/argocd/params/value': content,
  });
  assert.deepEqual(codesWith(appset('argocd', '', PR), files('applicationsetcontroller.enable.scm.providers', 'false')), [
    'controller/scm-providers-disabled',
  ]);
  assert.deepEqual(codesWith(appset('argocd', '', PR), files('applicationsetcontroller.enable.scm.providers', 'false\n')), []);
  assert.deepEqual(codesWith(appset('argocd'), files('applicationsetcontroller.policy', 'create-only')), []);
  const d = storyFindings(appset('argocd'), new Map(Object.entries(files('applicationsetcontroller.policy', 'create-only\n')))).find(
    (x) => x.code === 'controller/does-not-start',
  );
  assert.ok(d, 'an unknown policy stops the controller');
  assert.match(d.message, /applicationsetcontroller\.policy is "create-only\\n"/);
});

test('envs: an envs line keeps its quotes (progressive syncs stay off); a literal loses them', () => {
  const at = '/ws/apps/a.yaml';
  const en = (files: Record<string, string>) => {
    const service = getLanguageService({ host: memHost(new Map(Object.entries(files))) });
    const text = appset('argocd', `${rollingSyncBy('tier', [{ values: ['canary'] }], { block: true, compact: true })}\n`);
    return service.rolloutPlan(service.analyze(at, text, at))!.enablement;
  };
  const quoted = en({
    '/ws/argocd/kustomization.yaml': kustomization('    envs:\n      - params.env\n'),
    '/ws/argocd/params.env': 'applicationsetcontroller.enable.progressive.syncs="true"\n',
  });
  assert.equal(quoted.state, 'not-found');
  assert.match(
    quoted.evidence.map((e) => e.description).join('\n'),
    /\(envs params\.env, line 1\) sets applicationsetcontroller\.enable\.progressive\.syncs: '"true"': only true\/false/,
  );
  const bare = en({
    '/ws/argocd/kustomization.yaml': kustomization('    envs:\n      - params.env\n'),
    '/ws/argocd/params.env': 'applicationsetcontroller.enable.progressive.syncs=true\n',
  });
  assert.equal(bare.state, 'enabled');
  const literal = en({
    '/ws/argocd/kustomization.yaml': kustomization('    literals:\n      - applicationsetcontroller.enable.progressive.syncs="true"\n'),
  });
  assert.equal(literal.state, 'enabled');
  // The older single `env:` field is read as one envs file.
  const single = en({
    '/ws/argocd/kustomization.yaml': kustomization('    env: params.env\n'),
    '/ws/argocd/params.env': 'applicationsetcontroller.enable.progressive.syncs=TRUE\n',
  });
  assert.equal(single.state, 'enabled');
});

test('the --policy flag: read as two items too, and it leaves the policy override on (its default comes from the ConfigMap policy)', () => {
  const own = '  syncPolicy:\n    applicationsSync: create-update\n';
  // The ConfigMap's policy turns the override off by default: the ApplicationSet's own is not applied.
  assert.deepEqual(codesWith(appset('argocd', own), { '/ws/argocd/cm.yaml': cm({ 'applicationsetcontroller.policy': 'sync' }) }), [
    'controller/policy-not-applied',
  ]);
  // The same policy as a flag, written `--policy=sync` or as two items: the override stays on.
  for (const args of [['--policy=sync'], ['--policy', 'sync']])
    assert.deepEqual(codesWith(appset('argocd', own), { '/ws/argocd/deploy.yaml': deployment(args) }), [], args.join(' '));
  // Without the ApplicationSet's own policy, the flag's policy is the controller's: read from two items.
  const rolling = appset('argocd', `${rollingSyncBy('tier', [{ values: ['canary'] }], { block: true, compact: true })}\n`);
  const d = storyFindings(rolling, new Map([['/ws/argocd/deploy.yaml', deployment(['--policy', 'create-only'])]])).find(
    (x) => x.code === 'rollout/sync-policy-blocks-rollout',
  );
  assert.ok(d, 'the two-item --policy create-only reaches the rollout check');
  // The override's own setting decides when given, with the ConfigMap-policy default when it is not a boolean.
  assert.deepEqual(
    codesWith(appset('argocd', own), {
      '/ws/argocd/cm.yaml': cm({ 'applicationsetcontroller.policy': 'sync', 'applicationsetcontroller.enable.policy.override': 'yes' }),
    }),
    ['controller/policy-not-applied'],
  );
  // Policies are case-sensitive: `--policy Sync` (two items) is read as `--policy=Sync` is, an unknown policy.
  for (const args of [['--policy=Sync'], ['--policy', 'Sync']])
    assert.deepEqual(
      codesWith(appset('argocd'), { '/ws/argocd/deploy.yaml': deployment(args) }),
      ['controller/does-not-start'],
      args.join(' '),
    );
  // A bool flag whose value is not a boolean: pflag fails, the controller does not start.
  assert.deepEqual(codesWith(appset('argocd'), { '/ws/argocd/deploy.yaml': deployment(['--enable-scm-providers=yes']) }), [
    'controller/does-not-start',
  ]);
});

test('applicationsetcontroller.namespaces listing only its own namespace, SCM providers on, no allow-list: the controller does not start', () => {
  const d = storyFindings(
    appset('argocd'),
    new Map([['/ws/argocd/cm.yaml', cm({ 'applicationsetcontroller.namespaces': 'argocd' })]]),
  ).find((x) => x.code === 'controller/does-not-start');
  assert.ok(d);
  assert.match(d.message, /adds its own namespace to the list and then refuses to start/);
  assert.deepEqual(
    codesWith(appset('argocd'), {
      '/ws/argocd/cm.yaml': cm({
        'applicationsetcontroller.namespaces': 'argocd',
        'applicationsetcontroller.allowed.scm.providers': 'https://git.example.com',
      }),
    }),
    [],
  );
  assert.deepEqual(codesWith(appset('argocd'), { '/ws/argocd/cm.yaml': cm({}) }), []);
});

// application.namespaces (an ApplicationSet outside Argo CD's namespace needs its Applications' namespace
// enabled, in argocd-cmd-params-cm or the Operator's spec.sourceNamespaces): rule fixtures,
// test/fixtures/rules/controller/application-namespace-*/.

// ---- our fixtures, every front ----

const analyzed = (layout: string, file: string) => {
  const root = path.join(INSTALLS, layout);
  const service = serviceOver(root);
  const abs = posix(path.join(root, file));
  return { service, a: service.analyze(abs, fs.readFileSync(abs, 'utf8'), abs), root };
};
const cli = bundledCli('appset-settings-readers-');

test('fixture kustomize-generator-values: the quoted envs line leaves progressive syncs off; "false\\n" leaves SCM providers on', () => {
  const { service, a, root } = analyzed('kustomize-generator-values', 'appsets/previews.yaml');
  const en = service.rolloutPlan(a, 0)!.enablement;
  assert.equal(en.state, 'not-found');
  const codes = service.diagnostics(a).map((d) => d.code);
  assert.ok(codes.includes('rollout/progressive-syncs-not-found'));
  assert.ok(!codes.includes('controller/scm-providers-disabled'));
  assert.match(service.fileInfo(a).appsets[0].enablement.text, /^Ignored/);
  const plan = cli.run(['plan', 'appsets/previews.yaml', '--workspace', '.'], root);
  assert.equal(plan.code, 1, plan.out + plan.err);
  assert.match(plan.out, /progressive syncs: not enabled/);
  const lint = cli.run(['lint', 'appsets/previews.yaml', '--workspace', '.'], root);
  assert.doesNotMatch(lint.out, /scm-providers-disabled/);
});

test('fixture outside-namespace: Applications in openshift-gitops show an Argo CD installed outside; lint and plan agree', () => {
  const { service, a, root } = analyzed('outside-namespace', 'gitops/shop.yaml');
  const codes = service.diagnostics(a).map((d) => d.code);
  assert.ok(!codes.includes('controller/namespace-not-watched'), codes.join(', '));
  // That Argo CD runs it, and nothing in the repository configures it: the answer of a repository with no install.
  const en = service.rolloutPlan(a, 0)!.enablement;
  assert.equal(en.state, 'not-found');
  assert.match(
    en.instance!.why,
    /the Argo CD in namespace openshift-gitops is installed outside this repository \(gitops\/shop-app\.yaml keeps Applications there\)/,
  );
  assert.match(service.fileInfo(a).appsets[0].enablement.text, /^Ignored: progressive syncs are off, so all 2 Applications sync at once/);
  const plan = cli.run(['plan', 'gitops/shop.yaml', '--workspace', '.'], root);
  assert.equal(plan.code, 1);
  assert.match(plan.out, /progressive syncs: not enabled .* installed outside this repository/);
  const lint = cli.run(['lint', 'gitops/shop.yaml', '--workspace', '.'], root);
  assert.doesNotMatch(lint.out, /namespace-not-watched/);
  assert.match(
    lint.out,
    /Nothing in this repository configures the Argo CD that runs it \(the Argo CD in namespace openshift-gitops is installed outside/,
  );
  // Without those Applications, lint says no install of the repository processes that namespace — and
  // that only one installed outside it could, as the plan's "all sync at once" then assumes.
  const files = new Map<string, string>([
    ['/ws/argocd/argocd-cmd-params-cm.yaml', fs.readFileSync(path.join(root, 'argocd/argocd-cmd-params-cm.yaml'), 'utf8')],
    ['/ws/argocd/kustomization.yaml', fs.readFileSync(path.join(root, 'argocd/kustomization.yaml'), 'utf8')],
  ]);
  const service2 = getLanguageService({ host: memHost(files) });
  const text = fs.readFileSync(path.join(root, 'gitops/shop.yaml'), 'utf8');
  const d = service2
    .diagnostics(service2.analyze('/ws/gitops/shop.yaml', text, '/ws/gitops/shop.yaml'))
    .find((x) => x.code === 'controller/namespace-not-watched');
  assert.ok(d);
  assert.match(
    d.message,
    /unless an Argo CD installed outside this repository runs in namespace openshift-gitops, this one generates no Applications/,
  );
});
