// Issue 38's probe through the built language server over stdio: a template that doubled a string
// forty times killed the server (V8's "invalid size error"), and reopening the file after the restart
// killed it again; randAlphaNum 100,000,000 held every answer for two minutes. Every probe document
// now gets its `template/limit` finding, the preview of each answers, so does the preview of a Helm
// chart running the same template, the server stays alive and answers hovers, and its peak resident
// memory (written by the process on exit) stays under a ceiling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertAnswersHover, messageOf, startServer, stopStdio } from './client';
import { peakRssPreload, probeAppSet, probeChart, TEMPLATE_PROBES, type Peak } from '../helpers/templateProbes';
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';
import { Requests, type PreviewResult } from '@appset-tools/protocol';

/** A few hundred MB: the idle server holds about 60 MB; before, one probe took it past 1.4 GB and killed it. */
const CEILING_MB = 400;

const SMALL = `${appsetHead('small')}  generators:
    - list:
        elements:
          - n: one
  template:
    metadata:
      name: 'app-{{ .n }}'
${MINIMAL_TEMPLATE_SPEC}`;

test(`every probe is one template/limit finding, its preview and the chart's answer, and the server stays under ${CEILING_MB} MB`, async (t) => {
  const peakDir = fs.mkdtempSync(path.join(os.tmpdir(), 'appset-peak-'));
  const peakFile = path.join(peakDir, 'server.json');
  const s = await startServer(
    { '.git/HEAD': 'ref: refs/heads/main\n', ...probeChart() },
    {},
    { nodeArgs: ['--require', peakRssPreload], env: { APPSET_PEAK_FILE: peakFile } },
  );
  try {
    await s.open('small.yaml', SMALL);
    for (const [name, [template, fn]] of Object.entries(TEMPLATE_PROBES)) {
      const file = `${name}.yaml`;
      const ds = await s.open(file, probeAppSet(name, template));
      const limit = ds.find((d) => d.code === 'template/limit');
      assert.ok(limit, `${name}: ${ds.map(messageOf).join(' | ')}`);
      // Where: on the annotation's line, at the call; which limit: said.
      assert.equal(limit.range.start.line, 15, name);
      assert.match(messageOf(limit), new RegExp(`error calling ${fn}: .*ApplicationSet Tools' limit`), name);
      const preview = await s.conn.sendRequest(Requests.preview, { uri: s.uriOf(file) });
      assert.ok(preview, name);
      await assertAnswersHover(s, 'small.yaml', 4, 4);
    }
    // Opened again (the editor after a restart did this and the server died twice): the same answer.
    const again = await s.change('replace.yaml', probeAppSet('replace', TEMPLATE_PROBES.replace[0]) + '\n');
    assert.ok(again.some((d) => d.code === 'template/limit'));
    // The Helm chart's preview renders the chart template with the same template library (it killed the
    // server too): it answers with no Applications and says why, as any chart it cannot render and as the
    // CLI's `appset render` does (test/unit/cli-template-bounds.test.ts, test/lsp/helm-preview.test.ts).
    const chart = 'charts/apps/templates/appset.yaml';
    await s.open(chart, fs.readFileSync(path.join(s.workspace, chart), 'utf8'));
    const p = (await s.conn.sendRequest(Requests.preview, { uri: s.uriOf(chart) })) as PreviewResult | null;
    assert.equal(p?.apps, 0);
    assert.match(p?.cannot ?? '', /error calling replace: .*ApplicationSet Tools' limit/);
    assert.match(p?.yaml ?? '', /^# a Helm chart template whose ApplicationSets are not rendered here: /);
    await assertAnswersHover(s, 'small.yaml', 4, 4);
    assert.equal(s.proc.exitCode, null, s.stderr());
  } finally {
    await stopStdio(s.conn, s.proc, 10_000);
    fs.rmSync(s.workspace, { recursive: true, force: true });
  }
  assert.ok(fs.existsSync(peakFile), `the server did not exit on its own: ${s.stderr().slice(-500)}`);
  const peak = JSON.parse(fs.readFileSync(peakFile, 'utf8')) as Peak;
  fs.rmSync(peakDir, { recursive: true, force: true });
  t.diagnostic(`peak RSS ${Math.round(peak.maxRssMB)} MB, ${Math.round(peak.cpuMs)} ms of CPU for the whole session`);
  assert.ok(peak.maxRssMB < CEILING_MB, `peak ${Math.round(peak.maxRssMB)} MB`);
});
