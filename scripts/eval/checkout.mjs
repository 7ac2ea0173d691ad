#!/usr/bin/env node
/**
 * Makes the evaluation's checkouts from fetched snapshots (docs/evaluation.md), the way a user's CI
 * clone looks: the listed commit's files (blobs the snapshot lacks, such as large binaries, are left
 * out), an empty folder for each submodule (a clone without --recurse-submodules), and a `.git` whose
 * `origin` is the repository's GitHub URL, so the CLI finds the repository a git generator names.
 *
 *   node scripts/eval/checkout.mjs --repositories test/data/evaluation/fresh2-repositories.json \
 *        --mirrors /work/.mirror --out /tmp/eval/fresh2
 *
 * An existing checkout folder is left as it is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const list = resolve(arg('--repositories', 'test/data/evaluation/repositories.json'));
const mirrors = resolve(arg('--mirrors', '/work/.mirror'));
const out = resolve(arg('--out', '/tmp/eval/repos'));

const git = (gitDir, args, encoding = 'utf8') =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { encoding, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });

let made = 0;
for (const { repo, commit } of JSON.parse(readFileSync(list, 'utf8')).repositories) {
  const name = repo.replace('/', '+');
  const dest = join(out, name);
  const gitDir = join(mirrors, name, 'repo');
  if (existsSync(dest)) continue;
  if (!existsSync(gitDir)) {
    console.log(`missing snapshot: ${repo} (fetch it first)`);
    continue;
  }
  // NUL-separated `mode type object<TAB>path` entries of the listed commit.
  for (const entry of git(gitDir, ['ls-tree', '-r', '-z', commit || 'HEAD']).split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, object] = entry.slice(0, tab).split(' ');
    const file = join(dest, entry.slice(tab + 1));
    if (!file.startsWith(dest + '/')) continue;
    if (type === 'commit') {
      mkdirSync(file, { recursive: true });
      continue;
    }
    if (type !== 'blob') continue;
    let data;
    try {
      data = git(gitDir, ['cat-file', 'blob', object], 'buffer');
    } catch {
      continue; // not in the snapshot (4 MiB and more, or Git LFS)
    }
    mkdirSync(dirname(file), { recursive: true });
    if (mode === '120000') symlinkSync(data.toString('utf8'), file);
    else writeFileSync(file, data);
  }
  mkdirSync(dest, { recursive: true });
  execFileSync('git', ['init', '-q', dest]);
  execFileSync('git', ['-C', dest, 'remote', 'add', 'origin', `https://github.com/${repo}`]);
  made++;
}
console.log(`${made} checkouts made in ${out}`);
