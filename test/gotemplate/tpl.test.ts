/**
 * `tpl` as Argo CD 3.6 defines it (PR #26614: applicationset/utils/template_functions.go `tplFun`,
 * utils.go `withTplFunc`, and their tests in utils_test.go / template_test.go at argo-cd
 * refs/pull/26614/merge): the text is parsed as a clone of the calling template (same functions,
 * options and defined templates, same name), executed with the given data, `<no value>` dropped;
 * nested calls stop at depth 3; errors are wrapped as Argo CD wraps them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderString, TemplateError } from '@appset-tools/gotemplate';

const render = (t: string, params: Record<string, unknown>, options: string[] = []) =>
  renderString(t, params, { goTemplate: true, options });
const failure = (t: string, params: Record<string, unknown>, options: string[] = []) => {
  try {
    render(t, params, options);
  } catch (e) {
    assert.ok(e instanceof TemplateError);
    return e.message;
  }
  assert.fail(`${t} rendered`);
};

test('tpl renders a string with the data it is given', () => {
  assert.equal(render('{{ tpl .t . }}', { t: 'hello {{ .name }}', name: 'world' }), 'hello world');
  assert.equal(render('{{ tpl .t .inner }}', { t: '{{ .a }}-{{ .b }}', inner: { a: 1, b: 'x' } }), '1-x');
  assert.equal(render('{{ tpl "{{ . | upper }}" .name }}', { name: 'abc' }), 'ABC', 'sprig functions, any dot');
  assert.equal(render('{{ tpl "" . }}|', {}), '|');
});

test('"<no value>" becomes "" (also text that spells it); missingkey=error still fails', () => {
  assert.equal(render('[{{ tpl "{{ .nope }}" . }}]', { a: 1 }), '[]');
  assert.equal(render('[{{ tpl "<no value>x" . }}]', {}), '[x]');
  assert.equal(
    failure('{{ tpl "{{ .nope }}" . }}', { a: 1 }, ['missingkey=error']),
    'failed to execute go template {{ tpl "{{ .nope }}" . }}: template: base:1:3: executing "base" at <tpl "{{ .nope }}" .>: error calling tpl: error during tpl function execution for "{{ .nope }}": template: base:1:3: executing "base" at <.nope>: map has no entry for key "nope"',
  );
});

test("the text sees the calling template's defined templates", () => {
  assert.equal(render('{{ define "x" }}X{{ end }}{{ tpl "{{ template \\"x\\" }}-{{ . }}" "d" }}', {}), 'X-d');
});

test('a parse error names the text', () => {
  assert.equal(
    failure('{{ tpl "{{ .bad" . }}', {}),
    'failed to execute go template {{ tpl "{{ .bad" . }}: template: base:1:3: executing "base" at <tpl "{{ .bad" .>: error calling tpl: cannot parse template "{{ .bad": template: base:1: unclosed action',
  );
});

test('nested calls stop at depth 3; calls one after another do not add up', () => {
  const msg = failure('{{ tpl .t . }}', { t: '{{ tpl .t . }}' });
  assert.equal((msg.match(/error during tpl function execution/g) ?? []).length, 3);
  assert.match(msg, /error calling tpl: maximum recursion depth 3 exceeded in tpl function$/);
  // Three levels are allowed.
  assert.equal(render('{{ tpl .a . }}', { a: '{{ tpl .b . }}', b: '{{ tpl .c . }}', c: 'deep' }), 'deep');
  assert.equal(render('{{ tpl "a" . }}{{ tpl "b" . }}{{ tpl "c" . }}{{ tpl "d" . }}', {}), 'abcd');
});

test('tpl exists from Argo CD 3.6: a release without it fails to parse', () => {
  assert.throws(
    () => renderString('{{ tpl "x" . }}', { a: 1 }, { goTemplate: true, missingFunctions: ['tpl'] }),
    /failed to parse template \{\{ tpl "x" \. \}\}: template: base:1: function "tpl" not defined/,
  );
});

test("the text's steps and work count against the calling template's limits", () => {
  assert.equal(render('{{ tpl "{{ range until 2000 }}x{{ end }}" . }}', {}).length, 2000);
  // 600 × 2,000 iterations: as many steps as the same loops written inline, which the step limit stops.
  const inline = failure('{{ range until 600 }}{{ range until 2000 }}x{{ end }}{{ end }}', {});
  assert.match(inline, /execution exceeds 1000000 steps \(ApplicationSet Tools' limit\)$/);
  const viaTpl = failure('{{ range until 600 }}{{ tpl "{{ range until 2000 }}x{{ end }}" . }}{{ end }}', {});
  assert.match(
    viaTpl,
    /error calling tpl: error during tpl function execution for .*execution exceeds 1000000 steps \(ApplicationSet Tools' limit\)$/,
  );
});
