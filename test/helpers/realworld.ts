/**
 * What the real-world tests (test/unit/realworld-*.test.ts) share: their fixture folders under
 * test/fixtures/real-world/, the engine over a folder as an editor opened on it sees it, the CLI
 * bundled once per test file, and `appset lint`'s findings read as `file:line:col severity code`.
 */
import { before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { bundleCli, repoRoot, runCli, type CliRun } from './cli';
import { getLanguageService } from '@appset-tools/engine';
import { createNodeHost } from '../../server/src/host/nodeHost';
import { reportRoot } from '../../server/src/cli/common';

export const REAL_WORLD = path.join(repoRoot, 'test', 'fixtures', 'real-world');

/** A path with forward slashes, as the engine gets paths on every platform. */
export const posix = (p: string) => p.split(path.sep).join('/');

/** The language service with `root` as the only workspace folder. */
export const serviceOver = (root: string) => getLanguageService({ host: createNodeHost([posix(root)]) });

/** The CLI, bundled in the test file's `before` hook (so `path()` and `run` work inside tests). */
export function bundledCli(prefix: string): { path(): string; run(args: string[], cwd: string): CliRun } {
  let cli = '';
  before(() => {
    ({ cli } = bundleCli(prefix));
  });
  return { path: () => cli, run: (args, cwd) => runCli(cli, args, { cwd }) };
}

/** A lint run that found nothing to fail on and said nothing on stderr: each output line's place, severity and code. */
export function findingHeads(r: CliRun): string[] {
  assert.equal(r.code, 0, r.out + r.err);
  assert.equal(r.err, '');
  return r.out
    .trim()
    .split('\n')
    .map((l) => l.split(' ').slice(0, 3).join(' '));
}

/**
 * How `appset lint` run in `dir` prints the file `rel` of it: relative to the repository root around
 * `dir` (cli/common.ts `reportRoot`), so the expectation holds in this repository and in a copy without git.
 */
export const shownIn =
  (dir: string) =>
  (rel: string): string =>
    posix(path.relative(reportRoot(dir), path.join(dir, rel)));
