/**
 * The workspace's name and text tests written without regular expressions (workspace/names.ts, issue 39) give
 * what the patterns they replaced gave: each against its pattern, kept here as the definition, over random
 * strings of the pieces the patterns look for and over every YAML file of the tests and examples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  foldAscii,
  isKustomizationName,
  isTerraformName,
  isYamlName,
  startsWithScheme,
} from '../../../../server/src/engine/workspace/names';
import {
  INTERESTS,
  ARGOCD_CONFIG,
  ARGOCD_INSTALL,
  KUSTOMIZE_OUTSIDE_PATCHES,
  APP_PROJECTS,
} from '../../../../server/src/engine/workspace/interests';
import { corpus, same, strings } from '../../../helpers/patternEquivalence';

test('foldAscii lowers A–Z and nothing onto ASCII that a /i pattern would not fold', () => {
  assert.equal(foldAscii('ArgoCD/\u212a\u0130ÉX'), 'argocd/\u212a\u0130Éx');
  assert.equal(foldAscii('Hack.YAML'), 'hack.yaml');
  for (const s of strings(20_000)) assert.equal(foldAscii(s), [...s].map((c) => (c >= 'A' && c <= 'Z' ? c.toLowerCase() : c)).join(''));
});

test('the file name tests give what their patterns gave', () => {
  same('isYamlName', isYamlName, (s) => /\.ya?ml$/i.test(s));
  same('isTerraformName', isTerraformName, (s) => /\.tf$/i.test(s));
  same('isKustomizationName', isKustomizationName, (s) => /(^|\/)kustomization\.ya?ml$/i.test(s));
  same('startsWithScheme', startsWithScheme, (s) => /^[a-zA-Z]+:\/\//.test(s));
  // One-letter and mixed-case schemes, which the random strings do not make.
  for (const s of ['a://x', 'Z://', 'hTTps://x', '://x', 'a1://x', 'ab:/x', 'ab:', ' a://', '\u212a://', ''])
    assert.equal(startsWithScheme(s), /^[a-zA-Z]+:\/\//.test(s), JSON.stringify(s));
});

test('the interests give what their patterns gave, on random texts and every YAML file of the tests and examples', () => {
  const was = new Map([
    [
      ARGOCD_CONFIG,
      (text: string, path: string) =>
        /progressive|PROGRESSIVE|argocd-cmd-params-cm|\bArgoCD\b|params|extraArgs|extraEnv|applicationsetcontroller|APPLICATIONSET_CONTROLLER|applicationset-controller/.test(
          text,
        ) ||
        /kind:\s*["']?(Application|HelmRelease)\b|valueFiles|valuesFrom|kustomize\.toolkit\.fluxcd\.io/.test(text) ||
        (/(^|\/)Chart\.ya?ml$/.test(path) && text.includes('argo-cd')) ||
        ((/(^|\/)kustomization\.ya?ml$/i.test(path) || text.includes('Kustomization')) &&
          /applicationset-controller|\.json\b|^namespace:|configMapGenerator|secretGenerator|^helmCharts:|argoproj\/argo-cd|argocd-autopilot/m.test(
            text,
          )),
    ],
    [ARGOCD_INSTALL, (text: string) => /argoproj\/argo|argo-cd|\bArgoCD\b|\bglobal\s*:|\bchartRef\b/.test(text)],
    [
      KUSTOMIZE_OUTSIDE_PATCHES,
      (text: string, path: string) =>
        (/(^|\/)kustomization\.ya?ml$/i.test(path) || /\bKustomization\b/.test(text)) &&
        text.includes('patches') &&
        KUSTOMIZE_OUTSIDE_PATCHES.test(text, 'kustomization.yaml'),
    ],
    [APP_PROJECTS, (text: string) => text.includes('AppProject') || /^[ \t]*projects:/m.test(text)],
  ]);
  assert.ok(corpus().length > 100);
  for (const [interest, old] of was) {
    assert.ok(INTERESTS.includes(interest));
    const paths = ['/ws/a/kustomization.yaml', '/ws/Chart.yml', '/ws/values.yaml', '/ws/KUSTOMIZATION.YML'];
    let i = 0;
    for (const text of strings(100_000)) {
      const path = paths[i++ % paths.length];
      assert.equal(interest.test(text, path), old(text, path), `${interest.name}(${JSON.stringify(text)}, ${path})`);
    }
    for (const { path, text } of corpus()) assert.equal(interest.test(text, path), old(text, path), `${interest.name}(${path})`);
  }
});

test('the deployers’ kinds of ARGOCD_CONFIG, alone: `kind:`, any spaces, a quote, a whole word', () => {
  const pieces = [
    'kind:',
    'Kind:',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '"',
    "'",
    'Application',
    'HelmRelease',
    'Set',
    '_',
    '1',
    'x',
    '-',
  ];
  const old = (text: string) => /kind:\s*["']?(Application|HelmRelease)\b/.test(text);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  let matched = 0;
  for (let i = 0; i < 100_000; i++) {
    let text = '';
    for (let n = 1 + Math.floor(next() * 6); n > 0; n--) text += pieces[Math.floor(next() * pieces.length)];
    matched += old(text) ? 1 : 0;
    assert.equal(ARGOCD_CONFIG.test(text, '/ws/values.yaml'), old(text), JSON.stringify(text));
  }
  assert.ok(matched > 100);
});

test('release names compared folded give what their patterns gave (versions/releases.ts parseVersion)', () => {
  same(
    'master',
    (s) => ['master', 'main', 'head'].includes(foldAscii(s)),
    (s) => /^(master|main|head)$/i.test(s),
  );
  same(
    'latest',
    (s) => ['latest', 'stable'].includes(foldAscii(s)),
    (s) => /^(latest|stable)$/i.test(s),
  );
});
