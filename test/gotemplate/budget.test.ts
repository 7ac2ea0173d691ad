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
