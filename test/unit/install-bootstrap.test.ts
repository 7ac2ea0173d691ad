/**
 * A superseded bootstrap install (install/version.ts, docs/versions.md): a pinned Argo CD manifest
 * nothing in the repository deploys (handed to Terraform, applied by hand) beside another install of
 * Argo CD that states no version does not say which version runs the ApplicationSets. Lint, the
 * preview's note, the field hover and `appset instances` say the version is not known; an install the
 * repository deploys, the only install, or a second folder holding only configuration keep the
 * version and its errors. Our own layout, after a homelab whose Terraform module carries the
 * bootstrap `install.yaml` while the running Argo CD is the argo-cd chart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { workspaceFor } from './generators-helpers';
import { bundleCli, runCli, writeFiles } from '../helpers/cli';
import { cmdParamsCm } from '../helpers/clusters';

const BOOT = 'infra/terraform/cluster/manifests/argocd';

const bootstrap: Record<string, string> = {
  [`${BOOT}/kustomization.yaml`]:
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\nresources:\n  - install.yaml\n',
  [`${BOOT}/install.yaml`]: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: argocd-applicationset-controller
spec:
  template:
    spec:
      containers:
        - name: argocd-applicationset-controller
          image: quay.io/argoproj/argocd:v2.6.7
`,
};

/** The argo-cd chart's values, with no chart version anywhere (the chart is installed from a tool the repository does not show). */
const selfManaged = { 'platform/argocd/values.yaml': 'configs:\n  params:\n    server.insecure: true\n' };

const TENANTS = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: tenants
  namespace: argocd
spec:
  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
    - list:
        elements:
          - tenant: a
  template:
    metadata:
      name: '{{ .tenant }}'
    spec:
      project: default
      source:
        repoURL: https://example.com/repo.git
        path: 'tenants/{{ .tenant }}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{ .tenant }}'
  templatePatch: |
    spec:
      syncPolicy:
        automated: {}
`;

const fieldFindings = (ws: ReturnType<typeof workspaceFor>) =>
  ws.diagnostics(TENANTS, 'appsets/tenants.yaml').filter((d) => d.code === 'appset/unknown-field');

test('a bootstrap manifest nothing deploys, beside an argo-cd chart install with no version: the version is not known, its fields are information', (t) => {
  const ws = workspaceFor(t, { ...bootstrap, ...selfManaged });
  const found = fieldFindings(ws);
  assert.deepEqual(
    found.map((d) => d.severity),
    ['information', 'information'],
    'goTemplateOptions and templatePatch, once each, never an error',
  );
  assert.match(
    found[0].message,
    /^"goTemplateOptions" was added in Argo CD 2\.8: if Argo CD 2\.6\.7 runs this ApplicationSet, its API server drops it/,
  );
  assert.match(found[0].message, new RegExp(`${BOOT}/install\\.yaml installs Argo CD 2\\.6\\.7 .*nothing in the repository deploys it`));
  assert.match(found[0].message, /platform\/argocd\/ defines Argo CD for the same ApplicationSets without saying which version/);
  assert.match(found[0].message, /set argocdVersion in \.appset-tools\.yaml/);
  // The preview checks against the newest release and says why, with the same words.
  const note = ws.expand(TENANTS, 'appsets/tenants.yaml').notes.find((n) => n.startsWith('checked against'))!;
  assert.match(note, /^checked against Argo CD 3\.\d+ \(which version runs it is not known: .*install\.yaml installs Argo CD 2\.6\.7/);
  // The hover of the field does not claim the running release drops it.
  const hover = ws.hover(TENANTS, TENANTS.indexOf('templatePatch') + 2) ?? '';
  assert.doesNotMatch(hover, /Unknown to the release/);
});

test('the bootstrap version holds where the repository deploys it, where it is the only install, or beside mere configuration', (t) => {
  const deployed = workspaceFor(t, {
    ...bootstrap,
    ...selfManaged,
    'clusters/argocd-app.yaml': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: argocd
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://example.com/repo.git
    path: ${BOOT}
  destination:
    server: https://kubernetes.default.svc
    namespace: argocd
`,
  });
  assert.deepEqual(
    fieldFindings(deployed).map((d) => d.severity),
    ['error', 'error'],
    'an Application deploys the manifest: it is the install Argo CD keeps applied',
  );
  const alone = workspaceFor(t, bootstrap);
  const errors = fieldFindings(alone);
  assert.deepEqual(
    errors.map((d) => d.severity),
    ['error', 'error'],
    'the only Argo CD the repository defines',
  );
  assert.match(errors[0].message, /Argo CD 2\.6\.7's API server drops it/);
  const config = workspaceFor(t, { ...bootstrap, 'platform/argocd-config/params.yaml': cmdParamsCm('true') });
  assert.deepEqual(
    fieldFindings(config).map((d) => d.severity),
    ['error', 'error'],
    'a params ConfigMap configures an install; it is not a second Argo CD',
  );
  const pinned = workspaceFor(t, { ...bootstrap, ...selfManaged }, { argocdVersion: '2.9' });
  assert.deepEqual(
    fieldFindings(pinned).map((d) => [d.severity, d.message.match(/"(\w+)"/)?.[1]]),
    [['error', 'templatePatch']],
    'argocdVersion pins the version: 2.9 has goTemplateOptions, not templatePatch',
  );
});

test('appset lint and appset instances as processes: exit 0 with two notes, and the install report says the version is not known', (t) => {
  const { cli, work } = bundleCli('appset-bootstrap-cli-');
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'appset-bootstrap-')));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });
  fs.mkdirSync(path.join(dir, '.git'));
  writeFiles(dir, {
    ...bootstrap,
    ...selfManaged,
    'appsets/tenants.yaml': TENANTS,
    'infra/terraform/cluster/main.tf': 'module "k3s" {}\n',
  });
  const lint = runCli(cli, ['lint', 'appsets/tenants.yaml', '--format', 'json'], { cwd: dir });
  assert.equal(lint.code, 0, lint.out + lint.err);
  const report = JSON.parse(lint.out) as { files: { diagnostics: { code: string; severity: string }[] }[] };
  const codes = report.files.flatMap((f) => f.diagnostics).filter((f) => f.code === 'appset/unknown-field');
  assert.deepEqual(
    codes.map((f) => f.severity),
    ['information', 'information'],
  );
  const inst = runCli(cli, ['instances'], { cwd: dir });
  assert.equal(inst.code, 0, inst.err);
  assert.match(
    inst.out,
    new RegExp(`version: Argo CD 2\\.6 — image quay\\.io/argoproj/argocd:v2\\.6\\.7 \\(${BOOT}/install\\.yaml:10\\), applied from outside`),
  );
  assert.match(
    inst.out,
    /appsets\/tenants\.yaml — several Argo CD installs could run it .*; which version runs it is not known: .*install\.yaml installs Argo CD 2\.6\.7/,
  );
});
