/**
 * Template engine behaviour beyond the golden corpus: Go 1.26 features the Go 1.19 golden
 * renderer cannot produce (expectations follow Go 1.26's text/template sources: exec.go walkRange
 * and parse.go parseControl), error positions, static analysis, options, bounds and caching.
 */
import { test } from 'node:test';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import assert from 'node:assert/strict';
import { assertNoHang } from '../helpers/guard';
import {
  renderString,
  renderValue,
  referencedParams,
  validateOptions,
  TemplateError,
  NON_DETERMINISTIC_FUNCTIONS,
} from '@appset-tools/gotemplate';
import { templateFuncs } from '../../server/src/gotemplate/funcmap';
import { parseCount } from '../../server/src/gotemplate/api';
import { formatFloat } from '../../server/src/gotemplate/floatfmt';
import { sprintf, formatValue } from '../../server/src/gotemplate/format';
import { GoMap, GoStringMap, GoInt64 } from '../../server/src/gotemplate/values';
import { runTemplate } from '../../server/src/cli/template';
import type { CliIO } from '../../server/src/cli/io';

const P = { name: 'guestbook', tags: ['a', 'b', 'c'], n: 3, m: { b: 2, a: 'x' }, nothing: null };
const go = (t: string, params: object = P, options: string[] = []) =>
  renderString(t, params as Record<string, unknown>, { goTemplate: true, options });
const goErr = (t: string, params: object = P, options: string[] = []): TemplateError => {
  try {
    go(t, params, options);
  } catch (e) {
    assert.ok(e instanceof TemplateError, String(e));
    return e;
  }
  assert.fail(`expected ${t} to fail`);
};

test('Go 1.23+ `else with` chains (parse.go parseControl)', () => {
  assert.equal(go('{{ with .missing }}a{{ else with .name }}<{{ . }}>{{ else }}c{{ end }}'), '<guestbook>');
  assert.equal(go('{{ with .missing }}a{{ else with .nope }}b{{ else }}c{{ end }}'), 'c');
});

test('Go 1.22+ range over an int (exec.go walkRange)', () => {
  assert.equal(go('{{ range 3 }}{{ . }}{{ end }}'), '012');
  assert.equal(go('{{ range $i := 2 }}[{{ $i }}]{{ end }}'), '[0][1]');
  assert.equal(go('{{ range 0 }}x{{ else }}none{{ end }}'), 'none');
  assert.equal(go('{{ range (len .tags) }}{{ . }}{{ end }}'), '012');
  assert.match(goErr('{{ range $i, $j := 3 }}{{ end }}').message, /can't use 3 to iterate over more than one variable$/);
  assert.match(goErr('{{ range .n }}{{ end }}').message, /range can't iterate over 3$/);
});

test('range with assignment keeps the last index and element (Go 1.26 exec.go)', () => {
  assert.equal(go('{{ $i := 0 }}{{ $v := "" }}{{ range $i, $v = .tags }}{{ end }}{{ $i }}{{ $v }}'), '2c');
  assert.equal(go('{{ $v := "" }}{{ range $v = .tags }}{{ end }}{{ $v }}'), 'c');
});

test('comparison errors carry Go 1.26 detail', () => {
  assert.match(goErr('{{ eq .n 3 }}').message, /error calling eq: incompatible types for comparison: float64 and int$/);
  assert.match(goErr('{{ lt .name 3 }}').message, /error calling lt: incompatible types for comparison: string and int$/);
});

test('exec errors point at the failing node (offset/length in the template string)', () => {
  const t = 'x {{ .name }} {{ .nope.child | printf "%s" }}';
  const e = goErr('prefix\n  {{ upperx }}'.replace('upperx', 'len 1 2'));
  assert.equal(e.kind, 'exec');
  const e2 = goErr(t, P, ['missingkey=error']);
  assert.equal(e2.kind, 'exec');
  assert.equal(t.slice(e2.offset!, e2.offset! + e2.length!), '.nope.child');
  assert.match(
    e2.message,
    /^failed to execute go template .*: template: base:1:22: executing "base" at <\.nope\.child>: map has no entry for key "nope"$/,
  );
  assert.equal(e.message.includes('base:2:5:'), true, e.message);
});

test('exec error columns count bytes like Go', () => {
  const e = goErr('é€ {{ .a.b.c }}', { a: null });
  // Go reports a field chain at its second field: ".b" starts at byte 11 ("é" 2 bytes, "€" 3).
  assert.match(e.message, /base:1:11: executing "base" at <\.a\.b\.c>: nil pointer evaluating interface \{\}\.b$/);
});

test('parse errors carry the line and the offending token position', () => {
  const t = 'ok\n{{ .name }}\n{{ nosuch .x }}';
  const e = goErr(t);
  assert.equal(e.kind, 'parse');
  assert.equal(e.message, `failed to parse template ${t}: template: base:3: function "nosuch" not defined`);
  assert.equal(t.slice(e.offset!, e.offset! + e.length!), 'nosuch');
  const u = goErr('{{ if .x }}');
  assert.equal(u.message, 'failed to parse template {{ if .x }}: template: base:1: unexpected EOF');
});

test('goTemplateOptions: last missingkey wins; invalid options are reported', () => {
  assert.equal(go('{{ .nope }}', P, ['missingkey=error', 'missingkey=default']), '<no value>');
  assert.deepEqual(validateOptions(['missingkey=zero', 'missingkey=Error', 'foo']), ['missingkey=Error', 'foo']);
  const e = goErr('{{ .name }}', P, ['missingkey=bogus']);
  assert.equal(e.kind, 'option');
});

test('map[string]string params (cluster labels): missing keys index to ""', () => {
  const labels = new GoStringMap([['env', 'prod']]);
  const params = new GoMap([['metadata', new GoMap([['labels', labels]])]]);
  assert.equal(
    renderString('[{{ index .metadata.labels "nope" }}][{{ .metadata.labels.nope }}]', params, { goTemplate: true }),
    '[][<no value>]',
  );
  assert.equal(renderString('[{{ .metadata.labels.nope }}]', params, { goTemplate: true, options: ['missingkey=zero'] }), '[]');
  assert.match(
    (() => {
      try {
        return renderString('{{ .metadata.labels.env.x }}', params, { goTemplate: true });
      } catch (e) {
        return (e as Error).message;
      }
    })(),
    /can't evaluate field x in type string$/,
  );
});

test('hostile keys stay plain data (params and rendered object keys)', () => {
  const params = JSON.parse('{"__proto__": "p", "constructor": "c", "name": "n"}');
  assert.equal(go('{{ index . "__proto__" }}-{{ .constructor }}', params), 'p-c');
  const out = renderValue(JSON.parse('{"{{ index . \\"__proto__\\" }}": "v", "__proto__": {"x": "{{ .name }}"}}'), params, {
    goTemplate: true,
  }) as Record<string, unknown>;
  assert.deepEqual(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(out, 'p')?.value, 'v');
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { x: 'n' });
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('bounded: template recursion, huge ranges, huge output and deep nesting end with an error fast', () => {
  const t0 = Date.now();
  assert.match(
    goErr('{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}').message,
    /exceeded maximum template depth \(100000\)$/,
  );
  assert.match(goErr('{{ range 100000000 }}{{ end }}').message, /execution exceeds \d+ steps \(ApplicationSet Tools' limit\)$/);
  assert.match(
    goErr(
      '{{ define "d" }}{{ . }}{{ . }}{{ . }}{{ . }}{{ end }}{{ range 900000 }}{{ template "d" "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }}{{ end }}',
    ).message,
    /(output exceeds \d+ characters|units of work) \(ApplicationSet Tools' limit/,
  );
  assert.match(goErr('{{ ' + '('.repeat(5000) + '1' + ')'.repeat(5000) + ' }}').message, /max expression depth exceeded$/);
  const doubling = Array.from(
    { length: 40 },
    (_, i) => `{{ define "t${i + 1}" }}{{ template "t${i}" }}{{ template "t${i}" }}{{ end }}`,
  ).join('');
  assert.match(
    goErr(`{{ define "t0" }}{{ end }}${doubling}{{ template "t40" }}`).message,
    /execution exceeds \d+ steps \(ApplicationSet Tools' limit\)$/,
  );
  const deepIf = '{{ if 1 }}'.repeat(20000) + '{{ end }}'.repeat(20000);
  assert.ok(goErr(deepIf).kind === 'parse');
  assertNoHang(t0, 'the bounded templates');
});

test('parsed templates are cached: rendering 20000 strings parses each of the 50 templates once', () => {
  const templates = Array.from(
    { length: 50 },
    (_, i) => `{{ .name }}-${i}-{{ if .n }}{{ index .tags 1 }}{{ end }}-{{ range .tags }}{{ . }}{{ end }}-cache-test`,
  );
  const before = parseCount();
  const first = templates.map((t) => go(t));
  for (let k = 0; k < 399; k++) templates.forEach((t, i) => assert.equal(go(t), first[i]));
  assert.equal(parseCount() - before, 50);
});

test('the parse cache keeps a template used all along while many others come and go', () => {
  // A hit is moved to the newest end only when it is in the older half (api.ts parseCached): a template
  // used between thousands of new ones (more than the cache holds) must never be parsed again.
  const hot = '{{ .name }}-hot-cache-test';
  assert.equal(go(hot), 'guestbook-hot-cache-test');
  const before = parseCount();
  for (let i = 0; i < 6000; i++) {
    assert.equal(go(`{{ .n }}-${i}-cold-cache-test`), `3-${i}-cold-cache-test`);
    if (i % 7 === 0) assert.equal(go(hot), 'guestbook-hot-cache-test');
  }
  assert.equal(parseCount() - before, 6000);
});

test('the parse cache keeps no text a template was sliced from (in the language server: a whole YAML document)', () => {
  // V8 keeps a whole string alive while a slice of it lives: cached templates must hold their own copy.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 100; i++) {
    // A 1 MB "document" with one template string in it; the template is a slice of the document.
    const doc = `${'#'.repeat(1_000_000)}\nname: '{{ .name }}-${i}-retention-test'\n`;
    const template = doc.slice(doc.indexOf("'") + 1, doc.lastIndexOf("'"));
    assert.equal(go(template), `guestbook-${i}-retention-test`);
    // The cache hit path keeps the stored key too.
    assert.equal(go(doc.slice(doc.indexOf("'") + 1, doc.lastIndexOf("'"))), `guestbook-${i}-retention-test`);
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  // With the documents kept: 100 MB.
  assert.ok(grown < 30 * 1024 * 1024, `the heap grew by ${(grown / 1048576).toFixed(0)} MiB`);
});

test('referencedParams: field chains, $, index with constant keys, with scopes; ranges hide dot', () => {
  const t =
    '{{ .a.b }} {{ index .path.segments 1 }} {{ with .m }}{{ .x }}{{ end }}{{ range .tags }}{{ .y }}{{ $.z }}{{ end }}{{ $q := .q }}{{ $q.r }}';
  const refs = referencedParams(t, true);
  assert.deepEqual(
    refs.map((r) => r.path.join('.')),
    ['a.b', 'path.segments.1', 'm', 'm.x', 'tags', 'z', 'q', 'q.r'],
  );
  const ab = refs[0];
  assert.equal(t.slice(ab.offset, ab.offset + ab.length), '.a.b');
  assert.deepEqual(
    referencedParams('{{ index . "metadata" "labels" "tier" }}', true).map((r) => r.path),
    [['metadata', 'labels', 'tier']],
  );
  assert.deepEqual(
    referencedParams('{{ .broken', true).map((r) => r.path),
    [['broken']],
  );
  const fast = referencedParams('x {{  path.basename }} {{}} {{ name}}', false);
  assert.deepEqual(
    fast.map((r) => r.path),
    [['path.basename'], ['name']],
  );
  assert.equal('x {{  path.basename }} {{}} {{ name}}'.slice(fast[0].offset, fast[0].offset + fast[0].length), 'path.basename');
});

test('non-deterministic functions are listed from the function map', () => {
  for (const name of NON_DETERMINISTIC_FUNCTIONS) assert.equal(templateFuncs().get(name)?.nonDeterministic, true, name);
  if (templateFuncs().has('now')) {
    const report = { nonDeterministic: new Set<string>() };
    renderString('{{ now | date "2006" }}{{ .name }}', P, { goTemplate: true }, report);
    assert.ok(report.nonDeterministic.has('now'));
  }
});

test('float formatting follows strconv.FormatFloat (shortest and fixed, half-even on exact values)', () => {
  assert.equal(formatFloat(1000000, 'g', -1), '1e+06');
  assert.equal(formatFloat(123456789012, 'g', -1), '1.23456789012e+11');
  assert.equal(formatFloat(0.00001, 'g', -1), '1e-05');
  assert.equal(formatFloat(2.5, 'f', 0), '2');
  assert.equal(formatFloat(3.5, 'f', 0), '4');
  assert.equal(formatFloat(0.125, 'f', 2), '0.12');
  assert.equal(formatFloat(1e21, 'f', -1), '1000000000000000000000');
  assert.equal(formatFloat(100, 'g', 5), '100');
  assert.equal(formatFloat(-0, 'g', -1), '-0');
  assert.equal(sprintf('%v|%d|%5.1f|%x|%s', [new GoInt64(7n), 3n, 2.25, 'hi', null]), '7|3|  2.2|6869|%!s(<nil>)');
  assert.equal(
    formatValue(
      new GoMap([
        ['b', [1, null]],
        ['a', true],
      ]),
    ),
    'map[a:true b:[1 <nil>]]',
  );
});

function captureIO(stdin = ''): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out(s: string) {
      io.stdout += s;
    },
    err(s: string) {
      io.stderr += s;
    },
    readStdin: async () => stdin,
    async *stdinLines() {
      for (const l of stdin.split('\n')) yield l;
    },
    cwd: process.cwd(),
  };
  return io;
}

test('appset template for a person: result, error (exit 1), usage (exit 2)', async () => {
  let io = captureIO();
  assert.equal(await runTemplate(['{{ .name | printf "%s!" }}', '--params', '{"name":"x"}', '--go-template'], io), 0);
  assert.equal(io.stdout, 'x!\n');
  io = captureIO();
  assert.equal(await runTemplate(['{{ .nope }}', '--params={"name":"x"}', '--go-template', '--option', 'missingkey=error'], io), 1);
  assert.match(io.stderr, /map has no entry for key "nope"/);
  io = captureIO();
  assert.equal(await runTemplate(['{{name}}', '--params', '{"name":"fast"}'], io), 0);
  assert.equal(io.stdout, 'fast\n');
  io = captureIO();
  assert.equal(await runTemplate(['--params', '[1]', 'x'], io), 2);
  io = captureIO('{"id":"a","goTemplate":true,"template":{"k":"{{ .v }}"},"params":{"v":1e6}}\n');
  assert.equal(await runTemplate(['--jsonl'], io), 0);
  assert.deepEqual(JSON.parse(io.stdout), { id: 'a', result: { k: '1e+06' } });
});
