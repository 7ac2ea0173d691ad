/**
 * `npm run bench`: speed of the hot paths, reported as ratios against a baseline measured in the
 * same run (these machines are noisy, absolute numbers are not comparable between runs).
 *
 * Baseline: parsing the same YAML text with the `yaml` library (parseAllDocuments + toJS), i.e. the
 * least work any YAML tool must do per keystroke.
 */
import * as YAML from 'yaml';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLanguageService } from '../../server/src/engine/service/languageService';
import { createNodeHost } from '../../server/src/host/nodeHost';
import { renderString } from '@appset-tools/gotemplate';
import { clusterSecrets } from '../../test/helpers/clusters';
import { appsetHead, clusterListMatrix, rollingSyncBy } from '../../test/helpers/appsets';

function time(fn: () => void, minMs = 400): number {
  // Warm up, then run until minMs elapsed; returns mean ms per call.
  for (let i = 0; i < 3; i++) fn();
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    fn();
    n++;
    t = performance.now();
  }
  return (t - t0) / n;
}

function storyWorkspace(clusters: number, services: number): { dir: string; file: string; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'appset-bench-'));
  mkdirSync(join(dir, 'clusters'));
  const tiers = ['canary', 'low-traffic', 'high-traffic'];
  const secrets = Array.from({ length: clusters }, (_, i) => ({
    name: `prod-${i}`,
    labels: { env: 'prod', tier: i === 0 ? tiers[0] : i < clusters / 2 ? tiers[1] : tiers[2] },
    opaque: true,
  }));
  writeFileSync(join(dir, 'clusters', 'secrets.yaml'), clusterSecrets(secrets));
  const elements = Array.from({ length: services }, (_, i) => ({ service: `svc-${i}`, image: `registry.example.com/svc-${i}:1.${i}.0` }));
  const text = `${appsetHead('services', { options: '["missingkey=error"]' })}  generators:
${clusterListMatrix({ env: 'prod' }, elements)}${rollingSyncBy('tier', [
    { values: ['canary'], maxUpdate: 1 },
    { values: ['low-traffic'], maxUpdate: '25%' },
    { values: ['high-traffic'], maxUpdate: '50%' },
  ])}  template:
    metadata:
      name: '{{ .service }}-{{ .name }}'
      labels:
        tier: '{{ index .metadata.labels "tier" }}'
    spec:
      project: default
      source:
        repoURL: https://github.com/example/services.git
        targetRevision: main
        path: 'charts/{{ .service }}'
        helm:
          parameters:
            - name: image
              value: '{{ .image }}'
      destination:
        server: '{{ .server }}'
        namespace: '{{ .service | lower }}'
`;
  const file = join(dir, 'appset.yaml');
  writeFileSync(file, text);
  return { dir, file, text };
}

function main() {
  const { dir, file, text } = storyWorkspace(12, 45);
  try {
    const rows: [string, number][] = [];
    const baseline = time(() => {
      for (const d of YAML.parseAllDocuments(text) as YAML.Document.Parsed[]) d.toJS();
    });
    const host = createNodeHost([dir]);
    const cold = time(() => {
      const s = getLanguageService({ host });
      s.diagnostics(s.analyze('file://' + file, text, file));
    });
    const svc = getLanguageService({ host });
    let k = 0;
    const commentEdit = time(() => {
      // A keystroke in a comment: the ApplicationSet's content is unchanged, expansions are re-used.
      const t = text + `# edit ${k++}\n`;
      svc.diagnostics(svc.analyze('file://' + file, t, file));
    });
    const templateEdit = time(() => {
      // A keystroke inside the template: everything after parsing is recomputed.
      const t = text.replace("namespace: '{{ .service | lower }}'", `namespace: '{{ .service | lower }}-${k++ % 1000}'`);
      svc.diagnostics(svc.analyze('file://' + file, t, file));
    });
    const hover = time(() => {
      const a = svc.analyze('file://' + file, text, file);
      svc.hover(a, text.indexOf('maxUpdate: 25%'));
      svc.codeLenses(a);
    });
    rows.push(['parse YAML (baseline)', baseline]);
    rows.push(['diagnostics, cold service (540 apps)', cold]);
    rows.push(['diagnostics after a comment keystroke', commentEdit]);
    rows.push(['diagnostics after a template keystroke', templateEdit]);
    rows.push(['hover + code lenses, warm', hover]);

    const params = { service: 'svc-1', name: 'prod-1', metadata: { labels: { tier: 'canary' } } };
    const tmplBaseline = time(() => {
      for (let i = 0; i < 1000; i++)
        '{{ .service }}-{{ .name }}'.replace('{{ .service }}', params.service).replace('{{ .name }}', params.name);
    });
    const tmpl = time(() => {
      for (let i = 0; i < 1000; i++)
        renderString('{{ .service | upper }}-{{ index .metadata.labels "tier" }}', params, { goTemplate: true });
    });
    const fast = time(() => {
      for (let i = 0; i < 1000; i++) renderString('{{service}}-{{name}}', { service: 'a', name: 'b' }, { goTemplate: false });
    });
    const values = {
      values: Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [
          `key${i}`,
          { image: `repo/app-${i}:1.${i}.0`, replicas: i, env: ['a', 'b'], note: 'word '.repeat(20) },
        ]),
      ),
    };
    const yaml = time(() => {
      for (let i = 0; i < 10; i++) renderString('{{ toYaml .values }}', values, { goTemplate: true });
    });
    // Slow sprig functions: a fresh argument each call (no memo), then a memoised repeat.
    let unique = 0;
    const genCA = time(() => void renderString(`{{ (genCA "ca-${unique++}" 30).Cert }}`, params, { goTemplate: true }), 800);
    const genCAMemo = time(() => void renderString('{{ (genCA "ca-0" 30).Cert }}', params, { goTemplate: true }));
    const bcrypt = time(() => void renderString(`{{ bcrypt "pw-${unique++}" }}`, params, { goTemplate: true }), 800);
    const derive = time(
      () => void renderString(`{{ derivePassword 1 "long" "pw-${unique++}" "user" "site" }}`, params, { goTemplate: true }),
      800,
    );

    console.log('ApplicationSet Tools benchmark (ratios against a baseline measured in this run)\n');
    console.log(`baseline A: parse the 12-cluster x 45-service ApplicationSet with the yaml library: ${baseline.toFixed(3)} ms`);
    for (const [name, ms] of rows.slice(1))
      console.log(`  ${name.padEnd(44)} ${(ms / baseline).toFixed(1).padStart(7)} x baseline A   (${ms.toFixed(2)} ms)`);
    console.log(`\nbaseline B: 1000 plain JS string replacements: ${tmplBaseline.toFixed(3)} ms`);
    console.log(
      `  ${'1000 goTemplate renders (cached parse)'.padEnd(44)} ${(tmpl / tmplBaseline).toFixed(1).padStart(7)} x baseline B   (${tmpl.toFixed(2)} ms)`,
    );
    console.log(
      `  ${'1000 fasttemplate renders'.padEnd(44)} ${(fast / tmplBaseline).toFixed(1).padStart(7)} x baseline B   (${fast.toFixed(2)} ms)`,
    );
    console.log(
      `  ${'10 toYaml of a 50-entry values map'.padEnd(44)} ${(yaml / tmplBaseline).toFixed(1).padStart(7)} x baseline B   (${yaml.toFixed(2)} ms)`,
    );
    console.log(`\nslow sprig functions, one call each, against baseline A (the language server budgets 4 s of them per 15 s):`);
    for (const [name, ms] of [
      ['genCA (new RSA 2048 key + certificate)', genCA],
      ['genCA again, same arguments (memoised)', genCAMemo],
      ['bcrypt (cost 10)', bcrypt],
      ['derivePassword (scrypt N=32768)', derive],
    ] as const) {
      console.log(`  ${name.padEnd(44)} ${(ms / baseline).toFixed(1).padStart(7)} x baseline A   (${ms.toFixed(2)} ms)`);
    }
    const a = svc.analyze('file://' + file, text, file);
    const exp = a.appsets[0]?.expansion();
    console.log(
      `\n(expansion: ${exp?.apps.length ?? 0} Applications; problems: ${JSON.stringify(exp?.problems.map((p) => p.message).slice(0, 3))})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
