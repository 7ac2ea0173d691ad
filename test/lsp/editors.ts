/**
 * One harness for the tests that run a real editor on the README's setup against the built server
 * (emacs.test.ts: Emacs with eglot; neovim.test.ts: Neovim): the setup block is read from docs/editors.md
 * and pointed at dist/server.js, the editor runs headless on neovim/appset.yaml inside a small git
 * repository with a driver script that does what a user does and writes what the editor saw as JSON,
 * and the results both editors must show are checked here (each test adds its editor's own).
 *
 * The repository is laid out as users keep one: the ApplicationSet in `apps/`, its cluster Secrets in the
 * sibling `clusters/`, and its matrix selects clusters by label, so it yields 2 Applications only when the
 * editor roots the workspace at the repository. The editor is started from `apps/` (a subfolder) and from
 * $HOME (outside the repository), where a setup that roots at the current directory (Neovim's
 * `root_dir = vim.fn.getcwd()`) finds no cluster and shows 0 Applications and a `generator/empty` note.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, serverPath } from './client';
import { clusterSecrets } from '../helpers/clusters';

const runs = (binary: string) => spawnSync(binary, ['--version'], { encoding: 'utf8' }).status === 0;

export interface EditorRun {
  binary: string;
  /** The Debian packages that bring it (.ci/run installs them). */
  packages: string[];
  /** The README heading the setup block follows, and the block's fence language. */
  section: string;
  fence: string;
  /** The README's progressiveSyncs setting as written there, and as the test writes it ('disabled'). */
  setting: [readme: string, test: string];
  /** The file the block is written to in the temporary folder (init.el, init.lua). */
  configFile: string;
  /** The editor's arguments, given the folder, the file to open and where to write the JSON result. */
  args(dir: string, file: string, out: string): string[];
  /** More environment for the editor (HOME etc. are set to the folder already). */
  env?(dir: string): Record<string, string>;
  /**
   * Where the editor is started, one run each (a setup must not depend on it): `subfolder` is the
   * ApplicationSet's own folder inside the repository, `home` is $HOME, outside it.
   */
  starts: ('subfolder' | 'home')[];
}

/** The fenced block under `section` in docs/editors.md, pointed at the built server. */
export function readmeBlock(section: string, fence: string): string {
  const readme = readFileSync(join(repoRoot, 'docs', 'editors.md'), 'utf8');
  const at = readme.indexOf(section);
  assert.ok(at >= 0, `docs/editors.md has a "${section}" section`);
  const m = new RegExp('```' + fence + '\\n([\\s\\S]*?)```').exec(readme.slice(at));
  assert.ok(m, `the section has a ${fence} block`);
  assert.ok(m[1].includes('/path/to/appset-tools/dist/server.js'), 'the block names the server');
  return m[1].replace('/path/to/appset-tools/dist/server.js', serverPath);
}

/**
 * A git repository as users keep one: `apps/appset.yaml` (the fixture) and, beside it, `clusters/` with
 * the cluster Secrets its matrix selects by label (dev and prod; staging matches no list element).
 */
export function writeRepository(repo: string): string {
  mkdirSync(join(repo, 'apps'), { recursive: true });
  mkdirSync(join(repo, 'clusters'), { recursive: true });
  const git = spawnSync('git', ['init', '-q'], { cwd: repo, encoding: 'utf8' });
  assert.equal(git.status, 0, `git init: ${git.stderr}`);
  const file = join(repo, 'apps', 'appset.yaml');
  copyFileSync(join(__dirname, 'neovim', 'appset.yaml'), file);
  const envs = ['dev', 'prod', 'staging'];
  writeFileSync(
    join(repo, 'clusters', 'clusters.yaml'),
    clusterSecrets(envs.map((env) => ({ name: `${env}-1`, server: `https://${env}.example.com`, labels: { env } }))),
  );
  // Committed, as users keep it: the editor's edits are then a change against HEAD ("This change").
  for (const args of [
    ['add', '-A'],
    ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'apps'],
  ]) {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  }
  return file;
}

/** Runs the editor on the docs' setup (with the test's setting), started from `start`; returns what its driver saw. */
function runEditor(e: EditorRun, start: 'subfolder' | 'home'): { seen: Record<string, any>; shown: string } {
  assert.ok(runs(e.binary), `${e.binary} must be installed under CI (.ci/run installs ${e.packages.join(', ')})`);
  assert.ok(existsSync(serverPath), 'run `node esbuild.js` first');
  const dir = mkdtempSync(join(tmpdir(), `appset-${e.binary}-`));
  try {
    const file = writeRepository(join(dir, 'repo'));
    const home = join(dir, 'home');
    mkdirSync(home);
    // A setting other than the docs' proves the settings reach the server: the strategy warning
    // the shared checks expect only exists when they do.
    const config = readmeBlock(e.section, e.fence).replace(e.setting[0], e.setting[1]);
    assert.ok(config.includes(e.setting[1]));
    writeFileSync(join(dir, e.configFile), config);
    const out = join(dir, 'out.json');
    const r = spawnSync(e.binary, e.args(dir, file, out), {
      cwd: start === 'home' ? home : join(dir, 'repo', 'apps'),
      encoding: 'utf8',
      timeout: 150_000,
      // No code cache: the server may write it (server/src/codeCache.ts) into HOME while `dir` is removed.
      env: { ...process.env, HOME: home, APPSET_CACHE_DIR: 'off', ...e.env?.(dir) },
    });
    assert.ok(existsSync(out), `${e.binary} wrote no result (exit ${r.status ?? r.signal}): ${r.stdout}\n${r.stderr}`);
    const seen = JSON.parse(readFileSync(out, 'utf8'));
    return { seen, shown: `started from ${start}\n` + JSON.stringify(seen, null, 1) + '\n' + r.stderr.slice(-3000) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What both editors must have seen; `definitionLines` reads the definitions' lines (0-based) from the result. */
function assertSharedResults(seen: Record<string, any>, shown: string, definitionLines: (seen: Record<string, any>) => number[]): void {
  assert.equal(seen.error, undefined, shown);
  assert.equal(seen.attached, true, shown);
  // The workspace is the repository, wherever the editor started: the cluster Secrets beside apps/ were read.
  assert.ok(!seen.diagnostics.includes('generator/empty'), shown);
  // Diagnostics, with the settings the editor sent.
  assert.ok(seen.diagnostics.includes('appset/unknown-field'), shown);
  assert.ok(seen.diagnostics.includes('rollout/progressive-syncs-disabled'), shown);
  // Hovers: a template parameter's value per Application; a field's documentation.
  assert.match(seen.hover, /guestbook-dev/, shown);
  assert.match(seen.fieldHover, /Go text\/template/, shown);
  // Completion inside {{ }}; go to definition from a parameter to the list keys.
  assert.ok(seen.completion.includes('.cluster') && seen.completion.includes('.url'), shown);
  assert.deepEqual(definitionLines(seen), [12, 14], shown);
  // The "did you mean" quick fix edited the buffer; the progressive-syncs one ran a server command and
  // the warning went away.
  assert.equal(seen.fixTitle, 'Change to "project"', shown);
  assert.equal(seen.fixedLine, '      project: default', shown);
  assert.match(seen.commandFix, /progressiveSyncs/, shown);
  assert.ok(!seen.afterCommand.includes('rollout/progressive-syncs-disabled'), shown);
  // Rename changed both list keys and the use.
  assert.equal(seen.renamed.length, 3, shown);
  // The preview, as a command returning text and as the custom request.
  assert.match(seen.previewCommand, /^# Preview of ApplicationSet "guestbook": 2 Applications/, shown);
  assert.match(seen.previewCommand, /server: https:\/\/prod\.example\.com/, shown);
  assert.equal(seen.previewRequest, 2, shown);
}

/**
 * The test for one editor: run it, make the shared checks, then `checks` (the editor's own). Skipped
 * only when the editor is missing on a developer machine; under CI it must run.
 */
export function editorTest(
  title: string,
  e: EditorRun,
  definitionLines: (seen: Record<string, any>) => number[],
  checks: (seen: Record<string, any>, shown: string) => void,
): void {
  const skip =
    !runs(e.binary) && !process.env.CI ? `${e.binary} is not installed (apt-get install ${e.packages.join(' ')}; CI installs it)` : false;
  for (const start of e.starts) {
    test(`${title} (started from ${start === 'home' ? '$HOME' : 'a subfolder'})`, { skip, timeout: 180_000 }, () => {
      const { seen, shown } = runEditor(e, start);
      assertSharedResults(seen, shown, definitionLines);
      checks(seen, shown);
    });
  }
}
