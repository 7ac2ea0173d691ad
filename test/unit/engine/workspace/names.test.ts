/**
 * The name and text tests written without regular expressions (workspace/names.ts, issue 39) give what the
 * patterns they replaced gave: each against its pattern, kept here as the definition, over random strings
 * made of the pieces the patterns look for (the cases a `/i` pattern folds, and the two characters
 * `toLowerCase` lowers onto ASCII letters) and over every YAML file of the tests and examples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { foldAscii, isKustomizationName, isTerraformName, isYamlName } from '../../../../server/src/engine/workspace/names';
import {
  INTERESTS,
  ARGOCD_CONFIG,
  ARGOCD_INSTALL,
  KUSTOMIZE_OUTSIDE_PATCHES,
  APP_PROJECTS,
} from '../../../../server/src/engine/workspace/interests';
import { isInstallFolder, isSample } from '../../../../server/src/engine/install/instances';
import { isRemoteEntry } from '../../../../server/src/engine/install/kustomizeBases';
import { isRemote, namesArgoproj } from '../../../../server/src/engine/install/kustomizePaths';
import { installsArgoCd } from '../../../../server/src/engine/install/upstreamManifests';
import { splitVersion } from '../../../../server/src/engine/versions/releases';
import { repositoryYaml } from '../../../helpers/yamlCorpus';

const PIECES = [
  ...['a', 'A', 'k', 'K', '\u212a', '\u0130', 'i', 's', '\u017f', 'x', '-', '_', '.', '/', '//', ':', '?', '@', '=', ' ', '\t', '\n', '\r'],
  ...['\u2028', '"', "'", '#', 'y', 'Y', 'ml', 'ML', 'aml', '.yaml', '.yml', '.YAML', '.Yml', '.tf', '.TF', '.json', 'kind:', 'Kind:'],
  ...['Application', 'ApplicationSet', 'HelmRelease', 'Kustomization', 'kustomization', 'KUSTOMIZATION', 'Chart', 'argo', 'ARGO', 'Argo'],
  ...['argocd', 'argo-cd', 'ArgoCD', 'ARGOCD', 'cd', 'gitops', 'install', 'INSTALL', 'chart', 'charts', 'values', 'cluster-config'],
  ...['examples', 'Example', 'test', 'test-data', 'testdata', 'docs', 'hac', 'hack', 'archived', 'e2e', 'argoproj', 'ARGOPROJ', '-labs'],
  ...['argocd-autopilot', 'manifests', '/manifests', '/manifests/crds', 'crds', 'raw.githubusercontent.com', 'github', 'GitHub', 'gitlab'],
  ...['bitbucket', '.com', '.org', '.COM', 'git@', 'GIT@', 'git::', 'http', 'https', 'HTTPS', 'ssh', '://', '?ref=', '?REF=', 'v3.1.0'],
  ...['progressive', 'PROGRESSIVE', 'params', 'argocd-cmd-params-cm', 'extraArgs', 'extraEnv', 'applicationsetcontroller'],
  ...['APPLICATIONSET_CONTROLLER', 'applicationset-controller', 'valueFiles', 'valuesFrom', 'kustomize.toolkit.fluxcd.io', 'global'],
  ...['\u00a0', '\ufeff', '\u3000', '\u000b', 'kind: ', 'kind:\n  ', 'Application_', 'Application1', 'HelmReleases'],
  ...['Chart.yaml', 'Chart.yml', 'chart.yaml', 'Chart.YAML', '\u0131', 'ı'],
  ...['master', 'MAIN', 'Head', 'latest', 'STABLE', 'main', 'stable'],
  ...['global :', 'chartRef', 'chartRefs', 'projects:', '  projects:', 'AppProject', 'patches', '..', 'namespace:', 'helmCharts:'],
];

/** A deterministic stream of strings of 1–8 pieces. */
function* strings(count: number): Generator<string> {
  let seed = 39;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let n = 1 + Math.floor(next() * 8); n > 0; n--) s += PIECES[Math.floor(next() * PIECES.length)];
    yield s;
  }
}

const corpus = repositoryYaml().map((p) => ({ path: p, text: readFileSync(p, 'utf8') }));

function same(name: string, now: (s: string) => boolean, was: (s: string) => boolean): void {
  for (const s of strings(100_000)) assert.equal(now(s), was(s), `${name}(${JSON.stringify(s)})`);
  for (const { path } of corpus) assert.equal(now(path), was(path), `${name}(${JSON.stringify(path)})`);
}

test('foldAscii lowers A–Z and nothing onto ASCII that a /i pattern would not fold', () => {
  assert.equal(foldAscii('ArgoCD/\u212a\u0130ÉX'), 'argocd/\u212a\u0130Éx');
  assert.equal(foldAscii('Hack.YAML'), 'hack.yaml');
  for (const s of strings(20_000)) assert.equal(foldAscii(s), [...s].map((c) => (c >= 'A' && c <= 'Z' ? c.toLowerCase() : c)).join(''));
});

test('the file name tests give what their patterns gave', () => {
  same('isYamlName', isYamlName, (s) => /\.ya?ml$/i.test(s));
  same('isTerraformName', isTerraformName, (s) => /\.tf$/i.test(s));
  same('isKustomizationName', isKustomizationName, (s) => /(^|\/)kustomization\.ya?ml$/i.test(s));
});

test('the install folder and sample folder tests give what their patterns gave', () => {
  const installLike =
    /^(argo-?cd.*|argo|install|installation|bootstrap|gitops|platform|system|infra|infrastructure|manifests|config|configs|deploy|helm|charts?|values|cluster-config|cd)$/i;
  same('isInstallFolder', isInstallFolder, (s) => installLike.test(s) || /argo/i.test(s));
  const sampleDir = /^(examples?|samples?|tests?|testdata|test-data|fixtures?|docs?|demos?|e2e|hack|archived?|archives)$/i;
  same(
    'isSample',
    (s) => isSample({ key: `/ws/${s}/cm.yaml` }, ['/ws']),
    (s) => `${s}/cm.yaml`.split('/').some((seg) => sampleDir.test(seg)),
  );
});

test('the kustomize reference tests give what their patterns gave', () => {
  same('isRemoteEntry', isRemoteEntry, (s) => /^[a-z]+:\/\/|^git@|\?ref=|^(github|gitlab|bitbucket)\.(com|org)\//i.test(s));
  same(
    'isRemote',
    isRemote,
    (s) => /^(https?:\/\/|git@|ssh:\/\/|git::|(github|gitlab|bitbucket)\.(com|org)\/)/i.test(s) || /\?ref=|\/\/.*\?/.test(s),
  );
  same('namesArgoproj', namesArgoproj, (s) => /argoproj(-labs)?\//i.test(s));
  const argoCd =
    /argoproj\/argo-cd(?:\.git)?\/{1,2}manifests(?:\/|\?|$)|raw\.githubusercontent\.com\/argoproj\/argo-cd\/[^/\s]+\/manifests\//i;
  const autopilot = /argoproj-labs\/argocd-autopilot(?:\.git)?\/{1,2}manifests(?:\/|\?|$)/i;
  same('installsArgoCd', installsArgoCd, (s) => (argoCd.test(s) || autopilot.test(s)) && !/\/manifests\/crds(?:[/?]|$)/i.test(s));
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
  assert.ok(corpus.length > 100);
  for (const [interest, old] of was) {
    assert.ok(INTERESTS.includes(interest));
    const paths = ['/ws/a/kustomization.yaml', '/ws/Chart.yml', '/ws/values.yaml', '/ws/KUSTOMIZATION.YML'];
    let i = 0;
    for (const text of strings(100_000)) {
      const path = paths[i++ % paths.length];
      assert.equal(interest.test(text, path), old(text, path), `${interest.name}(${JSON.stringify(text)}, ${path})`);
    }
    for (const { path, text } of corpus) assert.equal(interest.test(text, path), old(text, path), `${interest.name}(${path})`);
  }
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

test('a release version split by searches is what its pattern split (versions/releases.ts splitVersion)', () => {
  let seed = 3;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const parts = ['1', '2', '10', '007', '.', '..', 'x', '', 'v', ' ', '\n', '\u0661', '3.6', '2.9.1'];
  for (let i = 0; i < 50_000; i++) {
    let v = '';
    for (let n = 1 + Math.floor(next() * 6); n > 0; n--) v += parts[Math.floor(next() * parts.length)];
    const m = /^(\d+\.\d+)\.(\d+)$/.exec(v);
    assert.deepEqual(splitVersion(v), m ? [m[1], Number(m[2])] : [v, 0], JSON.stringify(v));
  }
});

test('a URL scheme spelled with both cases of the letters is the case-insensitive pattern (install/kustomizePaths.ts, installers.ts)', () => {
  same(
    'scheme',
    (s) => /^[a-zA-Z]+:\/\//.test(s),
    (s) => /^[a-z]+:\/\//i.test(s),
  );
  same(
    'Chart',
    (s) => ['Chart.yaml', 'Chart.yml'].includes(s.split('/').pop() ?? ''),
    (s) => /^Chart\.ya?ml$/.test(s.split('/').pop() ?? ''),
  );
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
