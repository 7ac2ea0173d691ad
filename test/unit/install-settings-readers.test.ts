// The controller settings read as Argo CD v3.5.1 and kustomize read them (install/argoEnv.ts,
// install/kustomizeKv.ts, install/controllerArgs.ts): the readers against the cases of the upstream test
// tables (Argo CD util/env/env_test.go, Go strconv's ParseBool, kustomize api/kv/kv_test.go,
// api/internal/generators/utils_test.go, api/krusty/configmaps_test.go), then what each rule changes in
// what lint and the plan say, through the language service and on our own fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/cli';
import { bundledCli, posix, serviceOver } from '../helpers/realworld';
import { envBool, envStrings, flagBool, flagStrings } from '../../server/src/engine/install/argoEnv';
import { envFilePairs, fileSource, literalPair } from '../../server/src/engine/install/kustomizeKv';
import { parseControllerArgs } from '../../server/src/engine/install/controllerArgs';
import { getLanguageService } from '../../server/src/engine';
import { memHost } from '../helpers/memHost';
import { storyFindings } from './rollout-helpers';
import { rollingSyncBy } from '../helpers/appsets';

const INSTALLS = path.join(repoRoot, 'test', 'fixtures', 'installs');

test('ParseBoolFromEnv (util/env/env_test.go Test_ParseBoolFromEnv): only true/false by strings.EqualFold, untrimmed; else the default', () => {
  // The upstream table: "true" → true, "false" → false, "somevalue" → the default, "" → the default.
  assert.equal(envBool('true'), true);
  assert.equal(envBool('false'), false);
  assert.equal(envBool('somevalue'), undefined);
  assert.equal(envBool(''), undefined);
  // EqualFold: any case, and the Unicode characters that fold to an ASCII letter (ſ folds to s).
  assert.equal(envBool('TRUE'), true);
  assert.equal(envBool('fAlSe'), false);
  assert.equal(envBool('fal\u017fe'), false);
  // Nothing trimmed: a file's newline, a space, an envs line's quotes.
  assert.equal(envBool('true\n'), undefined);
  assert.equal(envBool(' false'), undefined);
  assert.equal(envBool('"true"'), undefined);
  // Not strconv: 1 and t are not booleans for the env reader.
  assert.equal(envBool('1'), undefined);
});

test('StringsFromEnv (TestStringsFromEnv) and pflag string slices', () => {
  assert.deepEqual(envStrings('one,two,three'), ['one', 'two', 'three']);
  assert.deepEqual(envStrings('one, two   ,    three'), ['one', 'two', 'three']);
  assert.equal(envStrings(''), undefined);
  // A flag's value is one CSV record, parts as written.
  assert.deepEqual(flagStrings('a, b'), ['a', ' b']);
  assert.deepEqual(flagStrings('"a,b",c'), ['a,b', 'c']);
});

test("strconv.ParseBool (a bool flag's =value)", () => {
  for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(flagBool(t), true, t);
  for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.equal(flagBool(f), false, f);
  for (const x of ['', 'x', 'yes', 'tRuE', ' true']) assert.equal(flagBool(x), undefined, x);
});

test('kustomize envs lines (kv_test.go TestKeyValuesFromLines): quotes and trailing text kept', () => {
  assert.deepEqual(
    envFilePairs('\n\t\tk1=v1\n\t\tk2=v2\n\t\t').map(({ key, value }) => ({ key, value })),
    [
      { key: 'k1', value: 'v1' },
      { key: 'k2', value: 'v2' },
    ],
  );
  assert.deepEqual(
    envFilePairs('\n\t\tk1=v1\n\t\t#k2=v2\n').map((p) => p.key),
    ['k1'],
  );
  assert.deepEqual(
    envFilePairs('\nk1=\n').map(({ key, value }) => ({ key, value })),
    [{ key: 'k1', value: '' }],
  );
  assert.deepEqual(
    envFilePairs('\nk1\n').map(({ key, value }) => ({ key, value })),
    [{ key: 'k1', value: '' }],
  );
  // The value is everything after the first "=": quotes, "=" and trailing blanks are the value's.
  assert.deepEqual(
    envFilePairs('a="true"\nb=x=y\nc=on \r\n').map((p) => p.value),
    ['"true"', 'x=y', 'on '],
  );
  // A byte-order mark only on the first line; the line numbers count every line.
  assert.deepEqual(
    envFilePairs('\ufeffa=1\n\n# c\nb=2').map((p) => [p.key, p.line]),
    [
      ['a', 0],
      ['b', 3],
    ],
  );
});

test('kustomize literals (removeQuotes, krusty configmaps_test.go) and files sources (TestParseFileSource)', () => {
  assert.deepEqual(literalPair('ANOTHER_ENV_VARIABLE="bar"'), { key: 'ANOTHER_ENV_VARIABLE', value: 'bar' });
  assert.deepEqual(literalPair("TEST=this is a 'test'"), { key: 'TEST', value: "this is a 'test'" });
  assert.deepEqual(literalPair("TEST='"), { key: 'TEST', value: "'" });
  assert.deepEqual(literalPair('k="true\''), { key: 'k', value: '"true\'' });
  assert.equal(literalPair('=v'), undefined);
  assert.equal(literalPair('novalue'), undefined);
  assert.deepEqual(fileSource('./path/myfile'), { key: 'myfile', path: './path/myfile' });
  assert.deepEqual(fileSource('newName.ini=oldName'), { key: 'newName.ini', path: 'oldName' });
  assert.equal(fileSource('newName.ini==oldName'), undefined);
  assert.equal(fileSource('=myfile'), undefined);
});

test('arguments as pflag reads them: --x=v, --x v over two items, a bool flag alone, --', () => {
  const known = new Map([
    ['--policy', false],
    ['--enable-scm-providers', true],
  ]);
  const read = (items: string[]) => parseControllerArgs(items, known).map((p) => [p.flag, p.value, p.item]);
  assert.deepEqual(read(['--policy', 'create-only']), [['--policy', 'create-only', 1]]);
  assert.deepEqual(read(['--policy=create-only']), [['--policy', 'create-only', 0]]);
  // A bool flag never takes the next argument: `--enable-scm-providers false` leaves them on.
  assert.deepEqual(read(['--enable-scm-providers', 'false']), [['--enable-scm-providers', 'true', 0]]);
  // A value flag takes the next argument whatever it holds; a flag without one is pflag's error.
  assert.deepEqual(read(['--policy', '--enable-scm-providers']), [['--policy', '--enable-scm-providers', 1]]);
  assert.deepEqual(read(['--policy']), []);
  // After `--` nothing is a flag; an unknown flag's value is skipped, the next known flag still read.
  assert.deepEqual(read(['--loglevel', 'debug', '--policy', 'sync', '--', '--policy=create-only']), [['--policy', 'sync', 3]]);
});

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

test('application.namespaces: an ApplicationSet outside Argo CD’s namespace needs its Applications’ namespace enabled', () => {
  const base = { 'applicationsetcontroller.namespaces': 'team-*', 'applicationsetcontroller.enable.scm.providers': 'false' };
  assert.deepEqual(codesWith(appset('team-a'), { '/ws/argocd/cm.yaml': cm(base) }), ['controller/application-namespace-not-enabled']);
  assert.deepEqual(codesWith(appset('team-a'), { '/ws/argocd/cm.yaml': cm({ ...base, 'application.namespaces': 'team-a' }) }), []);
  assert.deepEqual(codesWith(appset('team-a'), { '/ws/argocd/cm.yaml': cm({ ...base, 'application.namespaces': '/^team-/' }) }), []);
});

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

test('fixture outside-namespace: Applications in openshift-gitops show an Argo CD installed outside; lint and plan agree it is unknown', () => {
  const { service, a, root } = analyzed('outside-namespace', 'gitops/shop.yaml');
  const codes = service.diagnostics(a).map((d) => d.code);
  assert.ok(!codes.includes('controller/namespace-not-watched'), codes.join(', '));
  const en = service.rolloutPlan(a, 0)!.enablement;
  assert.equal(en.state, 'not-found');
  assert.match(en.unread!.join('\n'), /the settings of the Argo CD in namespace openshift-gitops, installed outside this repository/);
  assert.match(service.fileInfo(a).appsets[0].enablement.text, /^Unknown whether honoured/);
  const plan = cli.run(['plan', 'gitops/shop.yaml', '--workspace', '.'], root);
  assert.equal(plan.code, 1);
  assert.match(plan.out, /progressive syncs: unknown/);
  assert.doesNotMatch(plan.out, /Ignored: progressive syncs are off/);
  const lint = cli.run(['lint', 'gitops/shop.yaml', '--workspace', '.'], root);
  assert.doesNotMatch(lint.out, /namespace-not-watched/);
  assert.match(lint.out, /Unknown whether honoured/);
});
