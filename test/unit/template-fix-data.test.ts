// The "did you mean" fixes of a template that calls a function the library does not have read the
// function's name from the finding's data, set where the finding is made from the template error's
// reason — never from its message (ARCHITECTURE.md: problems are values, not text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyHost, getLanguageService, type EngineDiagnostic } from '@appset-tools/engine';
import { appsetHead, listOf, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';

const ls = getLanguageService({ host: emptyHost() });

function appset(name: string, withParams = true): string {
  return `${appsetHead('fixes')}  generators:\n${withParams ? listOf([{ cluster: 'prod' }]) : '    - list:\n        elements: []\n'}  template:\n    metadata:\n      name: '${name}'\n${MINIMAL_TEMPLATE_SPEC}`;
}

function fixesOf(text: string, code: string, reword?: string): { d: EngineDiagnostic; titles: string[] } {
  const a = ls.analyze(`mem://${Math.random()}.yaml`, text);
  const d = ls.diagnostics(a).find((x) => x.code === code);
  assert.ok(d, `no ${code} in ${JSON.stringify(ls.diagnostics(a).map((x) => [x.code, x.message]))}`);
  // The fixes do not depend on the words: a reworded message gives the same fixes.
  const given = reword === undefined ? d : { ...d, message: reword };
  return { d, titles: ls.codeActions(a, d.span, [given]).map((x) => x.title) };
}

test('an unknown function in a rendered template: its name travels as data, and the fixes read it', () => {
  const { d, titles } = fixesOf(appset('{{ lowr .cluster }}'), 'template/unknown-function', 'reworded');
  assert.deepEqual(d.data, { undefinedFunction: 'lowr' });
  assert.ok(titles.includes('Did you mean the function lower?'), JSON.stringify(titles));
});

test('an unknown function with no parameter set offline (parse only): the same data and fix', () => {
  const { d, titles } = fixesOf(appset('{{ lowr .cluster }}', false), 'template/unknown-function', 'reworded');
  assert.deepEqual(d.data, { undefinedFunction: 'lowr' });
  assert.ok(titles.includes('Did you mean the function lower?'), JSON.stringify(titles));
});

test("fasttemplate's {{cluster}} under goTemplate: the parameter fix from the finding's data", () => {
  const { d, titles } = fixesOf(appset('{{cluster}}'), 'template/fasttemplate-syntax', 'reworded');
  assert.equal((d.data as { undefinedFunction?: string }).undefinedFunction, 'cluster');
  assert.ok(titles.includes('Use .cluster (goTemplate parameters start with a dot)'), JSON.stringify(titles));
});

test('a finding without that data gets no function fix, whatever its message says', () => {
  const { d } = fixesOf(appset('{{ lowr .cluster }}'), 'template/unknown-function');
  const a = ls.analyze(`mem://${Math.random()}.yaml`, appset('{{ lowr .cluster }}'));
  const bare = { ...d, data: undefined, message: 'function "lowr" not defined' };
  assert.ok(!ls.codeActions(a, d.span, [bare]).some((x) => x.title.startsWith('Did you mean the function')));
});
