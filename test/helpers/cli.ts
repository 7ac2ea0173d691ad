/**
 * The CLI as a user runs it: bundled from the current sources exactly as esbuild.js bundles
 * `dist/cli.js`, then run in a child process. Also a temporary folder of files and `git` with a
 * fixed author, for the tests that build workspaces and repositories.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export const repoRoot = path.resolve(__dirname, '..', '..');

/** This test process's temporary folders (tempFolder), removed when it ends. */
const temporary = new Set<string>();

/**
 * A new temporary folder (its real path, so outputs that print paths compare), removed with all it
 * holds when this test file's process ends, passed or failed: test runs leave nothing in the system's
 * temporary folder. Removed at the end rather than after each test, so that no test waits for it.
 */
export function tempFolder(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  if (!temporary.size) process.once('exit', removeTemporary);
  temporary.add(dir);
  return dir;
}

function removeTemporary(): void {
  for (const dir of temporary)
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // a folder a test made unreadable: left, never a failed run
    }
  temporary.clear();
}

/**
 * Bundles the CLI into a new temporary folder (tempFolder); `rel` is where in that folder the bundle goes.
 */
export function bundleCli(prefix: string, rel = 'cli.js'): { cli: string; work: string } {
  const work = tempFolder(prefix);
  const cli = path.join(work, rel);
  esbuild.buildSync({
    entryPoints: [path.join(repoRoot, 'server/src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: cli,
    logLevel: 'error',
  });
  return { cli, work };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

export interface CliRunOptions {
  cwd: string;
  /** A hang guard (never a speed assertion); default 60 s. */
  timeout?: number;
  /** Node's own flags, before the script (e.g. a small heap). */
  nodeArgs?: string[];
  maxBuffer?: number;
  /** The environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Run as this user and group (needs root): a file `chmod 000` cannot be read then, as in CI. */
  user?: { uid: number; gid: number };
}

/** Runs `node <cli> …args` to completion. */
export function runCli(cli: string, args: string[], o: CliRunOptions): CliRun {
  const r = spawnSync(process.execPath, [...(o.nodeArgs ?? []), cli, ...args], {
    cwd: o.cwd,
    encoding: 'utf8',
    timeout: o.timeout ?? 60_000,
    ...(o.maxBuffer ? { maxBuffer: o.maxBuffer } : {}),
    ...(o.env ? { env: o.env } : {}),
    ...(o.user ? { uid: o.user.uid, gid: o.user.gid } : {}),
  });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

/** Writes `files` (relative path → text; `null` deletes) under `dir`, creating folders; returns `dir`. */
export function writeFiles(dir: string, files: Record<string, string | null>): string {
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(dir, rel);
    if (text === null) fs.rmSync(p, { force: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
    }
  }
  return dir;
}

/** `git …args` in `cwd` with a fixed author; fails the test when git does. Returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}
