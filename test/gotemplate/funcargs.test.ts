/**
 * How the executor checks and converts arguments of GoFunc-declared functions (Go's evalCall /
 * validateType), independent of the sprig library: a small local function map stands in for sprig
 * here, and the expected texts are the golden renderer's (cases gt/missing-as-string-arg,
 * gt/missing-piped-to-string-func, gt/null-as-string-arg, gt/math-div-by-zero, gt/missing-with-default-func-error
 * of ../shared/golden-render/expected.jsonl) or Go's own messages for the same calls.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate } from '../../server/src/gotemplate/parse';
import { execute, GoExecError, type MissingKey } from '../../server/src/gotemplate/exec';
import { builtinFuncs } from '../../server/src/gotemplate/builtins';
import type { GoFunc } from '../../server/src/gotemplate/funcs';
import { fromJSON, GoInt64, type GoValue } from '../../server/src/gotemplate/values';

const local = new Map<string, GoFunc>([
  ['upper', { params: ['string'], impl: (s) => (s as string).toUpperCase() }],
  ['lower', { params: ['string'], impl: (s) => (s as string).toLowerCase() }],
  ['default', { params: ['any'], variadic: 'any', impl: (d, ...g) => (g.length === 0 || g[0] === null || g[0] === '' ? d : g[0]) }],
  [
    'div',
    {
      params: ['any', 'any'],
      impl: (a, b) => {
        if (Number(b) === 0) throw new Error('runtime error: integer divide by zero');
        return new GoInt64(BigInt(Math.trunc(Number(a) / Number(b))));
      },
    },
  ],
  ['trunc', { params: ['int', 'string'], impl: (n, s) => (s as string).slice(0, Number(n)) }],
  ['seq', { params: ['list'], impl: (l) => (l as GoValue[]).length.toString() }],
]);
const builtins = builtinFuncs();
const P = fromJSON({ name: 'guestbook', nothing: null, replicas: 3, tags: ['a'] });

function run(text: string, missingKey: MissingKey = 'invalid'): string {
  const trees = parseTemplate(text, 'base', (n) => local.has(n) || builtins.has(n));
  try {
    return execute({ text, parseName: 'base', trees, funcs: local, builtins, missingKey }, 'base', P);
  } catch (e) {
    if (e instanceof GoExecError) return 'ERR ' + e.message;
    throw e;
  }
}

test('missing and null values against typed parameters (golden texts)', () => {
  assert.equal(run('{{ upper .missing }}'), 'ERR template: base:1:9: executing "base" at <.missing>: invalid value; expected string');
  assert.equal(run('{{ .missing | upper }}'), 'ERR template: base:1:14: executing "base" at <upper>: invalid value; expected string');
  assert.equal(
    run('{{ lower .nothing }}'),
    'ERR template: base:1:9: executing "base" at <.nothing>: wrong type for value; expected string; got interface {}',
  );
  assert.equal(
    run('{{ .missing | default "x" }}', 'error'),
    'ERR template: base:1:3: executing "base" at <.missing>: map has no entry for key "missing"',
  );
  assert.equal(run('{{ .missing | default "x" }}'), 'x');
});

test('function errors become "error calling NAME" at the command', () => {
  assert.equal(
    run('{{ div 1 0 }}'),
    'ERR template: base:1:3: executing "base" at <div 1 0>: error calling div: runtime error: integer divide by zero',
  );
});

/** Go's execution error for the one-line template "base": at column `col`, in the command `at`. */
const goErr = (col: number, at: string, msg: string) => `ERR template: base:1:${col}: executing "base" at <${at}>: ${msg}`;

test('argument counts and constant conversions follow Go', () => {
  for (const [template, want] of [
    ['{{ upper }}', goErr(3, 'upper', 'wrong number of args for upper: want 1 got 0')],
    ['{{ "a" | upper "b" }}', goErr(9, 'upper', 'wrong number of args for upper: want 1 got 2')],
    ['{{ default }}', goErr(3, 'default', 'wrong number of args for default: want at least 1 got 0')],
    ['{{ upper 3 }}', goErr(9, '3', 'expected string; found 3')],
    ['{{ trunc 2.5 "abc" }}', goErr(9, '2.5', 'expected integer; found 2.5')],
    ['{{ trunc 2 "abc" }}', 'ab'],
    ['{{ trunc .replicas "abc" }}', goErr(9, '.replicas', 'wrong type for value; expected int; got float64')],
    ['{{ seq 3 }}', goErr(7, '3', "can't handle 3 for arg of type []interface {}")],
    ['{{ upper nil }}', goErr(9, 'nil', 'cannot assign nil to string')],
    ['{{ seq .tags }}', '1'],
  ])
    assert.equal(run(template), want, template);
});
