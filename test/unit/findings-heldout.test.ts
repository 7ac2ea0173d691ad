/**
 * Issue 26: patterns a held-out set of real repositories showed, each fixed from the upstream rule
 * (Go's text/template lexer, git's pathspec normalisation, Argo CD's matrix and RollingSync code).
 * The fixtures are written here; none is copied from a repository.
 */
import { test } from 'node:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { getLanguageService, emptyHost } from '@appset-tools/engine';
import { workspaceFor } from './generators-helpers';

const ls = getLanguageService({ host: emptyHost() });
let n = 0;
const run = (text: string) => {
  const a = ls.analyze(`mem://h${n++}.yaml`, text);
  const ds = ls.diagnostics(a);
  const line = (code: string) =>
    ds
      .filter((d) => d.code === code)
      .map((d) => text.slice(text.lastIndexOf('\n', d.span.start - 1) + 1, text.indexOf('\n', d.span.start)).trim());
  return { a, ds, codes: ds.map((d) => `${d.severity} ${d.code}`), line };
};
const loud = (ds: { severity: string; code: string }[]) =>
  ds.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => d.code);

const appset = (spec: string, template = "metadata: {name: '{{ .name }}'}") => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: s, namespace: argocd}
spec:
${spec}
  template:
    ${template}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: apps, targetRevision: HEAD}
      destination: {server: 'https://kubernetes.default.svc', namespace: x}
`;

test('Go template escapes under goTemplate print their literal text: no fasttemplate-syntax finding', () => {
  const text = appset(
    '  goTemplate: true\n  generators:\n  - list: {elements: [{name: a}]}',
    "metadata:\n      name: '{{ .name }}'\n      annotations:\n        raw: '{{`{{ user.name }}`}}'\n        quoted: '{{ \"{{ user.name }}\" }}'\n        comment: '{{/* {{ user.name }} */}}x'",
  );
  const r = run(text);
  assert.deepEqual(loud(r.ds), []);
  const app = ls.applications(r.a)!.apps[0];
  assert.deepEqual((app.app as { metadata: { annotations: unknown } }).metadata.annotations, {
    raw: '{{ user.name }}',
    quoted: '{{ user.name }}',
    comment: 'x',
  });
  // The same text outside a literal is still the mistake.
  const wrong = run(appset('  goTemplate: true\n  generators:\n  - list: {elements: [{name: a}]}', "metadata: {name: '{{name}}'}"));
  assert.deepEqual(loud(wrong.ds), ['template/fasttemplate-syntax']);
});

test('fasttemplate: {{template}} and {{with}} are parameter names, not Go syntax', () => {
  const r = run(
    appset(
      '  generators:\n  - list: {elements: [{name: a, template: t, with: w, end: e}]}',
      "metadata: {name: '{{name}}-{{template}}-{{with}}-{{ end }}'}",
    ),
  );
  assert.deepEqual(loud(r.ds), []);
  assert.deepEqual(
    ls.applications(r.a)!.apps.map((a) => a.name),
    ['a-t-w-e'],
  );
  // Keywords with arguments, fields and pipes are still Go's.
  const go = run(appset('  generators:\n  - list: {elements: [{name: a}]}', "metadata: {name: '{{ if .name }}x{{ end }}-{{name}}'}"));
  assert.ok(go.ds.some((d) => d.code === 'template/gotemplate-syntax'));
});

test('a Go block under fasttemplate is one finding: its {{else}} and {{end}} are not reported again as missing parameters', () => {
  const block = (path: string) =>
    run(
      appset(
        '  generators:\n  - list: {elements: [{name: a, env: prod}]}',
        `metadata:\n      name: '{{name}}'\n      annotations:\n        path: '${path}'`,
      ),
    );
  const simple = block('apps/{{if eq .env "prod"}}prod{{else}}dev{{end}}');
  assert.deepEqual(loud(simple.ds), ['template/gotemplate-syntax'], 'one warning for the block, none for {{else}} or {{end}}');
  // Nested blocks, trim markers and else-if are the same block.
  const nested = block('apps/{{- if .env }}{{ range .list }}x{{ end }}{{ else if .y }}y{{ else }}z{{- end }}/{{name}}');
  assert.deepEqual(loud(nested.ds), ['template/gotemplate-syntax']);
  // A bare {{end}} outside any Go block is a fasttemplate parameter like any other (it is missing).
  const bare = block('apps/{{env}}/{{end}}');
  assert.deepEqual(loud(bare.ds), ['generator/missing-param']);
});

test('git files paths are normalised as git does (./, a/../b, //); .. above the root is outside the repository', (t) => {
  const ws = workspaceFor(
    t,
    { 'repo/clusters.json': '[{"name": "c1"}, {"name": "c2"}]', 'repo/envs/dev/config.json': '{"name": "dev"}' },
    { repoMappings: { 'https://example.com/r.git': 'repo' } },
  );
  const git = (files: string) =>
    appset(
      `  generators:\n  - git:\n      repoURL: https://example.com/r.git\n      revision: HEAD\n      files: [${files}]`,
      "metadata: {name: '{{name}}'}",
    );
  const names = (files: string) =>
    ws
      .expand(git(files))
      .apps.map((a) => a.name)
      .sort();
  assert.deepEqual(names('{path: ./clusters.json}'), ['c1', 'c2']);
  assert.deepEqual(names('{path: "./envs/../envs/*/config.json"}'), ['dev']);
  assert.deepEqual(
    ws.diagnostics(git('{path: ./clusters.json}')).filter((d) => d.code === 'generator/empty'),
    [],
  );
  const outside = ws.expand(git('{path: ../other/clusters.json}'));
  assert.match(outside.problems.find((p) => p.severity === 'error')?.message ?? '', /is outside repository/);
});

test("'!path' in a git generator is not a negation: a warning with the exclude: true fix", () => {
  const text = appset(
    `  generators:
  - git:
      repoURL: https://example.com/r.git
      revision: HEAD
      directories:
        - path: applications/*
        - path: '!applications/legacy'
  - git:
      repoURL: https://example.com/r.git
      revision: HEAD
      files: [{path: '!config/old.json'}]`,
    "metadata: {name: '{{path.basename}}'}",
  );
  // The two findings and where they are: test/fixtures/rules/appset/git-negation.yaml.
  const r = run(text);
  assert.equal(r.ds.filter((x) => x.code === 'appset/git-negation').length, 2);
  const apply = (i: number) => {
    const d = r.ds.filter((x) => x.code === 'appset/git-negation')[i];
    const fix = ls.codeActions(r.a, d.span, [d]).find((x) => x.diagnosticCodes?.includes('appset/git-negation'))!;
    let out = text;
    for (const e of [...fix.edits!].sort((a, b) => b.span.start - a.span.start))
      out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
    return out;
  };
  const block = apply(0);
  assert.match(block, /\n {8}- path: 'applications\/legacy'\n {10}exclude: true\n/);
  assert.deepEqual(loud(run(block).ds), ['appset/git-negation']);
  assert.match(apply(1), /files: \[\{path: 'config\/old.json', exclude: true\}\]/);
});

// A matrix of two git generators without pathParamPrefix, reported from the file alone, and the
// cases that do not clash: test/fixtures/rules/appset/matrix-path-clash.yaml.

// A RollingSync whose every step is maxUpdate 0% never syncs by itself (one warning on steps), one
// gate among steps that sync (information), and '-10%': test/fixtures/rules/rollout/manual-step.yaml.

test('one tab in the indentation: one yaml/syntax finding that says so, no schema or expansion cascade', () => {
  const text = appset('  generators:\n  - list:\n      elements:\n      - name: a', "metadata:\n\tname: '{{name}}'");
  const r = run(text);
  assert.deepEqual(r.codes, ['error yaml/syntax']);
  assert.match(r.ds[0].message, /^a tab in the indentation: YAML allows only spaces there/);
  // Control flow in the structure still explains its own broken document (a superseding finding).
  const flow = run(
    appset(
      '  generators:\n  - list:\n      elements:\n      - name: a',
      "metadata:\n      name: '{{name}}'\n{{- if .x }}\n      labels: {a: b}\n{{- end }}",
    ),
  );
  assert.ok(flow.ds.some((d) => d.code === 'appset/template-in-structure' || d.code === 'yaml/templated-file'));
});

test("a generator's own template project: the finding and its fix are on the generator's line", (t) => {
  const ws = workspaceFor(t, {
    'projects.yaml': `apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: platform, namespace: argocd}\nspec: {}\n---\napiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: default, namespace: argocd}\nspec: {}\n`,
  });
  const text = appset(
    `  generators:
  - list:
      elements: [{name: a}]
      template:
        metadata: {}
        spec:
          project: plaform
  - list:
      elements: [{name: b}]`,
    "metadata: {name: '{{name}}'}",
  );
  const ds = ws.diagnostics(text).filter((d) => d.code === 'appset/unknown-project');
  assert.equal(ds.length, 1, JSON.stringify(ds));
  assert.equal(text.slice(ds[0].start, ds[0].end), 'plaform');
  assert.match(ds[0].message, /did you mean "platform"/);
});

// A literal Application name under a generator that yields several by design (appset/constant-name),
// and under a list whose parameter sets are known offline (generator/duplicate-name):
// test/fixtures/rules/appset/constant-name.yaml and generator/duplicate-name.yaml.

test('the plan counts only the Applications the controller creates: an unknown AppProject or a duplicate name is skipped, and said', (t) => {
  const ws = workspaceFor(
    t,
    { 'projects.yaml': `apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: shop, namespace: argocd}\nspec: {}\n` },
    { progressiveSyncs: 'enabled' },
  );
  const text = appset(
    `  generators:
  - list:
      elements: [{name: api, proj: shop}, {name: web, proj: shop}, {name: jobs, proj: batch}, {name: web, proj: shop}]`,
    "metadata: {name: '{{name}}'}",
  ).replace('project: default', "project: '{{proj}}'");
  const { plan: shown, text: printed } = ws.plan(text);
  const plan = shown!;
  // applicationset_controller.go validateGeneratedApplications: duplicates, then the AppProject lookup.
  assert.equal(plan.totalApps, 1);
  assert.deepEqual(
    plan.skipped?.map((s) => s.name),
    ['jobs', 'web', 'web'],
  );
  assert.match(plan.skipped![0].reason, /AppProject that does not exist: batch/);
  assert.match(
    printed ?? '',
    /AllAtOnce — 1 Application on .* sync at the same time\n[\s\S]*skipped by the controller, never created \(3\): jobs \(/,
  );
  // The unknown project is one finding, on the project line, not a second one on the name.
  const ds = ws.diagnostics(text);
  assert.deepEqual(
    ds.filter((d) => d.code === 'appset/unknown-project').map((d) => text.slice(d.start, d.end)),
    ["'{{proj}}'"],
  );
  assert.ok(!ds.some((d) => d.code === 'generator/invalid-application'), JSON.stringify(ds));
  // Without AppProjects in the repository, no project is called unknown, and nothing is skipped for it.
  const bare = workspaceFor(t, {});
  assert.ok(!bare.expand(text).apps.some((a) => a.invalid?.some((m) => m.kind === 'unknown-project')));
});

test('a git submodule left empty by the clone is a directory for the git generator: Argo CD checks submodules out', (t) => {
  // The layout of a repository whose apps are submodules, cloned without --recurse-submodules (CI's default).
  const ws = workspaceFor(
    t,
    {
      'repo/.gitmodules':
        '[submodule "apps/shop"]\n\tpath = apps/shop\n\turl = https://example.com/shop.git\n[submodule "libs/ui"]\n\tpath = ./libs/ui  # vendored\n\turl = ../ui.git\n',
      'repo/apps/billing/kustomization.yaml': 'resources: []\n',
    },
    { repoMappings: { 'https://example.com/r.git': 'repo' } },
  );
  mkdirSync(join(ws.dir, 'repo/apps/shop'), { recursive: true });
  mkdirSync(join(ws.dir, 'repo/libs/ui'), { recursive: true });
  mkdirSync(join(ws.dir, 'repo/apps/scratch'), { recursive: true });
  const dirs = (pattern: string) =>
    appset(
      `  generators:\n  - git:\n      repoURL: https://example.com/r.git\n      revision: HEAD\n      directories: [{path: '${pattern}'}]`,
      "metadata: {name: '{{path.basename}}'}",
    );
  const apps = ws.expand(dirs('apps/*'));
  // The empty submodule folder counts; an empty folder that is no submodule does not (git has no empty directories).
  assert.deepEqual(apps.apps.map((a) => a.name).sort(), ['billing', 'shop']);
  assert.ok(apps.notes.some((n) => /submodules "apps\/shop", "libs\/ui" are not checked out/.test(n)));
  assert.deepEqual(loud(ws.diagnostics(dirs('libs/*'))), []);
  assert.deepEqual(
    ws.expand(dirs('libs/*')).apps.map((a) => a.name),
    ['ui'],
  );
  // A files pattern that reaches into a submodule not checked out: empty here, but not a warning.
  const files = (pattern: string) =>
    appset(
      `  generators:\n  - git:\n      repoURL: https://example.com/r.git\n      revision: HEAD\n      files: [{path: '${pattern}'}]`,
      "metadata: {name: '{{name}}'}",
    );
  const inSub = ws.diagnostics(files('apps/shop/config.json')).filter((d) => d.code === 'generator/empty');
  assert.deepEqual(
    inSub.map((d) => d.severity),
    ['information'],
  );
  // Elsewhere an empty files generator is still the warning it was.
  const elsewhere = ws.diagnostics(files('envs/*.json')).filter((d) => d.code === 'generator/empty');
  assert.deepEqual(
    elsewhere.map((d) => d.severity),
    ['warning'],
  );
});

test('Go syntax in metadata.name under fasttemplate: one finding at the name, an error, because the name it leaves is rejected', () => {
  const r = run(appset('  generators:\n  - list: {elements: [{name: a}]}', "metadata: {name: '{{name | lower}}'}"));
  const at = r.ds.filter((d) => d.severity === 'error' || d.severity === 'warning');
  assert.deepEqual(
    at.map((d) => `${d.severity} ${d.code}`),
    ['error template/gotemplate-syntax'],
  );
  // Its range and message, and the warning below's: test/fixtures/rules/template/gotemplate-syntax.yaml.
  // Elsewhere (a label value the API server accepts as written) it stays the warning it is.
  const label = run(
    appset(
      '  generators:\n  - list: {elements: [{name: a}]}',
      "metadata:\n      name: '{{name}}'\n      annotations: {note: '{{name | upper}}'}",
    ),
  );
  assert.deepEqual(loud(label.ds), ['template/gotemplate-syntax']);
});
