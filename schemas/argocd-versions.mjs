#!/usr/bin/env node
// Builds the per-release data of the supported Argo CD versions from Argo CD's own git history:
//
//   npm run schema -- <argo-cd git dir> <argo-helm git dir>   (clones of argoproj/argo-cd and argoproj/argo-helm)
//
// For every supported minor release it reads `manifests/crds/applicationset-crd.yaml` at the tag
// of that minor's latest patch release (and at the pinned commits of 3.6 and master), then writes
// - schemas/argocd-versions.json: the releases (tag, commit), for every field that did not exist in
//   every release the release that added it (as the shortest path suffix that names it without
//   ambiguity), and the argo-cd Helm chart versions where each Argo CD minor starts; for each release
//   also the Go toolchain (the Dockerfile's golang image) and the template libraries (go.mod:
//   Masterminds/sprig, Masterminds/semver, huandu/xstrings, the mergo sprig imports) it was built with,
//   and per patch release (`patches`: the first patch of each run of equal libraries, read from every
//   vX.Y.Z tag: 2.14.0–2.14.13 were built with Go 1.23, 2.14.14 on with Go 1.24);
// - schemas/applicationset.schema.json: via generate.mjs, from the newest CRD (master). No field has
//   ever been removed from the CRD (checked here), so the newest CRD is the union of all releases and
//   one compiled schema serves every target; fields newer than the target are flagged per release.
// The CRDs themselves are not stored (about 1 MB each); rerun this script to check or extend the data.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const [gitDir, helmGitDir] = process.argv.slice(2);
if (!gitDir) {
  console.error('usage: node schemas/argocd-versions.mjs <argo-cd git dir> [<argo-helm git dir>]');
  process.exit(2);
}

// The supported releases, oldest first. Keep in step with server/src/engine/versions/supported.ts
// (a unit test compares them). `master` is pinned to a commit so the data can be rebuilt exactly.
const RELEASES = [
  ['2.4', 'v2.4.28'], ['2.5', 'v2.5.22'], ['2.6', 'v2.6.15'], ['2.7', 'v2.7.18'],
  ['2.8', 'v2.8.21'], ['2.9', 'v2.9.22'], ['2.10', 'v2.10.20'], ['2.11', 'v2.11.14'], ['2.12', 'v2.12.13'],
  ['2.13', 'v2.13.9'], ['2.14', 'v2.14.21'], ['3.0', 'v3.0.23'], ['3.1', 'v3.1.16'], ['3.2', 'v3.2.12'],
  ['3.3', 'v3.3.14'], ['3.4', 'v3.4.7'], ['3.5', 'v3.5.1'], ['3.6', 'aa5bd348be4fb7eaf86af0a7b3f43bcc610c9760'],
  ['master', 'aa5bd348be4fb7eaf86af0a7b3f43bcc610c9760'],
];
// 3.6 has no tag in the snapshot this data was built from (master 37ee0097, 2026-08-22, before the
// release branch was cut). Its commit is `refs/pull/26121/merge` (the merged `oci` generator PR on
// top of master, which already holds `directory.disableExtensionFilter`, PR 28571): 3.6's CRD. The
// `tpl` function (PR 26614) changes no CRD. master (3.7) is known only up to the same commit.
const CRD_PATH = 'manifests/crds/applicationset-crd.yaml';
// The release before the oldest supported one would tell which fields the oldest supported release
// added; 2.3 has no ApplicationSet CRD in argo-cd (the controller was a separate project), so 2.4's
// fields count as present in every release and an install older than 2.4 is checked as 2.4.
const BEFORE_OLDEST = undefined;
const git = (dir, ...args) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** Every property path of a structural schema: segments, `[]` for list items, `{}` for map values. */
function paths(node, prefix, out) {
  out.set(prefix.join('.'), prefix);
  if (node.properties) for (const k of Object.keys(node.properties)) paths(node.properties[k], [...prefix, k], out);
  if (node.items) paths(node.items, [...prefix, '[]'], out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') paths(node.additionalProperties, [...prefix, '{}'], out);
  return out;
}

/** The module versions of go.mod at a commit that decide what templates do. */
function libraries(commit) {
  const mod = git(gitDir, 'show', `${commit}:go.mod`);
  const version = (module) => new RegExp(`^\\s*${module.replace(/[./]/g, '\\$&')} (v[^\\s]+)`, 'm').exec(mod)?.[1]?.slice(1);
  // 2.4 and 2.5 use sprig v2 (github.com/Masterminds/sprig v2.22.0+incompatible), which takes
  // Masterminds/semver v1; from 2.6 sprig/v3.
  const sprig = version('github.com/Masterminds/sprig/v3') ?? version('github.com/Masterminds/sprig')?.replace(/\+incompatible$/, '');
  const docker = git(gitDir, 'show', `${commit}:Dockerfile`);
  const go = /golang:(\d+\.\d+(?:\.\d+)?)/.exec(docker)?.[1];
  // sprig v3.2.x imports github.com/imdario/mergo, v3.3.0 dario.cat/mergo; the build takes go.mod's version of it.
  const mergoModule = sprig?.startsWith('3.3.') ? 'dario.cat/mergo' : 'github.com/imdario/mergo';
  const semver = sprig?.startsWith('2.') ? version('github.com/Masterminds/semver') : version('github.com/Masterminds/semver/v3');
  const libs = { go, sprig, semver, xstrings: version('github.com/huandu/xstrings'), mergo: `${mergoModule} v${version(mergoModule)}` };
  for (const [k, v] of Object.entries(libs)) if (!v || v.endsWith('vundefined')) throw new Error(`${commit}: no ${k} version found`);
  return libs;
}

/** Every patch release vX.Y.Z of a minor line, in order: [patch, libraries] where the libraries change. */
function patchLibraries(version) {
  const tags = git(gitDir, 'tag', '--list', `v${version}.*`)
    .split('\n')
    .filter((t) => new RegExp(`^v${version.replace('.', '\\.')}\\.\\d+$`).test(t))
    .map((t) => Number(t.split('.')[2]))
    .sort((a, b) => a - b);
  const runs = [];
  for (const p of tags) {
    const libs = libraries(git(gitDir, 'rev-parse', `v${version}.${p}^{commit}`).trim());
    if (JSON.stringify(runs.at(-1)?.[1]) !== JSON.stringify(libs)) runs.push([p, libs]);
  }
  return runs;
}

const releases = [];
const perRelease = [];
const specPaths = (ref) => {
  const crd = YAML.parse(git(gitDir, 'show', `${ref}:${CRD_PATH}`), { maxAliasCount: -1 });
  const v = crd.spec.versions.find((x) => x.storage) ?? crd.spec.versions[0];
  return paths(v.schema.openAPIV3Schema.properties.spec, [], new Map());
};
const beforeOldest = BEFORE_OLDEST ? specPaths(BEFORE_OLDEST) : undefined;
let newestCrd;
for (const [version, ref] of RELEASES) {
  const commit = git(gitDir, 'rev-parse', `${ref}^{commit}`).trim();
  const text = git(gitDir, 'show', `${commit}:${CRD_PATH}`);
  const crd = YAML.parse(text, { maxAliasCount: -1 });
  const v = crd.spec.versions.find((x) => x.storage) ?? crd.spec.versions[0];
  const spec = v.schema.openAPIV3Schema.properties.spec;
  perRelease.push(paths(spec, [], new Map()));
  const patches = ref === commit ? [] : patchLibraries(version);
  releases.push({
    ...(ref === commit ? { version, commit } : { version, tag: ref, commit }),
    libraries: libraries(commit),
    ...(patches.length > 1 ? { patches } : {}),
  });
  newestCrd = text;
}

// No field may disappear: the newest CRD must hold every field of every release.
const newest = perRelease[perRelease.length - 1];
for (const p of beforeOldest?.keys() ?? []) if (!newest.has(p)) throw new Error(`spec.${p} of ${BEFORE_OLDEST} is missing in ${releases.at(-1).version}`);
for (let i = 0; i < perRelease.length; i++) {
  for (const p of perRelease[i].keys()) if (!newest.has(p)) throw new Error(`spec.${p} of ${releases[i].version} is missing in ${releases.at(-1).version}: removed fields need "removed in" data`);
}

// Index of the release that added p; -1 when it predates the oldest supported release.
const since = (p) => ((beforeOldest ?? perRelease[0]).has(p) ? -1 : perRelease.findIndex((m) => m.has(p)));
const isName = (s) => s !== '[]' && s !== '{}';
const bySuffixEnd = new Map();
for (const [p, segs] of newest) {
  if (!segs.length) continue;
  const last = segs[segs.length - 1];
  if (!bySuffixEnd.has(last)) bySuffixEnd.set(last, []);
  bySuffixEnd.get(last).push(segs);
}
const endsWith = (segs, suffix) => suffix.length <= segs.length && suffix.every((s, i) => segs[segs.length - suffix.length + i] === s);

const added = {};
for (const [p, segs] of newest) {
  if (!segs.length || !isName(segs[segs.length - 1])) continue;
  const s = since(p);
  if (s < 0) continue;
  const parent = segs.slice(0, -1);
  while (parent.length && !isName(parent[parent.length - 1])) parent.pop();
  if (since(parent.join('.')) === s) continue; // a child of a field added in the same release
  let chosen;
  for (let k = 1; k <= segs.length && !chosen; k++) {
    const suffix = segs.slice(segs.length - k);
    if (!isName(suffix[0])) continue;
    const all = bySuffixEnd.get(segs[segs.length - 1]).filter((o) => endsWith(o, suffix));
    if (all.every((o) => since(o.join('.')) === s)) chosen = suffix.join('.');
  }
  const v = releases[s].version;
  (added[v] ??= new Set()).add(chosen ?? segs.join('.'));
}

// argo-cd Helm chart (argoproj/argo-helm): the first chart version of each Argo CD minor.
// Without an argo-helm clone the chart table already in the data is kept.
const here0 = resolve(here, 'argocd-versions.json');
let helmChart = JSON.parse(readFileSync(here0, 'utf8')).helmChartFirstVersion;
if (helmGitDir) {
  const tags = git(helmGitDir, 'tag', '--list', 'argo-cd-*').split('\n').filter((t) => /^argo-cd-\d+\.\d+\.\d+$/.test(t));
  const cmp = (a, b) => { const x = a.split('.').map(Number); const y = b.split('.').map(Number); return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; };
  const rows = tags.map((t) => t.slice('argo-cd-'.length)).sort(cmp).map((chart) => {
    const app = /^appVersion:\s*"?v?(\d+\.\d+)/m.exec(git(helmGitDir, 'show', `argo-cd-${chart}:charts/argo-cd/Chart.yaml`))?.[1];
    return [chart, app];
  });
  helmChart = [];
  for (const [chart, app] of rows) if (app && helmChart.at(-1)?.[1] !== app) helmChart.push([chart, app]);
  helmChart = helmChart.filter(([, app]) => RELEASES.some(([v]) => v === app));
}

const data = {
  $comment: 'Generated by schemas/argocd-versions.mjs from argoproj/argo-cd (manifests/crds/applicationset-crd.yaml, go.mod and Dockerfile at each tag, Apache License 2.0) and argoproj/argo-helm (charts/argo-cd/Chart.yaml at each argo-cd-* tag). Do not edit.',
  releases,
  fieldsBefore: BEFORE_OLDEST ?? releases[0].tag,
  fieldsAddedIn: Object.fromEntries(releases.filter((r) => added[r.version]).map((r) => [r.version, [...added[r.version]].sort()])),
  ...(helmChart ? { helmChartFirstVersion: helmChart } : {}),
};
writeFileSync(resolve(here, 'argocd-versions.json'), JSON.stringify(data, null, 1) + '\n');
console.log(`wrote schemas/argocd-versions.json: ${releases.length} releases, ${Object.values(added).reduce((n, s) => n + s.size, 0)} field introductions`);

const tmp = mkdtempSync(join(tmpdir(), 'argocd-crd-'));
const crdFile = join(tmp, `applicationset-crd-${releases.at(-1).version}.yaml`);
writeFileSync(crdFile, newestCrd);
execFileSync(process.execPath, [resolve(here, 'generate.mjs'), crdFile], { stdio: 'inherit' });
