// Template work is budgeted by what it builds and prints, not by steps (issue 16): thirty doublings
// of a shared dict are thirty steps, yet toJson/toYaml/print/deepCopy of it would write 2^30 nodes.
// Each case runs in a child process with a 384 MB heap and a hang guard, so a regression shows as a
// failed assertion, not a dead test runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { HANG_GUARD_MS } from '../helpers/guard';

const lib = path.resolve(__dirname, '../../server/src/gotemplate/index.ts');

function renderInChild(template: string, bounded = true): { message: string; ms: number; status: number | null; signal: string | null } {
  const script = `
    const { renderString, setTemplateLimits } = require(${JSON.stringify(lib)});
    setTemplateLimits(${bounded});
    const t0 = Date.now();
    let message = 'rendered';
    try { const out = renderString(${JSON.stringify(template)}, {}, { goTemplate: true }); message = 'rendered ' + out.length; } catch (e) { message = e.message; }
    process.stdout.write(JSON.stringify({ message, ms: Date.now() - t0 }));
  `;
  const r = spawnSync(process.execPath, ['--max-old-space-size=384', '--import', 'tsx', '-e', script], {
    encoding: 'utf8',
    timeout: HANG_GUARD_MS,
  });
  const parsed = r.stdout ? JSON.parse(r.stdout) : { message: r.stderr.slice(-500), ms: -1 };
  return { ...parsed, status: r.status, signal: r.signal };
}

const doubled = (build: string, n = 30) => `{{ $d := ${build} }}` + '{{ $d = dict "a" $d "b" $d }}'.repeat(n);

const CASES: [string, string][] = [
  ['toJson', doubled('dict "x" "y"') + '{{ toJson $d }}'],
  ['toYaml', doubled('dict "x" "y"') + '{{ toYaml $d }}'],
  ['toPrettyJson', doubled('dict "x" "y"') + '{{ toPrettyJson $d }}'],
  ['print', doubled('dict "x" "y"') + '{{ print $d }}'],
  ['printf %v', doubled('dict "x" "y"') + '{{ printf "%v" $d }}'],
  ['deepCopy', doubled('dict "x" "y"') + '{{ $c := deepCopy $d }}ok'],
  ['list doubling + toJson', '{{ $l := list 1 }}' + '{{ $l = list $l $l }}'.repeat(30) + '{{ toJson $l }}'],
  ['append loop', '{{ $l := list }}{{ range until 200000 }}{{ $l = append $l . }}{{ end }}{{ len $l }}'],
  ['big strings shared', '{{ $s := repeat 100000 "x" }}{{ $l := list $s }}' + '{{ $l = list $l $l }}'.repeat(20) + '{{ print $l }}'],
];

for (const [name, template] of CASES) {
  test(`${name} over a shared structure stops with the work limit, within a small heap`, () => {
    const r = renderInChild(template);
    assert.equal(r.signal, null, r.message);
    assert.equal(r.status, 0, r.message);
    assert.match(r.message, /ApplicationSet Tools' limit/);
  });
}

test("the limit leaves ordinary templates alone and can be lifted (the CLI's --no-limits)", () => {
  assert.equal(renderInChild(doubled('dict "x" "y"', 8) + '{{ len (toJson $d) }}').message, 'rendered 4');
  const lifted = renderInChild('{{ $l := list }}{{ range until 20000 }}{{ $l = append $l . }}{{ end }}{{ len $l }}', false);
  assert.equal(lifted.message, 'rendered 5');
  assert.match(
    renderInChild('{{ $l := list }}{{ range until 20000 }}{{ $l = append $l . }}{{ end }}{{ len $l }}').message,
    /ApplicationSet Tools' limit/,
  );
});

// Issue 38: what functions build is charged, before building where the size is known, under one
// limit on any single value; a bound that is reached is said, never a silent cut.
const BUILT: [string, string, RegExp][] = [
  [
    'replace doubling forty times (V8 aborted at 1.4 GB)',
    '{{ $x := "xxxxxxxx" }}{{ range until 40 }}{{ $x = replace "x" "xx" $x }}{{ end }}',
    /executing "base" at <replace "x" "xx" \$x>: error calling replace: .*ApplicationSet Tools' limit/,
  ],
  [
    'randAlphaNum of 100,000,000',
    '{{ randAlphaNum 100000000 }}',
    /error calling randAlphaNum: this would build a string of 100,000,000 characters; one value may hold at most 4,194,304 \(ApplicationSet Tools' limit; Argo CD has none, and appset --no-limits raises it\)$/,
  ],
  ['repeat', '{{ repeat 100000000 "xxxxxxxx" | len }}', /error calling repeat: this would build a string of 800,000,000 characters/],
  [
    'seq (was cut at 1,000,001 numbers without a word)',
    '{{ seq 1 10000000 | len }}',
    /error calling seq: this would build a string of 90,000,000 characters/,
  ],
  [
    'until',
    '{{ until 100000000 | len }}',
    /error calling until: this would build a list of 100,000,000 elements; one value may hold at most 1,048,576/,
  ],
  ['splitList', '{{ splitList "" (repeat 2000000 "xx") | len }}', /error calling splitList: this would build a list of 4,000,000 elements/],
  ['indent', '{{ indent 1000000 (repeat 100 "\\n") | len }}', /error calling indent: this would build a string of 101,000,100 characters/],
  [
    'wrapWith',
    '{{ wrapWith 1 "yyyyyyyyyyyyyyyy" (repeat 1000000 "x") | len }}',
    /error calling wrapWith: this would build a string of at least 4,194,3\d\d characters/,
  ],
  ['printf widths', '{{ printf (repeat 100 "%1000000[1]d") 1 | len }}', /error calling printf: .*ApplicationSet Tools' limit/],
  [
    'regexFindAll (was cut at 100,001 matches without a word)',
    '{{ regexFindAll "x" (repeat 300000 "x") -1 | len }}',
    /error calling regexFindAll: .*ApplicationSet Tools' limit/,
  ],
  [
    'join',
    '{{ $l := list }}{{ $x := repeat 1000000 "x" }}{{ range until 100 }}{{ $l = append $l $x }}{{ end }}{{ join "," $l | len }}',
    /error calling join: this would build a string of 100,000,099 characters/,
  ],
];

BUILT.push([
  'uniq (quadratic, as sprig)',
  '{{ uniq (until 100000) | len }}',
  /error calling uniq: the values this template builds or prints exceed 250,000 units of work/,
]);

for (const [name, template, message] of BUILT) {
  test(`${name}: stops before building, with the limit said at the call`, () => {
    const r = renderInChild(template);
    assert.equal(r.signal, null, r.message);
    assert.equal(r.status, 0, r.message);
    assert.match(r.message, message);
  });
}

test('values under the limit are built as Go builds them; --no-limits raises the value limit but keeps one', () => {
  assert.equal(renderInChild('{{ seq 1 200000 | len }}').message, 'rendered 7');
  assert.equal(renderInChild('{{ repeat 3000000 "x" | len }}').message, 'rendered 7');
  assert.equal(renderInChild('{{ repeat 10000000 "x" | len }}', false).message, 'rendered 8');
  assert.match(
    renderInChild('{{ repeat 200000000 "x" | len }}', false).message,
    /error calling repeat: this would build a string of 200,000,000 characters; one value may hold at most 134,217,728 \(ApplicationSet Tools' limit, kept under --no-limits so that the process cannot crash\)$/,
  );
});
