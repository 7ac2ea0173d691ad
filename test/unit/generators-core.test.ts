/**
 * Generators and rendering, against expectations taken from Argo CD's own tests (cited by name)
 * and the semantics in research §1–§3.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, hugeMatrix, secret, secrets, workspaceFor } from './generators-helpers';

const names = (e: { apps: { name: string }[] }) => e.apps.map((a) => a.name).sort();

test('list: fasttemplate elements must be strings (list_test.go TestGenerateListParams)', (t) => {
  const ws = workspaceFor(t);
  const ok = ws.expand(appset(`    - list:\n        elements:\n          - name: a\n            values: {size: big}\n          - name: b`));
  assert.deepEqual(names(ok), ['a', 'b']);
  assert.equal(ok.apps[0].params['values.size'], 'big');
  const bad = ws.expand(appset(`    - list:\n        elements:\n          - name: a\n            replicas: 3`));
  assert.equal(bad.apps.length, 0);
  assert.equal(bad.problems[0].message, 'error parsing value as string %!w(<nil>)');
  assert.equal(bad.problems[0].code, 'generator/error');
});

test('list: goTemplate keeps element types; numbers print like Go float64', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(`    - list:\n        elements:\n          - name: a\n            account: 123456789012\n            big: 1000000`, {
      goTemplate: true,
      name: '{{ .name }}-{{ .big }}',
    }),
  );
  assert.deepEqual(names(e), ['a-1e+06'], 'name is not a DNS name, so it is also flagged');
  assert.ok(e.apps[0].invalid?.some((m) => m.kind === 'bad-name' && m.message.includes('RFC 1123')));
});

test('clusters: params, nameNormalized, selector, in-cluster rule (cluster_test.go TestGenerateParams)', (t) => {
  const ws = workspaceFor(t, {
    'clusters.yaml': secrets(
      secret('production_01/west', 'https://production-01.example.com', { environment: 'production', org: 'bar' }),
      secret('staging-01', 'https://staging-01.example.com', { environment: 'staging' }),
    ),
  });
  const all = ws.expand(appset(`    - clusters: {}`, { name: '{{nameNormalized}}' }));
  assert.deepEqual(names(all), ['in-cluster', 'production-01-west', 'staging-01'], 'no selector: the in-cluster entry is added');
  const prod = all.apps.find((a) => a.name === 'production-01-west')!;
  assert.equal(prod.params['metadata.labels.environment'], 'production');
  assert.equal(prod.params['metadata.labels.argocd.argoproj.io/secret-type'], 'cluster');
  assert.equal(prod.params.server, 'https://production-01.example.com');
  const sel = ws.expand(
    appset(`    - clusters:\n        selector:\n          matchLabels:\n            environment: production`, {
      name: '{{nameNormalized}}',
    }),
  );
  assert.deepEqual(names(sel), ['production-01-west'], 'any selector drops in-cluster');
  const go = ws.expand(
    appset(
      `    - clusters:\n        selector:\n          matchExpressions:\n            - {key: environment, operator: In, values: [staging]}`,
      { goTemplate: true, name: '{{ .name }}-{{ index .metadata.labels "environment" }}-{{ index .metadata.labels "nope" }}x' },
    ),
  );
  assert.deepEqual(names(go), ['staging-01-staging-x'], 'labels are a Go map[string]string: a missing key indexes to ""');
});

test('clusters: values are rendered against the cluster params (value_interpolation_test.go)', (t) => {
  const ws = workspaceFor(t, { 'c.yaml': secret('c1', 'https://c1', { env: 'prod' }) });
  const e = ws.expand(
    appset(
      `    - clusters:\n        selector: {matchLabels: {env: prod}}\n        values:\n          target: '{{name}}-{{metadata.labels.env}}'\n          raw: '{{values.target}}'`,
      { name: '{{values.target}}-{{values.raw}}' },
    ),
  );
  assert.equal(e.apps[0].params['values.target'], 'c1-prod');
  assert.equal(e.apps[0].params['values.raw'], '{{values.target}}', 'values cannot see other values');
});

test('matrix: cartesian product, conflicts and first-child precedence (matrix_test.go TestMatrixGenerate)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list:\n              elements: [{env: dev}, {env: prod}]\n          - list:\n              elements: [{svc: a}, {svc: b}, {svc: c}]`,
      { name: '{{svc}}-{{env}}' },
    ),
  );
  assert.deepEqual(names(e), ['a-dev', 'a-prod', 'b-dev', 'b-prod', 'c-dev', 'c-prod']);
  const conflict = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list:\n              elements: [{env: dev}]\n          - list:\n              elements: [{env: prod}]`,
      { name: '{{env}}' },
    ),
  );
  assert.match(conflict.problems[0].message, /found duplicate key env with different value, a: dev ,b: prod/);
  const go = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list:\n              elements: [{env: dev, flag: false}]\n          - list:\n              elements: [{env: prod, flag: true, x: y}]`,
      { goTemplate: true, name: '{{ .env }}-{{ .flag }}-{{ .x }}' },
    ),
  );
  assert.deepEqual(names(go), ['dev-false-y'], 'in goTemplate the first child wins, even false over true');
  const three = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list: {elements: [{a: x}]}\n          - list: {elements: [{b: y}]}\n          - list: {elements: [{c: z}]}`,
    ),
  );
  assert.equal(three.problems[0].message, 'found more than two generators, Matrix support only two');
});

test('matrix: the second child is interpolated with the first child params (TestInterpolatedMatrixGenerate)', (t) => {
  const ws = workspaceFor(t, {
    'c.yaml': secrets(secret('east', 'https://east', { region: 'east' }), secret('west', 'https://west', { region: 'west' })),
  });
  const e = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list:\n              elements: [{region: east}]\n          - clusters:\n              selector:\n                matchLabels:\n                  region: '{{region}}'`,
      { name: '{{name}}' },
    ),
  );
  // The post-selector is built from the uninterpolated spec, but the cluster selector itself is rendered.
  assert.deepEqual(names(e), ['east']);
});

test('merge: base overridden by merge key, unmatched later sets dropped (merge_test.go TestMergeGenerate)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(
      `    - merge:\n        mergeKeys: [name]\n        generators:\n          - list:\n              elements: [{name: a, v: base}, {name: b, v: base}]\n          - list:\n              elements: [{name: b, v: over}, {name: c, v: dropped}]`,
      { name: '{{name}}-{{v}}' },
    ),
  );
  assert.deepEqual(names(e), ['a-base', 'b-over']);
  const dup = ws.expand(
    appset(
      `    - merge:\n        mergeKeys: [name]\n        generators:\n          - list:\n              elements: [{name: a}, {name: a}]\n          - list:\n              elements: [{name: a}]`,
    ),
  );
  assert.match(
    dup.problems[0].message,
    /^error getting param sets by merge key: the parameters from a generator were not unique by the given mergeKeys, Merge requires all param sets to be unique. Duplicate key was \{"name":"a"\}$/,
  );
});

test('post-selector on a generator (generator_spec_processor_test.go TestMatchValues)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(
      `    - list:\n        elements: [{name: a, tier: x}, {name: b, tier: y}, {name: c}]\n      selector:\n        matchExpressions:\n          - {key: tier, operator: NotIn, values: [x]}`,
    ),
  );
  assert.deepEqual(names(e), ['b', 'c'], 'NotIn matches when the key is absent');
});

test('rendering: default finalizer, preserveResourcesOnDeletion, namespace override (utils_test.go TestRenderTemplateParamsFinalizers)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(appset(`    - list:\n        elements: [{name: a}]`));
  const md = e.apps[0].app.metadata as Record<string, unknown>;
  assert.deepEqual(md.finalizers, ['resources-finalizer.argocd.argoproj.io']);
  assert.equal(md.namespace, 'argocd');
  const kept = ws.expand(
    appset(`    - list:\n        elements: [{name: a}]`, { extra: '  syncPolicy:\n    preserveResourcesOnDeletion: true\n' }),
  );
  assert.equal((kept.apps[0].app.metadata as Record<string, unknown>).finalizers, undefined);
  const empty = ws.expand(appset(`    - list:\n        elements: [{}]`, { name: 'fixed' }));
  assert.equal(
    (empty.apps[0].app.metadata as Record<string, unknown>).finalizers,
    undefined,
    'empty params skip rendering and the finalizer',
  );
});

test('rendering: duplicate names skip every copy; destination rules (applicationset_controller_test.go TestValidateGeneratedApplications)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(appset(`    - list:\n        elements: [{env: a}, {env: b}]`, { name: 'same' }));
  assert.equal(e.apps.length, 2);
  assert.ok(
    e.apps.every((a) =>
      a.invalid?.some(
        (m) => m.kind === 'duplicate-name' && m.message === 'ApplicationSet test contains applications with duplicate name: same',
      ),
    ),
  );
  // The generator/duplicate-name finding that says the controller skips them:
  // test/fixtures/rules/generator/duplicate-name.yaml.
});

// Template errors carry Argo CD text and point at the action in the YAML:
// test/fixtures/rules/template/missing-key.yaml.

test('templatePatch: lists replaced, project pinned (patch_test.go)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(`    - list:\n        elements: [{name: a, auto: "true"}]`, {
      goTemplate: true,
      extra: `  templatePatch: |\n    spec:\n      project: hacked\n      syncPolicy:\n        syncOptions: [CreateNamespace=true]\n    {{- if eq .auto "true" }}\n        automated: {prune: true}\n    {{- end }}\n`,
    }),
  );
  const spec = e.apps[0].app.spec as Record<string, Record<string, unknown>>;
  assert.equal(spec.project as unknown as string, 'default');
  assert.deepEqual(spec.syncPolicy, { syncOptions: ['CreateNamespace=true'], automated: { prune: true } });
});

test('generator-level template override merges with spec.template (template_test.go TestMergeTemplateApplications)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(
      `    - list:\n        elements: [{name: a}]\n        template:\n          metadata:\n            labels: {from: generator}\n          spec:\n            project: other\n            destination: {}`,
      { extra: '' },
    ).replace("      name: '{{name}}'", "      name: '{{name}}'\n      labels: {base: spec}"),
  );
  const md = e.apps[0].app.metadata as Record<string, Record<string, string>>;
  assert.deepEqual(md.labels, { base: 'spec', from: 'generator' });
  assert.equal((e.apps[0].app.spec as Record<string, unknown>).project, 'other');
});

test('a huge matrix stops at the cap with a diagnostic instead of freezing', (t) => {
  const ws = workspaceFor(t, {}, { maxApplications: 1000 });
  const t0 = Date.now();
  const e = ws.expand(hugeMatrix(300));
  assert.ok(e.capped);
  assert.ok(e.apps.length <= 1000);
  assert.ok(e.problems.some((p) => p.code === 'generator/too-many-applications'));
  assert.ok(Date.now() - t0 < 30000); // a hang guard, not a speed test
});

test('hostile keys stay plain keys', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(`    - list:\n        elements:\n          - name: a\n            __proto__: x\n            constructor: y`, {
      name: '{{name}}-{{__proto__}}-{{constructor}}',
    }),
  );
  assert.deepEqual(names(e), ['a-x-y']);
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('code lens over generators counts Applications and describes the matrix', (t) => {
  const ws = workspaceFor(t, {
    'c.yaml': secrets(secret('c1', 'https://c1', { env: 'prod' }), secret('c2', 'https://c2', { env: 'prod' })),
  });
  const lenses = ws.lenses(
    appset(
      `    - matrix:\n        generators:\n          - clusters: {selector: {matchLabels: {env: prod}}}\n          - list:\n              elements: [{service: a}, {service: b}, {service: c}]`,
      { name: '{{service}}-{{name}}' },
    ),
  );
  assert.ok(lenses.includes('6 Applications · 2 clusters × 3 services'), JSON.stringify(lenses));
});

test('a structural mistake is reported once, by validation, not again with the controller text', (t) => {
  const ws = workspaceFor(t);
  const d = ws.diagnostics(
    appset(
      `    - matrix:\n        generators:\n          - list: {elements: [{a: x}]}\n          - list: {elements: [{b: y}]}\n          - list: {elements: [{c: z}]}`,
    ),
  );
  assert.ok(
    d.some((x) => x.code === 'appset/matrix-children'),
    JSON.stringify(d),
  );
  assert.ok(!d.some((x) => x.code === 'generator/error'), JSON.stringify(d));
});
