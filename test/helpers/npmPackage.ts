/**
 * The npm package as a user gets it: the repository's files as a clone has them (tracked and new, not
 * ignored ones such as dist/), `npm pack` there (its prepack script builds the bundles), and the
 * tarball installed into an empty prefix with an empty cache and no network — so it can hold no
 * runtime dependency. Shared by the package's own test and the CI integrations' tests.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, tempFolder } from './cli';

/** Runs a command to completion and fails the test when it fails; returns its standard output. */
export function sh(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 240_000, ...(env ? { env } : {}) });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export interface Packed {
  /** A new temporary folder holding everything below. */
  work: string;
  /** The copy of the repository the package was packed from (its node_modules a link to this one's). */
  src: string;
  /** `npm pack`'s standard output, exactly. */
  packOut: string;
  tarball: string;
}

/** Copies the repository's files (without test/ and bench/) to a new folder and runs `npm pack` there. */
export function packRepository(prefix: string): Packed {
  const work = tempFolder(prefix);
  const src = path.join(work, 'src');
  const listed = sh('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], repoRoot)
    .split('\0')
    .filter(Boolean);
  for (const rel of listed) {
    if (/^(test|bench|\.tools)\//.test(rel) || !fs.existsSync(path.join(repoRoot, rel))) continue;
    fs.mkdirSync(path.dirname(path.join(src, rel)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, rel), path.join(src, rel));
  }
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(src, 'node_modules'), 'dir');
  const packOut = sh('npm', ['pack', '--pack-destination', work], src);
  return { work, src, packOut, tarball: path.join(work, packOut.trim()) };
}

/** npm's settings for installing the tarball without the network or a warm cache (environment variables). */
export function offlineNpmEnv(work: string): Record<string, string> {
  return { npm_config_offline: 'true', npm_config_cache: path.join(work, 'empty-npm-cache'), npm_config_update_notifier: 'false' };
}

/** Installs `tarball` into `prefix` offline, from an empty cache; returns the prefix's node_modules/.bin. */
export function installTarball(tarball: string, prefix: string, work: string): string {
  fs.mkdirSync(prefix, { recursive: true });
  sh('npm', ['install', '--prefix', prefix, tarball, '--no-audit', '--no-fund'], work, { ...process.env, ...offlineNpmEnv(work) });
  return path.join(prefix, 'node_modules', '.bin');
}
