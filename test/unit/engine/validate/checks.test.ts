// Semantic checks the CRD cannot express: the helpers' internals. What each check finds, and where,
// is stated by the rule fixtures (test/fixtures/rules/appset/, test/unit/rule-fixtures.test.ts).
// Behaviours come from Argo CD (cited per fixture and test) through ../shared/research/argocd-appset-semantics.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, validateText } from './helpers';
import { replaceActions, templatePatchProblem } from '../../../../server/src/engine/validate/checks/spec';
import { seededRandom } from '../../../helpers/random';
import { qualifiedNameProblem } from '../../../../server/src/engine/validate/checks/selectors';

test("what a rule fixture does not state: the quick fixes' data and the editor's tag", () => {
  const strategy = (body: string) => appset(`  strategy:\n${body}`);
  const op = validateText(
    strategy(
      '    type: RollingSync\n    rollingSync:\n      steps:\n      - matchExpressions:\n        - key: env\n          operator: notin\n          values: [prod]\n',
    ),
  );
  assert.deepEqual(
    op.map((d) => [d.code, d.data]),
    [['appset/step-operator', { replacement: 'NotIn' }]],
  );
  const quoted = validateText(strategy('    type: RollingSync\n    rollingSync:\n      steps:\n      - maxUpdate: "3"\n'));
  assert.deepEqual(
    quoted.map((d) => [d.code, d.data]),
    [['appset/max-update', { replacement: '3' }]],
  );
  const field = validateText(
    appset('  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n      - matchExpressions: []\n        maxUpdates: 2\n'),
  );
  assert.deepEqual(
    field.map((d) => [d.code, d.data]),
    [['appset/unknown-field', { replacement: 'maxUpdate' }]],
  );
  const deprecated = validateText(appset('  applyNestedSelectors: true\n'));
  assert.deepEqual(
    deprecated.map((d) => [d.code, d.tags]),
    [['appset/deprecated-field', ['deprecated']]],
  );
});

test('qualified names: prefix/name rules', () => {
  assert.equal(qualifiedNameProblem('metadata.labels.argocd.argoproj.io/secret-type'), undefined);
  assert.equal(qualifiedNameProblem('values.foo'), undefined);
  assert.match(qualifiedNameProblem('Foo.Bar/x') ?? '', /not a lowercase DNS subdomain/);
  assert.match(qualifiedNameProblem('a/b/c') ?? '', /more than one/);
  assert.match(qualifiedNameProblem('x'.repeat(64)) ?? '', /longer than 63/);
});

test('templatePatch: YAML or JSON syntax (template.go renderTemplatePatch)', () => {
  // The finding on the value: test/fixtures/rules/appset/template-patch-syntax.yaml.
  assert.match(templatePatchProblem('{"spec": }')?.message ?? '', /read as JSON, but it is not valid JSON/);
  assert.match(templatePatchProblem('- a\n- b\n')?.message ?? '', /must be a mapping/);
  // Template actions: checked with actions left out; valid patches stay quiet.
  assert.equal(templatePatchProblem('{{- if .autoSync }}\nspec:\n  syncPolicy:\n    automated: {}\n{{- end }}\n'), undefined);
  assert.equal(
    templatePatchProblem(
      'spec:\n  source:\n    helm:\n      valueFiles:\n      {{- range $f := .files }}\n        - {{ $f }}\n      {{- end }}\n',
    ),
    undefined,
  );
  assert.equal(templatePatchProblem('{"spec": {"project": "{{ .p }}"}}'), undefined);
  const approx = templatePatchProblem('{{ if .x }}\nspec:\n  a: [b\n{{ end }}');
  assert.equal(approx?.approximate, true);
});

test('a long templatePatch line of actions ending in text is checked in linear time (fuzz-found freeze)', () => {
  const line = '{{ $d := dict "x" "y" }}' + '{{ $d = dict "a" $d "b" $d }}'.repeat(40) + 'x';
  const t0 = Date.now();
  const problem = templatePatchProblem(line);
  assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
  assert.match(problem?.message ?? '', /templatePatch/);
});

test("the templatePatch check's action scan equals /\\{\\{.*?\\}\\}/g on generated lines, without its rescan", () => {
  const parts = ['{', '}', '{{', '}}', 'a', ' ', '\r', '\u2028', '{{ a'];
  const rnd = seededRandom(25);
  for (let n = 0; n < 20_000; n++) {
    let line = '';
    for (let k = Math.floor(rnd() * 12); k > 0; k--) line += parts[Math.floor(rnd() * parts.length)];
    assert.equal(replaceActions(line, 'x'), line.replace(/\{\{.*?\}\}/g, 'x'), JSON.stringify(line));
  }
});
