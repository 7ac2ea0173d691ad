// Issue 38's probe through the CLI as a process: templates that build values past every sane size (a
// string doubled forty times, randAlphaNum 100,000,000, wrapWith, js, splitList, b64enc, seq, …) made
// `appset lint` abort (V8's "invalid size error", exit 133) or run for minutes at gigabytes. Each now
// ends in one `template/limit` finding at the call that would build too much, with a peak resident
// memory under a ceiling (measured by the process itself on exit); so does the Helm chart render.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, runCli, writeFiles } from '../helpers/cli';
import { HANG_GUARD_MS } from '../helpers/guard';
import { peakRssPreload, probeAppSet, probeChart, TEMPLATE_PROBES, type Peak } from '../helpers/templateProbes';

/** A few hundred MB: the CLI starts at about 60 MB; before, these inputs took 0.5–5.4 GB. */
const CEILING_MB = 300;

const { cli, work } = bundleCli('appset-bounds-');
after(() => fs.rmSync(work, { recursive: true, force: true }));
writeFiles(work, { '.git/HEAD': 'ref: refs/heads/main\n', ...probeChart() });

function run(args: string[], label: string): { code: number | null; out: string; err: string; peak: Peak } {
  const peakFile = path.join(work, `${label}.peak.json`);
  const r = runCli(cli, args, {
    cwd: work,
    nodeArgs: ['--require', peakRssPreload],
    env: { ...process.env, APPSET_PEAK_FILE: peakFile },
    timeout: HANG_GUARD_MS,
  });
  assert.equal(r.signal, null, `${label}: killed by ${r.signal}: ${r.err.slice(-500)}`);
  assert.ok(fs.existsSync(peakFile), `${label}: the process died (exit ${r.code}): ${r.err.slice(-500)}`);
  return { code: r.code, out: r.out, err: r.err, peak: JSON.parse(fs.readFileSync(peakFile, 'utf8')) as Peak };
}

for (const [name, [template, fn]] of Object.entries(TEMPLATE_PROBES)) {
  test(`appset lint on the ${name} probe: one template/limit at the ${fn} call, under ${CEILING_MB} MB`, (t) => {
    const file = `${name}.yaml`;
    writeFiles(work, { [file]: probeAppSet(name, template) });
    const r = run(['lint', file], name);
    assert.equal(r.code, 0, r.out + r.err);
    const line = r.out.split('\n').find((l) => l.includes('template/limit'));
    assert.ok(line, r.out);
    // Where: the call in the user's text (line 16 is the annotation), and which limit.
    assert.match(line, new RegExp(`^${file}:16:\\d+ warning template/limit .*error calling ${fn}: .*ApplicationSet Tools' limit`));
    t.diagnostic(`peak RSS ${Math.round(r.peak.maxRssMB)} MB, ${Math.round(r.peak.cpuMs)} ms of CPU`);
    assert.ok(r.peak.maxRssMB < CEILING_MB, `${name}: peak ${Math.round(r.peak.maxRssMB)} MB`);
  });
}

test(`appset render of a Helm chart template running the replace probe: said, under ${CEILING_MB} MB`, (t) => {
  const r = run(['render', 'charts/apps/templates/appset.yaml'], 'chart');
  assert.equal(r.code, 4, r.err);
  assert.match(
    r.err,
    /not rendered here: Helm's render cannot be reproduced here: line 1: .*error calling replace: .*ApplicationSet Tools' limit/,
  );
  t.diagnostic(`peak RSS ${Math.round(r.peak.maxRssMB)} MB, ${Math.round(r.peak.cpuMs)} ms of CPU`);
  assert.ok(r.peak.maxRssMB < CEILING_MB, `chart: peak ${Math.round(r.peak.maxRssMB)} MB`);
});
