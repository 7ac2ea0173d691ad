/**
 * Bad input never crashes or hangs the template engine: random token soup (fixed seed) either
 * renders or fails with a TemplateError, quickly; huge inputs stay bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoHang } from '../helpers/guard';
import { renderString, renderValue, referencedParams, TemplateError } from '@appset-tools/gotemplate';

const TOKENS = [
  '{{',
  '}}',
  '{{-',
  '-}}',
  ' ',
  '\n',
  '.',
  '.a',
  '.b.c',
  '$',
  '$x',
  ':=',
  '=',
  '|',
  '(',
  ')',
  '"s"',
  '`r`',
  "'c'",
  '1',
  '-2.5',
  '0x1F',
  '1e3',
  'if',
  'else',
  'end',
  'range',
  'with',
  'define',
  'template',
  'block',
  'break',
  'continue',
  'nil',
  'true',
  'index',
  'len',
  'printf',
  'print',
  'eq',
  'lt',
  'and',
  'or',
  'not',
  'slice',
  'call',
  '"%d %s %v %q"',
  ',',
  '/*',
  '*/',
  'é',
  '\u{1F600}',
  '\\',
  '"',
  'html',
  'js',
  'urlquery',
  'x',
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test('random token soup renders or fails with TemplateError (goTemplate and fasttemplate)', () => {
  const r = rng(42);
  const params = { a: 'x', b: { c: [1, null, 'y'] }, n: 3, nothing: null };
  const t0 = Date.now();
  let errors = 0;
  for (let i = 0; i < 4000; i++) {
    const len = 1 + Math.floor(r() * 25);
    let t = '';
    for (let k = 0; k < len; k++) t += TOKENS[Math.floor(r() * TOKENS.length)];
    for (const goTemplate of [true, false]) {
      try {
        const out = renderString(t, params, { goTemplate });
        assert.equal(typeof out, 'string');
      } catch (e) {
        if (!(e instanceof TemplateError)) throw new Error(`non-TemplateError for ${JSON.stringify(t)}: ${(e as Error).stack}`);
        errors++;
      }
      assert.ok(Array.isArray(referencedParams(t, goTemplate)));
    }
  }
  assert.ok(errors > 0);
  assertNoHang(t0, '8,000 renders of token soup');
});

test('huge inputs stay bounded', () => {
  const t0 = Date.now();
  const big = '{{ .a }}'.repeat(50000);
  assert.equal(renderString(big, { a: 'x' }, { goTemplate: true }).length, 50000);
  const longText = 'x'.repeat(2_000_000) + '{{ .a }}';
  assert.equal(renderString(longText, { a: 'y' }, { goTemplate: true }).length, 2_000_001);
  const deep: unknown[] = [];
  let cur: unknown[] = deep;
  for (let i = 0; i < 900; i++) {
    const next: unknown[] = ['{{ .a }}'];
    cur.push(next);
    cur = next;
  }
  assert.ok(renderValue(deep, { a: 'z' }, { goTemplate: true }));
  for (let i = 0; i < 200; i++) {
    const next: unknown[] = [];
    cur.push(next);
    cur = next;
  }
  assert.throws(
    () => renderValue(deep, { a: 'z' }, { goTemplate: true }),
    (e) => e instanceof TemplateError && /nested deeper than 1000 levels/.test(e.message),
  );
  assertNoHang(t0, 'the huge inputs');
});

test('values nested thousands of levels deep end in a TemplateError, never a RangeError', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 20000; i++) deep = { a: deep };
  for (const t of ['{{ .x.a.a }}', '{{ toJson .x | len }}', '{{ toYaml .x }}', '{{ .x }}']) {
    assert.throws(
      () => renderString(t, { x: deep }, { goTemplate: true }),
      (e: unknown) => e instanceof TemplateError && /nested too deeply/.test(e.message),
      t,
    );
  }
  assert.throws(() => renderValue({ k: '{{ .x }}' }, { x: deep }, { goTemplate: true }), TemplateError);
});

test('the new sprig functions stay fast on hostile input (no quadratic or exponential paths)', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['{{ mustFromJson .j }}', { j: '['.repeat(20000) }],
    ['{{ fromJson .j }}', { j: '['.repeat(200000) }],
    ['{{ semverCompare .c "1.0.0" }}', { c: '1 ' + '1    '.repeat(5000) + '!' }],
    ['{{ semver .v }}', { v: '1.2.3-' + 'a.'.repeat(50000) + '!' }],
    ['{{ toDate .l .v }}', { l: '2006'.repeat(10000), v: '2024'.repeat(10000) + 'x' }],
    ['{{ urlParse .u }}', { u: 'http://h/' + '%41'.repeat(100000) }],
    ['{{ buildCustomCert .c .c }}', { c: Buffer.from('-----BEGIN X-----\n'.repeat(20000)).toString('base64') }],
    ['{{ fromYaml .y }}', { y: 'a: &a [*a, 1]' }],
    ['{{ wrap 3 .s }}', { s: 'ab '.repeat(100000) }],
  ];
  for (const [t, p] of cases) {
    const t0 = Date.now();
    try {
      renderString(t, p, { goTemplate: true });
    } catch (e) {
      assert.ok(e instanceof TemplateError, `${t}: ${(e as Error).message.slice(0, 100)}`);
    }
    assertNoHang(t0, t);
  }
});

test('fromJson of JSON nested deeper than our limit is one clear limit error, not a stack overflow; Go-sized JSON still reads', () => {
  const deep = (n: number) => `{{ $s := printf "%s1%s" (repeat ${n} "[") (repeat ${n} "]") }}{{ fromJson $s | toJson | len }}`;
  assert.equal(renderString(deep(1000), {}, { goTemplate: true }), String(2001));
  for (const n of [1001, 5000, 9999]) {
    for (const fn of ['fromJson', 'mustFromJson']) {
      assert.throws(
        () => renderString(deep(n).replace('fromJson', fn), {}, { goTemplate: true }),
        (e: unknown) =>
          e instanceof TemplateError &&
          /the JSON nests more than 1,000 levels deep \(ApplicationSet Tools' limit; Go reads up to 10,000 levels\)/.test(e.message) &&
          !/stack|RangeError/.test(e.message),
        `${fn} ${n}`,
      );
    }
  }
  // Past Go's own limit, Go's own error (fromJson swallows it and returns nil).
  assert.equal(renderString(deep(10001), {}, { goTemplate: true }), '4');
  // Deep values built by a loop, then walked: our limit, said as such.
  assert.throws(
    () =>
      renderString(
        '{{ $d := dict }}{{ range until 5000 }}{{ $d = dict "a" $d }}{{ end }}{{ $d | mustToJson | len }}',
        {},
        { goTemplate: true },
      ),
    (e: unknown) => e instanceof TemplateError && /nested too deeply to evaluate \(ApplicationSet Tools' limit/.test(e.message),
  );
});
