/**
 * The per-parameter-set pipeline of `applicationset/controllers/template/template.go`
 * (GenerateApplications → RenderTemplateParams → renderTemplatePatch → namespace override) and the
 * preview document built from it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { appset, hugeMatrix, workspaceFor } from '../../generators-helpers';
import { previewText } from '../../../../server/src/engine/expand/preview';
import { applyPatch, parsePatch, PatchError } from '../../../../server/src/engine/expand/patch';
import { generatedApp } from '../../../helpers/appsets';

const APP = generatedApp(
  'my-cluster-guestbook',
  'namespace',
  { repoURL: 'https://github.com/argoproj/argocd-example-apps.git', targetRevision: 'HEAD', path: 'guestbook' },
  { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
);

const PATCHED = {
  ...APP,
  metadata: { ...APP.metadata, annotations: { 'annotation-some-key': 'annotation-some-value' } },
  spec: {
    ...APP.spec,
    source: { ...APP.spec.source, helm: { valueFiles: ['values.test.yaml', 'values.big.yaml'] } },
    syncPolicy: { automated: { prune: true } },
  },
};

test('templatePatch as JSON (patch_test.go Test_ApplyTemplatePatch "patch with JSON")', () => {
  const patch = `{
    "metadata": {"annotations": {"annotation-some-key": "annotation-some-value"}},
    "spec": {"source": {"helm": {"valueFiles": ["values.test.yaml", "values.big.yaml"]}}, "syncPolicy": {"automated": {"prune": true}}}
  }`;
  assert.deepEqual(applyPatch(structuredClone(APP), parsePatch(patch)), PATCHED);
});

test('templatePatch as YAML (patch_test.go Test_ApplyTemplatePatch "patch with YAML")', () => {
  const patch = `
metadata:
  annotations:
    annotation-some-key: annotation-some-value
spec:
  source:
    helm:
      valueFiles:
        - values.test.yaml
        - values.big.yaml
  syncPolicy:
    automated:
      prune: true`;
  assert.deepEqual(applyPatch(structuredClone(APP), parsePatch(patch)), PATCHED);
});

test('templatePatch cannot change the project (patch_test.go "project field isn\'t overwritten")', () => {
  const out = applyPatch(structuredClone(APP), parsePatch('\nspec:\n  project: my-project'));
  assert.equal((out.spec as { project: string }).project, 'default');
});

test('templatePatch that is not an object fails to decode (patch_test.go TestError)', () => {
  assert.throws(
    () => parsePatch('hello world'),
    (e: Error) =>
      e instanceof PatchError &&
      e.message === 'invalid templatePatch "\\"hello world\\"": json: cannot unmarshal string into Go value of type v1alpha1.Application',
  );
});

test('templatePatch values of the wrong type fail the decode into Application (research §3.6: prune: "true")', () => {
  const fails = (patch: string, re: RegExp) =>
    assert.throws(
      () => parsePatch(patch),
      (e: Error) => e instanceof PatchError && re.test(e.message),
    );
  fails(
    'spec:\n  syncPolicy:\n    automated:\n      prune: "true"\n',
    /^invalid templatePatch ".*": json: cannot unmarshal string into Go struct field Application\.spec\.syncPolicy\.automated\.prune of type bool$/,
  );
  fails('spec:\n  syncPolicy:\n    retry:\n      limit: "5"\n', /unmarshal string into .*retry\.limit of type int64/);
  // Unknown fields, null and int-or-string values decode fine.
  assert.doesNotThrow(() =>
    parsePatch('spec:\n  whatever: {a: 1}\n  syncPolicy: null\n  source:\n    helm:\n      valuesObject: {x: [1, "a"]}\n'),
  );
  fails('{"spec": ', /^invalid templatePatch "\{\\"spec\\": ": /);
});

test('templatePatch: null deletes, objects merge, lists are replaced, finalizers are united', () => {
  const app = structuredClone(APP) as Record<string, any>;
  app.spec.syncPolicy = { syncOptions: ['A=true', 'B=true'], automated: { selfHeal: true } };
  const out = applyPatch(
    app,
    parsePatch(
      'metadata:\n  finalizers: [custom/finalizer]\nspec:\n  destination: {namespace: null}\n  syncPolicy:\n    syncOptions: [C=true]\n    automated: {prune: true}\n',
    ),
  ) as Record<string, any>;
  assert.deepEqual(out.spec.destination, { server: 'https://kubernetes.default.svc' });
  assert.deepEqual(out.spec.syncPolicy, { syncOptions: ['C=true'], automated: { selfHeal: true, prune: true } });
  assert.deepEqual(out.metadata.finalizers, ['resources-finalizer.argocd.argoproj.io', 'custom/finalizer']);
});

test('an empty parameter set skips rendering and the default finalizer, but the templatePatch still applies (template.go GenerateApplications, utils.go RenderTemplateParams)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset('    - list:\n        elements: [{}]', {
      goTemplate: true,
      name: 'fixed-{{ .name }}',
      extra: "  templatePatch: |\n    metadata:\n      labels:\n        patched: 'yes{{ .name }}'\n",
    }),
  );
  assert.equal(e.apps.length, 1);
  const md = e.apps[0].app.metadata as Record<string, unknown>;
  assert.equal(md.name, 'fixed-{{ .name }}', 'the template is left as written');
  assert.equal(md.finalizers, undefined, 'no default finalizer for an empty parameter set');
  assert.deepEqual(md.labels, { patched: 'yes<no value>' }, 'the patch is rendered with the (empty) params');
  assert.equal(md.namespace, 'argocd');
});

test('templatePatch with conditionals renders non-string structure per parameter set (e2e TestTemplatePatch)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(
      '    - list:\n        elements:\n          - {name: a, autoSync: true, prune: true, annotations: {x: "1", z: "2"}}\n          - {name: b, autoSync: false, annotations: {}}',
      {
        goTemplate: true,
        extra: `  templatePatch: |
    metadata:
      annotations:
      {{- range $k, $v := .annotations }}
        {{ $k }}: {{ $v | quote }}
      {{- end }}
    {{- if .autoSync }}
    spec:
      syncPolicy:
        automated:
          prune: {{ .prune }}
    {{- end }}
`,
      },
    ),
  );
  const byName = new Map(e.apps.map((a) => [a.name, a.app as Record<string, any>]));
  assert.deepEqual(byName.get('a')!.metadata.annotations, { x: '1', z: '2' });
  assert.deepEqual(byName.get('a')!.spec.syncPolicy, { automated: { prune: true } });
  assert.equal(byName.get('b')!.spec.syncPolicy, undefined);
  assert.equal(e.problems.filter((p) => p.severity === 'error').length, 0, JSON.stringify(e.problems));
});

test('a templatePatch of the wrong type is an error on templatePatch, and that Application is not produced', (t) => {
  const ws = workspaceFor(t);
  const text = appset('    - list:\n        elements: [{name: a, prune: "yes"}]', {
    goTemplate: true,
    extra: '  templatePatch: |\n    spec:\n      syncPolicy:\n        automated:\n          prune: {{ .prune | quote }}\n',
  });
  const e = ws.expand(text);
  assert.equal(e.apps.length, 0);
  const p = e.problems.find((x) => x.severity === 'error');
  assert.ok(p, JSON.stringify(e.problems));
  assert.match(p.message, /invalid templatePatch .*prune of type bool/);
  assert.deepEqual(p.path, ['spec', 'templatePatch']);
  const start = text.indexOf('templatePatch: |') + 'templatePatch: '.length;
  assert.equal(p.span?.start, start, 'underlines the templatePatch scalar');
});

test('render errors in quoted scalars are underlined at the action itself', (t) => {
  const ws = workspaceFor(t);
  const text = appset('    - list:\n        elements: [{name: a}]', { goTemplate: true, options: '["missingkey=error"]' }).replace(
    "name: '{{ .name }}'",
    'name: "{{ printf \\"%s\\" .name }}-{{ .nope }}"',
  );
  const d = ws.diagnostics(text).find((x) => x.code === 'template/missing-key');
  assert.ok(d, JSON.stringify(ws.diagnostics(text)));
  assert.equal(text.slice(d.start, d.end), '.nope');
  assert.match(d.message, / — for \{name=a\} \(from list element 1\)$/);
});

test('missing-param warning points at the reference inside a block scalar', (t) => {
  const ws = workspaceFor(t);
  const text = appset('    - list:\n        elements: [{name: a, extra: x}, {name: b}]', { goTemplate: true }).replace(
    '      project: default\n',
    '      project: default\n      info:\n        note: |\n          first line\n          value {{ .extra }}\n',
  );
  const d = ws.diagnostics(text).find((x) => x.code === 'generator/missing-param');
  assert.ok(d, JSON.stringify(ws.diagnostics(text)));
  assert.equal(text.slice(d.start, d.end), '.extra');
  assert.match(d.message, /^\.extra renders <no value> where it is missing — in 1 of 2 Applications \(b\)$/);
});

test('preview: sorted by name like the controller writes them, header says what is not exact', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset('    - list:\n        elements: [{name: b}, {name: a}, {name: c}]\n    - pullRequest:\n        github: {owner: o, repo: r}'),
  );
  const text = previewText('test', e);
  assert.match(text, /^# Preview of ApplicationSet "test": 3 Applications/);
  assert.match(text, /# NOT EXACT/);
  assert.match(text, /# note: the pullRequest generator needs open pull requests/);
  const docs = YAML.parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter(Boolean);
  assert.deepEqual(
    docs.map((d) => d.metadata.name),
    ['a', 'b', 'c'],
  );
});

test('at the maxApplications cap the preview keeps the first Applications of a huge matrix and says so', (t) => {
  const ws = workspaceFor(t, {}, { maxApplications: 500 });
  const t0 = Date.now();
  const e = ws.expand(hugeMatrix(200));
  assert.equal(e.apps.length, 500);
  assert.ok(e.capped && !e.exact);
  assert.equal(e.apps[0].name, 'x-0-0');
  assert.equal(e.problems.filter((p) => p.code === 'generator/too-many-applications').length, 1);
  assert.match(previewText('test', e), /STOPPED at the appsetTools.maxApplications cap/);
  assert.ok(Date.now() - t0 < 30000); // a hang guard, not a speed test
});
