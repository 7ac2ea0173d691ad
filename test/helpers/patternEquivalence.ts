/**
 * Random strings for comparing a string test that replaced a regular expression with the pattern it replaced
 * (issue 39: workspace/names.ts and the template-line rules' literal checks): the pieces the patterns look for, in both cases, with the characters a `/i`
 * pattern and `toLowerCase` fold differently, and every YAML file's path of the tests and examples.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { matchLinesWithBraces } from '../../server/src/engine/yaml';
import { repositoryYaml } from './yamlCorpus';

export const PIECES = [
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

/** A deterministic stream of strings of 1–`most` pieces. */
export function* strings(count: number, pieces: readonly string[] = PIECES, most = 8): Generator<string> {
  let seed = 39;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let n = 1 + Math.floor(next() * most); n > 0; n--) s += pieces[Math.floor(next() * pieces.length)];
    yield s;
  }
}

let read: { path: string; text: string }[] | undefined;
/** Every YAML file of the tests and examples (and ../shared when it is there), with its text. */
export const corpus = () => (read ??= repositoryYaml().map((p) => ({ path: p, text: readFileSync(p, 'utf8') })));

/** `now` and `was` agree on 100,000 random strings and on every corpus path. */
export function same(name: string, now: (s: string) => boolean, was: (s: string) => boolean): void {
  for (const s of strings(100_000)) assert.equal(now(s), was(s), `${name}(${JSON.stringify(s)})`);
  for (const { path } of corpus()) assert.equal(now(path), was(path), `${name}(${JSON.stringify(path)})`);
}

/** The pieces a template line's patterns look for: line ends of every kind, braces, dashes, keys, quotes. */
const LINE_PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u2028',
  '\u2029',
  '{{',
  '}}',
  '{',
  '-',
  '- ',
  'if',
  'end',
  ' .x',
  'key:',
  'name: ',
  "'",
  '"',
  '#',
  'x',
];

/**
 * Tests that a literal check put in front of a template-line pattern (issue 39: a pattern not run is not compiled)
 * turns away only texts where the pattern, run as the rule runs it (`matchLinesWithBraces`), matches nothing: over
 * 100,000 random texts of `pieces`, and of the line pieces mixed.
 */
export function precheckTests(name: string, check: (text: string) => boolean, re: RegExp, pieces: readonly string[]): void {
  for (const [label, from] of [
    [name, pieces],
    [`${name} (mixed pieces)`, LINE_PIECES],
  ] as const)
    test(`the ${label} check turns away only texts without a match`, () => {
      let matched = 0;
      let skipped = 0;
      for (const text of strings(100_000, from, 10)) {
        const any = !matchLinesWithBraces(text, re).next().done;
        if (any) matched++;
        if (!check(text)) {
          skipped++;
          assert.equal(any, false, JSON.stringify(text));
        }
      }
      assert.ok(matched > 200 && skipped > 1000, `${matched} matched, ${skipped} skipped`);
    });
}
