// Semantic checks the CRD cannot express. Behaviours come from Argo CD (cited per test) through
// ../shared/research/argocd-appset-semantics.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, codes, nestedMatrix, validateText } from './helpers';
import { replaceActions, templatePatchProblem } from '../../../../server/src/engine/validate/checks/spec';
import { seededRandom } from '../../../helpers/random';
import { qualifiedNameProblem } from '../../../../server/src/engine/validate/checks/selectors';

const strategy = (body: string) => appset(`  strategy:\n${body}`);

test('strategy.type other than AllAtOnce/RollingSync (progressive_sync.go IsRollingSyncStrategy is case-sensitive)', () => {
  const ds = validateText(strategy('    type: rollingSync\n    rollingSync:\n      steps: []\n'));
  assert.deepEqual(codes(ds), ['appset/strategy-type']);
  assert.equal(ds[0].text, 'rollingSync');
  assert.equal(ds[0].severity, 'warning');
  assert.match(ds[0].message, /did you mean "RollingSync"\?/);
  assert.deepEqual(validateText(strategy('    type: AllAtOnce\n')), []);
});

test('rollingSync without type RollingSync, and RollingSync without rollingSync, are ignored rollouts', () => {
  assert.deepEqual(codes(validateText(strategy('    rollingSync:\n      steps: []\n'))), ['appset/rolling-sync-ignored']);
  assert.deepEqual(codes(validateText(strategy('    type: RollingSync\n'))), ['appset/rolling-sync-ignored']);
  assert.deepEqual(codes(validateText(strategy('    type: AllAtOnce\n    rollingSync:\n      steps: []\n'))), [
    'appset/rolling-sync-ignored',
  ]);
});

test('rollingSync step operators: only In and NotIn (progressive_sync.go buildAppDependencyList)', () => {
  const ds = validateText(
    strategy(
      '    type: RollingSync\n    rollingSync:\n      steps:\n      - matchExpressions:\n        - key: env\n          operator: notin\n          values: [prod]\n        - key: env\n          operator: NotIn\n          values: [dev]\n',
    ),
  );
  assert.deepEqual(codes(ds), ['appset/step-operator']);
  assert.equal(ds[0].text, 'notin');
  assert.deepEqual(ds[0].data, { replacement: 'NotIn' });
});

test('maxUpdate strings: "<int>%" only; a quoted number means one at a time (GetScaledValueFromIntOrPercent)', () => {
  const step = (v: string) => strategy(`    type: RollingSync\n    rollingSync:\n      steps:\n      - maxUpdate: ${v}\n`);
  for (const ok of ['3', '0', '"25%"', '"0%"', '150%', '"-10%"']) assert.deepEqual(validateText(step(ok)), [], ok);
  const quoted = validateText(step('"3"'));
  assert.deepEqual(codes(quoted), ['appset/max-update']);
  assert.match(quoted[0].message, /treats as 1 \(one Application at a time\); write 3 without quotes/);
  assert.deepEqual(quoted[0].data, { replacement: '3' });
  for (const bad of ['"10.5%"', '" 10%"', 'abc', '"%"']) assert.deepEqual(codes(validateText(step(bad))), ['appset/max-update'], bad);
});

test('deletionOrder: AllAtOnce or Reverse, compared case-insensitively (IsDeletionOrderReversed)', () => {
  assert.deepEqual(validateText(strategy('    deletionOrder: reverse\n')), []);
  const ds = validateText(strategy('    deletionOrder: Reversed\n'));
  assert.deepEqual(codes(ds), ['appset/deletion-order']);
  assert.match(ds[0].message, /did you mean "Reverse"\?/);
});

test('goTemplateOptions: only the missingkey forms (Go text/template Option panics otherwise)', () => {
  const ds = validateText(appset('  goTemplateOptions: ["missingkey=error", "missingkey=nil", "strict"]\n', { goTemplate: true }));
  assert.deepEqual(codes(ds), ['appset/go-template-options', 'appset/go-template-options']);
  assert.deepEqual(
    ds.map((d) => d.text),
    ['"missingkey=nil"', '"strict"'],
  );
  assert.deepEqual(codes(validateText(appset('  goTemplateOptions: ["missingkey=error"]\n'))), ['appset/go-template-options-ignored']);
});

test('matrix needs exactly two children (matrix.go)', () => {
  const one = validateText(appset('', { generators: '  - matrix:\n      generators:\n      - list:\n          elements: []' }));
  assert.deepEqual(codes(one), ['appset/matrix-children']);
  assert.equal(one[0].text, 'generators');
  assert.match(one[0].message, /exactly two child generators, this one has 1/);
});

test('merge needs two children and mergeKeys (merge.go)', () => {
  const ds = validateText(
    appset('', { generators: '  - merge:\n      mergeKeys: []\n      generators:\n      - list:\n          elements: []' }),
  );
  assert.deepEqual(codes(ds), ['appset/merge-children', 'appset/merge-keys']);
  const missing = validateText(
    appset('', { generators: '  - merge:\n      generators:\n      - list:\n          elements: []\n      - clusters: {}' }),
  );
  assert.deepEqual(codes(missing), ['appset/missing-field']);
  assert.match(missing[0].message, /missing required field "mergeKeys" in the merge generator/);
});

test('matrix/merge children set exactly one generator kind (matrix.go "found more than one generator")', () => {
  const gens = `  - matrix:
      generators:
      - list:
          elements: []
        clusters: {}
      - selector:
          matchLabels: {a: b}`;
  const ds = validateText(appset('', { generators: gens }));
  assert.deepEqual(codes(ds), ['appset/child-generator-kinds', 'appset/child-generator-kinds']);
  assert.equal(ds[0].text, 'clusters');
  assert.match(ds[1].message, /sets no generator/);
});

test('a third nesting level is reported once, as nesting depth (ApplicationSetTerminalGenerator has no matrix)', () => {
  const gens = nestedMatrix(`          - merge:
              mergeKeys: [a]
              generators: []
          - list:
              elements: []
`);
  const ds = validateText(appset('', { generators: gens }));
  assert.deepEqual(codes(ds), ['appset/nesting-depth']);
  assert.equal(ds.find((d) => d.code === 'appset/nesting-depth')?.text, 'merge');
});

test('empty generator entries and entries with several kinds (generator_spec_processor.go GetRelevantGenerators)', () => {
  const ds = validateText(appset('', { generators: '  - {}\n  - list:\n      elements: []\n    clusters: {}' }));
  assert.deepEqual(codes(ds), ['appset/empty-generator', 'appset/multiple-generator-kinds']);
  assert.equal(ds.find((d) => d.code === 'appset/multiple-generator-kinds')?.severity, 'information');
  const nullEntry = validateText(appset('', { generators: '  -\n  - list:\n      elements: []' }));
  assert.deepEqual(codes(nullEntry), ['appset/wrong-type']);
  assert.match(nullEntry[0].message, /expected an object, got nothing \(null\)/);
});

test('post-selector: operators, values, keys (applicationset/utils/selector.go)', () => {
  const gens = `  - list:
      elements: []
    selector:
      matchLabels:
        "path[0]": x
      matchExpressions:
      - key: env
        operator: Equals
        values: [a]
      - key: env
        operator: In
        values: []
      - key: env
        operator: Exists
        values: [a]
      - key: values.cluster-name
        operator: DoesNotExist`;
  const ds = validateText(appset('', { generators: gens }));
  assert.deepEqual(codes(ds), ['appset/selector-key', 'appset/selector-operator', 'appset/selector-values', 'appset/selector-values']);
  assert.equal(ds.find((d) => d.code === 'appset/selector-key')?.text, '"path[0]"');
});

test('qualified names: prefix/name rules', () => {
  assert.equal(qualifiedNameProblem('metadata.labels.argocd.argoproj.io/secret-type'), undefined);
  assert.equal(qualifiedNameProblem('values.foo'), undefined);
  assert.match(qualifiedNameProblem('Foo.Bar/x') ?? '', /not a lowercase DNS subdomain/);
  assert.match(qualifiedNameProblem('a/b/c') ?? '', /more than one/);
  assert.match(qualifiedNameProblem('x'.repeat(64)) ?? '', /longer than 63/);
});

test('templatePatch: YAML or JSON syntax (template.go renderTemplatePatch), reported on the value', () => {
  const ds = validateText(appset('  templatePatch: |\n    spec:\n      project: [unclosed\n', { goTemplate: true }));
  assert.deepEqual(codes(ds), ['appset/template-patch-syntax']);
  assert.equal(ds[0].severity, 'error');
  assert.ok(ds[0].text.startsWith('|'));
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

test('applyNestedSelectors is deprecated (tagged)', () => {
  const ds = validateText(appset('  applyNestedSelectors: true\n'));
  assert.deepEqual(codes(ds), ['appset/deprecated-field']);
  assert.deepEqual(ds[0].tags, ['deprecated']);
});

test('the filters proposal field is an unknown field with an explanation', () => {
  const ds = validateText(appset('', { generators: "  - clusters:\n      filters:\n      - expr: 'x'" }));
  assert.deepEqual(codes(ds), ['appset/unknown-field']);
  assert.match(ds[0].message, /design proposal that was never implemented/);
});

test('YAML 1.1 booleans: unquoted yes in a boolean field (warning), no in a string field (error, kubectl makes it a boolean)', () => {
  const ds = validateText(
    appset('  goTemplate: yes\n').replace("name: '{{name}}'", "name: '{{name}}'\n      labels:\n        enabled: no\n        quoted: 'no'"),
  );
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.text]),
    [
      ['appset/yaml11-boolean', 'error', 'no'],
      ['appset/yaml11-boolean', 'warning', 'yes'],
    ].sort((a, b) => (a[2] < b[2] ? -1 : 1)),
  );
  // Free-form fields (list elements) are left alone.
  assert.deepEqual(validateText(appset('', { generators: '  - list:\n      elements:\n      - {name: a, enabled: yes}' })), []);
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
