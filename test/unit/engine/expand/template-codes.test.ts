/**
 * The Go template library's errors as the engine's findings: which code each TemplateError becomes
 * (expand/templateCodes.ts), and that every such code is registered. Moved from test/gotemplate, whose
 * tests use the template library only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderString, TemplateError, ALL_CODES } from '@appset-tools/engine';
import { templateErrorCode } from '../../../../server/src/engine/expand/templateCodes';

const P = { name: 'guestbook' };
const goErr = (t: string, params: object = P, options: string[] = []): TemplateError => {
  try {
    renderString(t, params as Record<string, unknown>, { goTemplate: true, options });
  } catch (e) {
    assert.ok(e instanceof TemplateError, String(e));
    return e;
  }
  assert.fail(`expected ${t} to fail`);
};

test('template errors map to their codes (missing key, unknown function, invalid option); every emitted code is registered', () => {
  const f = goErr('ok\n{{ .name }}\n{{ nosuch .x }}');
  assert.deepEqual(f.reason, { kind: 'undefined-function', name: 'nosuch' });
  assert.equal(templateErrorCode(f.kind, f.reason), 'template/unknown-function');
  const o = goErr('{{ .name }}', P, ['missingkey=bogus']);
  assert.equal(o.kind, 'option');
  assert.equal(templateErrorCode(o.kind, o.reason), 'template/invalid-option');
  const e = goErr('{{ .nope }}', P, ['missingkey=error']);
  const code = templateErrorCode(e.kind, e.reason);
  assert.equal(code, 'template/missing-key');
  for (const c of [
    'template/parse-error',
    'template/exec-error',
    'template/missing-key',
    'template/unknown-function',
    'template/invalid-option',
    'template/fasttemplate-unclosed',
    'template/non-deterministic',
  ])
    assert.ok(
      ALL_CODES.some((x) => x.code === c),
      c,
    );
});

test('the code follows the reason the library raised, not words in the message', () => {
  // A user's own `fail` text that reads like Go's missing-key error is still an execution error.
  const own = goErr('{{ fail "map has no entry for key" }}');
  assert.match(own.message, /map has no entry for key/);
  assert.equal(templateErrorCode(own.kind, own.reason), 'template/exec-error');
  // The reason of an error inside `tpl` travels up through the call that wrapped it.
  const nested = goErr('{{ tpl "{{ .nope }}" . }}', P, ['missingkey=error']);
  assert.deepEqual(nested.reason, { kind: 'missing-key' });
  assert.equal(templateErrorCode(nested.kind, nested.reason), 'template/missing-key');
  const field = goErr('{{ .name.Major }}');
  assert.deepEqual(field.reason, { kind: 'no-field', field: 'Major' });
});
