#!/usr/bin/env node
/**
 * Chooses the held-out evaluation's files (docs/evaluation.md): given a folder of repositories
 * (`<owner>+<name>/`, each a checkout of the commit named in the mirror), lists every file a user
 * would lint as an ApplicationSet — plain YAML, kustomize-managed, Helm chart templates and
 * argocd-apps values — at most MAX_FILES a repository, and puts each REPOSITORY in a half by a hash
 * of its name, fixed before anything was run. Writes test/data/evaluation/repositories.json: names,
 * commits and paths only, never the files' contents.
 *
 *   node scripts/eval/select.mjs --repos /tmp/eval/repos [--mirrors /work/.mirror] [--out repositories.json]
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { halfOf } from './compare.mjs';

const MAX_FILES = 16;
const MAX_BYTES = 1 << 20;
const SKIP_DIRS = new Set(['.git', 'node_modules', 'vendor', '.terraform']);
const APPSET_KIND = /^[ \t]*kind:[ \t]*["']?ApplicationSet["']?[ \t]*(#.*)?$/m;
const ARGOCD_APPS_VALUES = /^[ \t]*applicationsets:[ \t]*(#.*)?$/m;

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

function* yamlFiles(root, dir = root) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) yield* yamlFiles(root, join(dir, e.name));
    } else if (e.isFile() && /\.ya?ml$/i.test(e.name)) yield join(dir, e.name);
  }
}

/** What kind of input a file is: how a user of the repository would meet it. */
function styleOf(root, file, text) {
  const parts = relative(root, file).split(sep);
  const t = parts.lastIndexOf('templates');
  if (t >= 0 && existsSync(join(root, ...parts.slice(0, t), 'Chart.yaml'))) return 'helm-template';
  if (!APPSET_KIND.test(text)) return 'argocd-apps-values';
  const dir = dirname(file);
  if (['kustomization.yaml', 'kustomization.yml'].some((k) => existsSync(join(dir, k)))) return 'kustomize';
  return 'plain';
}

function candidates(root) {
  const out = [];
  for (const file of yamlFiles(root)) {
    if (statSync(file).size > MAX_BYTES) continue;
    const text = readFileSync(file, 'utf8');
    if (/^kind:[ \t]*CustomResourceDefinition/m.test(text)) continue;
    const isAppSet = APPSET_KIND.test(text);
    const isValues = !isAppSet && /values[^/]*\.ya?ml$/i.test(file) && ARGOCD_APPS_VALUES.test(text);
    if (!isAppSet && !isValues) continue;
    out.push({ path: relative(root, file).split(sep).join('/'), style: styleOf(root, file, text) });
  }
  // A fixed, content-independent order: the first MAX_FILES by a hash of the path.
  const key = (p) => createHash('sha256').update(p).digest('hex');
  return out.sort((a, b) => (key(a.path) < key(b.path) ? -1 : 1)).slice(0, MAX_FILES);
}

const reposDir = arg('--repos', '/tmp/eval/repos');
const mirrors = arg('--mirrors', '/work/.mirror');
const here = dirname(fileURLToPath(import.meta.url));
const outFile = arg('--out', join(here, '..', '..', 'test', 'data', 'evaluation', 'repositories.json'));

const repositories = [];
for (const dir of readdirSync(reposDir).sort()) {
  const repo = dir.replace('+', '/');
  let commit = '';
  try {
    commit = execFileSync('git', ['--git-dir', join(mirrors, dir, 'repo'), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    commit = '';
  }
  const files = candidates(join(reposDir, dir));
  if (files.length === 0) continue;
  repositories.push({ repo, commit, half: halfOf(repo), files });
}
writeFileSync(outFile, JSON.stringify({ version: 1, maxFilesPerRepository: MAX_FILES, repositories }, null, 2) + '\n');
const count = (h) => repositories.filter((r) => r.half === h);
for (const h of ['dev', 'held-out'])
  console.log(`${h}: ${count(h).length} repositories, ${count(h).reduce((n, r) => n + r.files.length, 0)} files`);
