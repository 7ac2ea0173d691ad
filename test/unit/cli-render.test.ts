/**
 * `appset render`: the offline counterpart of `argocd appset generate` (output order = the controller's
 * write order, sorted by name — applicationset_controller.go), its options and its exit codes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { main } from '../../server/src/cli/main';
import type { CliIO } from '../../server/src/cli/io';
import { writeFiles } from '../helpers/cli';
import { generatedApp } from '../helpers/appsets';

function run(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (s) => void (out += s),
    err: (s) => void (err += s),
    readStdin: async () => '',
    stdinLines: async function* () {},
    cwd,
  };
  return main(['render', ...args], io).then((code) => ({ code, out, err }));
}

/** A temporary folder with `files`, removed when the test ends. */
function tempDir(t: { after(fn: () => void): void }, files: Record<string, string>): string {
  const dir = writeFiles(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'appset-render-'))), files);
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const head = (goTemplate: boolean) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: demo
  namespace: team-a
spec:
  goTemplate: ${goTemplate}
`;

const LIST = `${head(true)}  generators:
    - list:
        elements:
          - {app: zeta, ns: z}
          - {app: alpha, ns: a}
  template:
    metadata:
      name: '{{ .app }}'
      namespace: ignored-by-the-controller
    spec:
      project: default
      source: {repoURL: https://example.com/r.git, path: '{{ .app }}', targetRevision: HEAD}
      destination: {server: https://kubernetes.default.svc, namespace: '{{ .ns }}'}
`;

function docsOf(yamlText: string): Record<string, any>[] {
  return YAML.parseAllDocuments(yamlText)
    .map((d) => d.toJS())
    .filter((d) => d);
}

test('render: YAML of every Application, sorted by name, in the ApplicationSet namespace with the default finalizer', async (t) => {
  const dir = tempDir(t, { 'appset.yaml': LIST });
  const r = await run(dir, ['appset.yaml']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^# Preview of ApplicationSet "demo": 2 Applications/);
  const apps = docsOf(r.out);
  assert.deepEqual(
    apps.map((a) => a.metadata.name),
    ['alpha', 'zeta'],
  );
  assert.deepEqual(
    apps[0],
    generatedApp(
      'alpha',
      'team-a',
      { repoURL: 'https://example.com/r.git', path: 'alpha', targetRevision: 'HEAD' },
      { server: 'https://kubernetes.default.svc', namespace: 'a' },
    ),
  );
});

test('render --output json: one object with the Applications and exactness', async (t) => {
  const dir = tempDir(t, { 'appset.yaml': LIST });
  const r = await run(dir, ['appset.yaml', '--output', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.applicationSet, 'demo');
  assert.equal(j.exact, true);
  assert.deepEqual(
    j.applications.map((a: any) => a.spec.destination.namespace),
    ['a', 'z'],
  );
});

test('render --inventory: clusters from a ClusterInventory file outside the ApplicationSet folder', async (t) => {
  const dir = tempDir(t, {
    'apps/appset.yaml': `${head(false)}  generators:
    - clusters:
        selector: {matchLabels: {env: prod}}
  template:
    metadata: {name: 'guestbook-{{name}}', labels: {tier: '{{metadata.labels.tier}}'}}
    spec:
      project: default
      source: {repoURL: https://example.com/r.git, path: guestbook}
      destination: {server: '{{server}}', namespace: guestbook}
`,
    'fleet/inventory.yaml': `apiVersion: appset-tools/v1
kind: ClusterInventory
clusters:
  - {name: prod-eu, server: https://eu.example.com, labels: {env: prod, tier: canary}}
  - {name: prod-us, server: https://us.example.com, labels: {env: prod, tier: main}}
  - {name: dev, server: https://dev.example.com, labels: {env: dev}}
`,
  });
  const without = await run(path.join(dir, 'apps'), ['appset.yaml']);
  assert.equal(docsOf(without.out).length, 0, 'no inventory reachable from apps/ alone');
  const r = await run(path.join(dir, 'apps'), ['appset.yaml', '--inventory', '../fleet/inventory.yaml']);
  assert.equal(r.code, 0, r.err);
  const apps = docsOf(r.out);
  assert.deepEqual(
    apps.map((a) => [a.metadata.name, a.spec.destination.server, a.metadata.labels.tier]),
    [
      ['guestbook-prod-eu', 'https://eu.example.com', 'canary'],
      ['guestbook-prod-us', 'https://us.example.com', 'main'],
    ],
  );
});

test('render --repo-map: git directories read from the mapped checkout, and the preview says so', async (t) => {
  const dir = tempDir(t, {
    'appset.yaml': `${head(true)}  generators:
    - git:
        repoURL: git@github.com:acme/platform.git
        revision: main
        directories:
          - path: addons/*
          - path: addons/skip-me
            exclude: true
  template:
    metadata: {name: '{{ .path.basename }}'}
    spec:
      project: default
      source: {repoURL: https://github.com/acme/platform, path: '{{ .path.path }}', targetRevision: main}
      destination: {server: https://kubernetes.default.svc, namespace: '{{ .path.basename }}'}
`,
    'checkout/addons/metrics/kustomization.yaml': 'resources: []\n',
    'checkout/addons/logging/kustomization.yaml': 'resources: []\n',
    'checkout/addons/skip-me/kustomization.yaml': 'resources: []\n',
    'checkout/addons/logging/nested/x.yaml': 'a: 1\n',
  });
  const r = await run(dir, ['appset.yaml', '--repo-map', 'https://github.com/acme/platform.git=checkout']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /# NOT EXACT/);
  assert.match(r.out, /working tree/);
  assert.deepEqual(
    docsOf(r.out).map((a) => [a.metadata.name, a.spec.source.path]),
    [
      ['logging', 'addons/logging'],
      ['metrics', 'addons/metrics'],
    ],
  );
  const bad = await run(dir, ['appset.yaml', '--repo-map', 'no-equals-sign']);
  assert.equal(bad.code, 2);
});

test('render --max-apps: stops at the cap and says so (not a controller failure)', async (t) => {
  const dir = tempDir(t, { 'appset.yaml': LIST });
  const r = await run(dir, ['appset.yaml', '--max-apps', '1']);
  assert.equal(r.code, 0);
  assert.match(r.out, /STOPPED at the appsetTools.maxApplications cap/);
  assert.equal(docsOf(r.out).length, 1);
  assert.match(r.err, /generator\/too-many-applications/);
});

test("render: exit 1 with Argo CD's error text at the template position when the controller would fail", async (t) => {
  const text = LIST.replace("name: '{{ .app }}'", "name: '{{ .app | nosuch }}'");
  const dir = tempDir(t, { 'appset.yaml': text });
  const r = await run(dir, ['appset.yaml']);
  assert.equal(r.code, 1);
  const line = text.split('\n').findIndex((l) => l.includes('nosuch')) + 1;
  assert.match(r.err, new RegExp(`appset\\.yaml:${line}:\\d+`));
  assert.match(r.err, /function "nosuch" not defined/);
});

test('render: duplicate names are skipped by the controller → exit 1 and marked in the output', async (t) => {
  const dir = tempDir(t, { 'appset.yaml': LIST.replace("name: '{{ .app }}'", "name: 'same'") });
  const r = await run(dir, ['appset.yaml']);
  assert.equal(r.code, 1);
  assert.equal((r.out.match(/# SKIPPED by the controller: .*duplicate name: same/g) ?? []).length, 2);
});

test('render: usage errors exit 2, files without an ApplicationSet 4', async (t) => {
  const dir = tempDir(t, { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', 'appset.yaml': LIST });
  assert.equal((await run(dir, [])).code, 2);
  assert.equal((await run(dir, ['appset.yaml', '--output', 'toml'])).code, 2);
  assert.equal((await run(dir, ['missing.yaml'])).code, 2);
  const r = await run(dir, ['cm.yaml']);
  assert.equal(r.code, 4);
  assert.match(r.err, /no ApplicationSet found/);
  assert.equal((await run(dir, ['--help'])).code, 0);
});

test("a Helm chart template is rendered as `helm template` would with the chart's values.yaml; what cannot be rendered is said", async (t) => {
  const template = (project: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: {{ .Chart.Name }}-{{ .Release.Name }}
spec:
  generators:
  - list:
      elements:
{{- range .Values.environments }}
      - env: {{ . }}
{{- end }}
  template:
    metadata:
      name: '{{ "{{env}}" }}-{{ .Values.missing }}web'
    spec:
      project: ${project}
      source:
        repoURL: {{ .Values.repoURL }}
        targetRevision: HEAD
        path: 'envs/{{\`{{env}}\`}}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{ "{{env}}" }}'
`;
  const dir = tempDir(t, {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'charts/apps/Chart.yaml': 'apiVersion: v2\nname: platform-apps\nversion: 1.2.0\n',
    'charts/apps/values.yaml': 'repoURL: https://example.com/apps.git\nenvironments: [dev, prod]\nproject: shop\n',
    'charts/apps/templates/appset.yaml': template('{{ .Values.project }}'),
    'charts/apps/templates/helper.yaml': template('{{ include "apps.project" . }}'),
    'charts/novalues/Chart.yaml': 'apiVersion: v2\nname: novalues\nversion: 0.1.0\n',
    'charts/novalues/templates/appset.yaml': template('{{ .Values.project }}'),
  });
  const r = await run(dir, ['charts/apps/templates/appset.yaml']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /rendered as `helm template` would with charts\/apps\/values\.yaml alone \(release name release-name\)/);
  const apps = YAML.parseAllDocuments(r.out).map((d) => d.toJS() as { metadata: { name: string }; spec: Record<string, unknown> });
  // The ApplicationSet's name from .Chart and .Release; a missing value prints nothing (Helm drops "<no value>").
  assert.match(r.out, /ApplicationSet "platform-apps-release-name": 2 Applications/);
  assert.deepEqual(
    apps.map((a) => [a.metadata.name, a.spec.project, (a.spec.source as { path: string }).path]),
    [
      ['dev-web', 'shop', 'envs/dev'],
      ['prod-web', 'shop', 'envs/prod'],
    ],
  );
  // A Helm-only function (include) is not guessed at: the render says so.
  const inc = await run(dir, ['charts/apps/templates/helper.yaml']);
  assert.equal(inc.code, 4);
  assert.match(inc.err, /not rendered here: Helm's render cannot be reproduced here: line 16: function "include" not defined/);
  const none = await run(dir, ['charts/novalues/templates/appset.yaml']);
  assert.equal(none.code, 4);
  assert.match(none.err, /values\.yaml \(.*charts\/novalues\/values\.yaml\) is not in the workspace/);
});
