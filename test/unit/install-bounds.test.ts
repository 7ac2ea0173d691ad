// "A limit reached or a file not read makes an answer Unknown, with the reason: never a different
// answer." Each bound of the install model (install/scan.ts, install/completeness.ts) is hit here, and
// the verdict is either the one without the bound (when what was left out decides nothing) or "Unknown
// whether honoured" naming what was not read and why — through the CLI's plan and lint (exit codes
// too) on real folders, and through the language service for the list bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, tempFolder } from '../helpers/cli';
import { bundledCli } from '../helpers/realworld';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../helpers/memHost';
import { rollingSyncBy } from '../helpers/appsets';

const cli = bundledCli('appset-install-bounds-');
const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'installs', 'env-values-files');

/** A copy of the env-values-files fixture (an umbrella chart, installed by one Application selecting values.yaml and values-prod.yaml). */
function layout(prodEnables: boolean): string {
  const dir = tempFolder('appset-bounds-');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  const prod = path.join(dir, 'platform/argocd/values-prod.yaml');
  fs.writeFileSync(prod, fs.readFileSync(prod, 'utf8').replace(/syncs: \w+/, `syncs: ${prodEnables}`));
  return dir;
}
const progressive = (out: string) => /progressive syncs: [^\n]*/.exec(out)?.[0] ?? out;
const plan = (dir: string) => cli.run(['plan', 'apps/shop.yaml', '--workspace', '.'], dir);

test('199 values files no install selects, beside the chart: the verdict does not move ("disabled" stays, and "enabled" stays)', () => {
  for (const prodEnables of [false, true]) {
    const dir = layout(prodEnables);
    const before = plan(dir);
    for (let i = 0; i < 199; i++)
      fs.writeFileSync(
        path.join(dir, `platform/argocd/values-a${String(i).padStart(3, '0')}.yaml`),
        `argo:\n  configs:\n    params:\n      applicationsetcontroller.enable.progressive.syncs: ${!prodEnables}\n`,
      );
    const after = plan(dir);
    assert.match(progressive(before.out), prodEnables ? /^progressive syncs: enabled/ : /^progressive syncs: disabled/);
    assert.equal(progressive(after.out), progressive(before.out));
    assert.equal(after.code, before.code);
  }
});

test('280 Applications installing one chart, each setting progressive syncs: past the bound the verdict is unknown, with the bound named', () => {
  const dir = layout(true);
  for (let i = 0; i < 280; i++) {
    const n = String(i).padStart(3, '0');
    fs.mkdirSync(path.join(dir, `clusters/c${n}`), { recursive: true });
    fs.writeFileSync(
      path.join(dir, `clusters/c${n}/argocd.yaml`),
      `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: argocd-${n}\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: https://example.com/platform.git\n    targetRevision: main\n    path: platform/argocd\n    helm:\n      valuesObject:\n        argo:\n          configs:\n            params:\n              applicationsetcontroller.enable.progressive.syncs: true\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: argocd\n`,
    );
  }
  const r = plan(dir);
  assert.match(progressive(r.out), /^progressive syncs: unknown \(what was read says enabled/);
  assert.match(r.out, /the install model keeps at most 200 places that set progressive syncs per install/);
  assert.equal(r.code, 1);
  const lint = cli.run(['lint', 'apps/shop.yaml', '--workspace', '.'], dir);
  assert.match(lint.out, /rollout\/progressive-syncs-not-found Unknown whether honoured: .*keeps at most 200/);
  assert.equal(lint.code, 0, 'a warning: lint fails only on errors');
});

test('a values file the installing Application selects but the index skipped: unknown, "not read" with why — never "not in the repository"', () => {
  // Over the size limit.
  const big = layout(true);
  const prod = path.join(big, 'platform/argocd/values-prod.yaml');
  fs.writeFileSync(prod, fs.readFileSync(prod, 'utf8') + `# ${'x'.repeat(1100 * 1024)}\n`);
  const r = plan(big);
  assert.match(progressive(r.out), /^progressive syncs: unknown/);
  assert.match(r.out, /helm\.valueFiles values-prod\.yaml: not read \(it is 1\.1 MB, larger than the 1 MB limit\)/);
  assert.doesNotMatch(r.out, /not in the repository/);
  assert.equal(r.code, 1);
  // A FIFO (a read would block forever).
  const fifo = layout(true);
  const p = path.join(fifo, 'platform/argocd/values-prod.yaml');
  fs.rmSync(p);
  if (spawnSync('mkfifo', [p]).status !== 0) return; // no mkfifo on this system
  const f = plan(fifo);
  assert.match(progressive(f.out), /^progressive syncs: unknown/);
  assert.match(f.out, /values-prod\.yaml: not read \(it is not a regular file\)/);
  // What was read (values.yaml) decides nothing: no "Ignored" headline.
  assert.doesNotMatch(f.out, /!! Ignored/);
  // A binary file, and one that is not YAML: not read, unknown.
  for (const [content, why] of [
    [Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x00, 0x7a]), 'it is not a text file'],
    ['argo: [unclosed\n  configs: {\n', 'it does not parse as YAML'],
  ] as const) {
    const dir = layout(true);
    fs.writeFileSync(path.join(dir, 'platform/argocd/values-prod.yaml'), content);
    const r = plan(dir);
    assert.match(progressive(r.out), /^progressive syncs: unknown/, r.out);
    assert.match(r.out, new RegExp(`helm\\.valueFiles values-prod\\.yaml: not read \\(${why}\\)`));
  }
});

test('an envs file of the params generator the index skipped: unknown', () => {
  const dir = tempFolder('appset-bounds-envs-');
  fs.mkdirSync(path.join(dir, 'argocd'));
  fs.mkdirSync(path.join(dir, 'apps'));
  fs.writeFileSync(
    path.join(dir, 'argocd/kustomization.yaml'),
    'namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.1.8\nconfigMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n    envs:\n      - params.env\n',
  );
  fs.writeFileSync(
    path.join(dir, 'argocd/params.env'),
    `applicationsetcontroller.enable.progressive.syncs=true\n#${'x'.repeat(1100 * 1024)}\n`,
  );
  fs.copyFileSync(path.join(FIXTURE, 'apps/shop.yaml'), path.join(dir, 'apps/shop.yaml'));
  const r = plan(dir);
  assert.match(progressive(r.out), /^progressive syncs: unknown/);
  assert.match(r.out, /envs params\.env\): not read \(it is 1\.1 MB/);
});

// ---- list bounds, through the language service ----

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
const enablement = (files: Record<string, string>) => {
  const service = getLanguageService({ host: memHost(new Map(Object.entries(files))) });
  const at = '/ws/apps/a.yaml';
  return service.rolloutPlan(service.analyze(at, APPSET, at))!.enablement;
};
const kustomization = (extra: string) =>
  `namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.1.8\n${extra}`;

test('list bounds: a setting past each bound makes the verdict unknown, naming the bound; within it, the setting decides', () => {
  const pad = (n: number) => Array.from({ length: n }, (_, i) => `--metrics-addr=:${8000 + i}`);
  const deployment = (args: string[]) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: argocd-applicationset-controller\n  namespace: argocd\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          args:\n${args.map((a) => `            - "${a}"`).join('\n')}\n`;
  const within = enablement({ '/ws/argocd/deploy.yaml': deployment([...pad(10), '--enable-progressive-syncs']) });
  assert.equal(within.state, 'enabled');
  const past = enablement({ '/ws/argocd/deploy.yaml': deployment([...pad(500), '--enable-progressive-syncs']) });
  assert.equal(past.state, 'not-found');
  assert.match(past.unread!.join('\n'), /arguments past the first 500/);
  // Every front of the language service says the same: the finding, the lens, the status data.
  {
    const service = getLanguageService({
      host: memHost(new Map([['/ws/argocd/deploy.yaml', deployment([...pad(500), '--enable-progressive-syncs'])]])),
    });
    const a = service.analyze('/ws/apps/a.yaml', APPSET, '/ws/apps/a.yaml');
    const d = service.diagnostics(a).find((x) => x.code === 'rollout/progressive-syncs-not-found');
    assert.match(d!.message, /^Unknown whether honoured: .*arguments past the first 500/);
    assert.ok(
      service.codeLenses(a).some((l) => l.title === 'Unknown whether honoured · not all read'),
      JSON.stringify(service.codeLenses(a).map((l) => l.title)),
    );
    const info = service.fileInfo(a).appsets[0].enablement;
    assert.match(info.text, /^Unknown whether honoured/);
    assert.equal(info.label, 'unknown');
  }
  // envs lines.
  const lines = (n: number) =>
    `${Array.from({ length: n }, (_, i) => `other.key${i}=x`).join('\n')}\napplicationsetcontroller.enable.progressive.syncs=true\n`;
  const gen = 'configMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n    envs:\n      - params.env\n';
  assert.equal(enablement({ '/ws/argocd/kustomization.yaml': kustomization(gen), '/ws/argocd/params.env': lines(10) }).state, 'enabled');
  const envs = enablement({ '/ws/argocd/kustomization.yaml': kustomization(gen), '/ws/argocd/params.env': lines(600) });
  assert.equal(envs.state, 'not-found');
  assert.match(envs.unread!.join('\n'), /lines of params\.env past the first 500/);
  // kustomize patches of the install.
  const patches = (n: number) =>
    `patches:\n${Array.from({ length: n }, (_, i) => `  - target: {kind: Service, name: s${i}}\n    patch: '[{"op": "add", "path": "/metadata/labels/x", "value": "y"}]'`).join('\n')}\n  - path: controller-patch.yaml\n`;
  const patchFile =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: argocd-applicationset-controller\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          args: [--enable-progressive-syncs]\n';
  // The patch file is also read on its own (a strategic-merge patch looks like the resource): the bound
  // still makes the answer unknown, since a patch past it might be anything.
  const p = enablement({ '/ws/argocd/kustomization.yaml': kustomization(patches(250)), '/ws/argocd/controller-patch.yaml': patchFile });
  assert.equal(p.state, 'not-found');
  assert.match(p.unread!.join('\n'), /kustomize patches past the first 200/);
  // JSON6902 operations on the controller.
  const ops = (n: number) =>
    `[${Array.from({ length: n }, () => '{"op": "add", "path": "/spec/template/spec/containers/0/args/-", "value": "--metrics-addr=:9"}').join(', ')}, {"op": "add", "path": "/spec/template/spec/containers/0/args/-", "value": "--enable-progressive-syncs"}]`;
  const json = (n: number) =>
    kustomization(`patches:\n  - target: {kind: Deployment, name: argocd-applicationset-controller}\n    patch: '${ops(n)}'\n`);
  assert.equal(enablement({ '/ws/argocd/kustomization.yaml': json(5) }).state, 'enabled');
  const j = enablement({ '/ws/argocd/kustomization.yaml': json(600) });
  assert.equal(j.state, 'not-found');
  assert.match(j.unread!.join('\n'), /JSON6902 patch of Deployment argocd-applicationset-controller past the first 500/);
});

test('controller settings past the bound: lint says nothing of that install rather than a finding it cannot vouch for', () => {
  const cmFile = (i: number) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd\ndata:\n  applicationsetcontroller.enable.scm.providers: "false"\n  applicationsetcontroller.policy: "create-only"\n  applicationsetcontroller.namespaces: "t${i}"\n`;
  const withPr = APPSET.replace('  - clusters: {}', '  - pullRequest:\n      github: {owner: acme, repo: app}');
  const codes = (n: number) => {
    const files = new Map(
      Array.from({ length: n }, (_, i) => [`/ws/argocd/params-${String(i).padStart(3, '0')}.yaml`, cmFile(i)] as [string, string]),
    );
    const service = getLanguageService({ host: memHost(files) });
    const at = '/ws/apps/a.yaml';
    return service
      .diagnostics(service.analyze(at, withPr, at))
      .filter((d) => d.code.startsWith('controller/'))
      .map((d) => d.code);
  };
  assert.ok(codes(2).includes('controller/scm-providers-disabled'));
  assert.deepEqual(codes(80), []);
});

test('values files the install model cannot reach, or past its bound of 50: unknown, never decided without them', () => {
  const dir = layout(false);
  const app = path.join(dir, 'clusters/prod/argocd.yaml');
  const text = fs.readFileSync(app, 'utf8');
  // A values file by URL: Argo CD fetches it, the model cannot.
  fs.writeFileSync(
    app,
    text.replace('        - values-prod.yaml\n', '        - values-prod.yaml\n        - https://example.com/values-extra.yaml\n'),
  );
  const url = plan(dir);
  assert.match(progressive(url.out), /^progressive syncs: unknown \(what was read says disabled/);
  assert.match(url.out, /helm\.valueFiles https:\/\/example\.com\/values-extra\.yaml: not read \(a URL or a path outside the repository\)/);
  // values.yaml, values-prod.yaml and 51 more: the last 3 are past the bound.
  const many = Array.from({ length: 51 }, (_, i) => `        - values-x${i}.yaml\n`).join('');
  for (let i = 0; i < 51; i++) fs.writeFileSync(path.join(dir, `platform/argocd/values-x${i}.yaml`), 'argo: {}\n');
  fs.writeFileSync(app, text.replace('        - values-prod.yaml\n', `        - values-prod.yaml\n${many}`));
  const past = plan(dir);
  assert.match(progressive(past.out), /^progressive syncs: unknown/);
  assert.match(past.out, /helm\.valueFiles \(3 more\): not read \(past the first 50 values files/);
});

test('list bounds, the others: env entries (500), generator files entries (50) and envs files (20), kustomize resources (200)', () => {
  const envDeployment = (n: number) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: argocd-applicationset-controller\n  namespace: argocd\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          env:\n${Array.from({ length: n }, (_, i) => `            - {name: OTHER_${i}, value: x}`).join('\n')}\n            - {name: ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS, value: "true"}\n`;
  assert.equal(enablement({ '/ws/argocd/deploy.yaml': envDeployment(5) }).state, 'enabled');
  const env = enablement({ '/ws/argocd/deploy.yaml': envDeployment(500) });
  assert.equal(env.state, 'not-found');
  assert.match(env.unread!.join('\n'), /env entries past the first 500/);
  // files: 50 entries, the setting in the 51st.
  const filesGen = (n: number) =>
    kustomization(
      `configMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n    files:\n${Array.from({ length: n }, (_, i) => `      - other.key${i}=params/v`).join('\n')}\n      - applicationsetcontroller.enable.progressive.syncs=params/on\n`,
    );
  const fileTree = (n: number) => ({
    '/ws/argocd/kustomization.yaml': filesGen(n),
    '/ws/argocd/params/v': 'x',
    '/ws/argocd/params/on': 'true',
  });
  assert.equal(enablement(fileTree(3)).state, 'enabled');
  const files = enablement(fileTree(50));
  assert.equal(files.state, 'not-found');
  assert.match(files.unread!.join('\n'), /configMapGenerator files past the first 50/);
  // envs: 20 files, the setting in the 21st.
  const envsGen = (n: number) =>
    kustomization(
      `configMapGenerator:\n  - name: argocd-cmd-params-cm\n    behavior: merge\n    envs:\n${Array.from({ length: n + 1 }, (_, i) => `      - e${i}.env`).join('\n')}\n`,
    );
  const envsTree = (n: number) => ({
    '/ws/argocd/kustomization.yaml': envsGen(n),
    ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`/ws/argocd/e${i}.env`, 'other.key=x\n'])),
    [`/ws/argocd/e${n}.env`]: 'applicationsetcontroller.enable.progressive.syncs=true\n',
  });
  assert.equal(enablement(envsTree(2)).state, 'enabled');
  const envs = enablement(envsTree(20));
  assert.equal(envs.state, 'not-found');
  assert.match(envs.unread!.join('\n'), /configMapGenerator envs files past the first 20/);
  // resources: a remote base of another repository past the first 200 entries of an Argo CD install.
  const resources = (n: number) =>
    `namespace: argocd\nresources:\n${Array.from({ length: n }, (_, i) => `  - r${i}.yaml`).join('\n')}\n  - github.com/acme/platform//argocd?ref=v1\n  - argocd-cmd-params-cm.yaml\n`;
  const cmText =
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n';
  const res = enablement({ '/ws/argocd/kustomization.yaml': resources(200), '/ws/argocd/argocd-cmd-params-cm.yaml': cmText });
  assert.equal(res.state, 'not-found');
  assert.match(res.unread!.join('\n'), /kustomize resources past the first 200/);
  assert.match(res.unread!.join('\n'), /resources past the first 200/);
});
