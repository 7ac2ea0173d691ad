/**
 * The README's Emacs eglot setup, run as it is by a real Emacs (Debian's `emacs-nox` 28 with
 * `elpa-eglot` and `elpa-yaml-mode`, installed by .ci/run) against the built server: diagnostics
 * (with the settings from `eglot-workspace-configuration`), hover, completion, go to definition, a
 * quick fix that edits and one that runs a server command, rename, and the preview as a command
 * returning text and as the custom request. `emacs/drive.el` does what a user does and writes what
 * eglot saw as JSON.
 *
 * Skipped only when `emacs` is missing on a developer machine; under CI it must run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, serverPath } from './client';

const emacs = spawnSync('emacs', ['--version'], { encoding: 'utf8' });
const haveEmacs = emacs.status === 0;
const skip =
  !haveEmacs && !process.env.CI ? 'emacs is not installed (apt-get install emacs-nox elpa-eglot elpa-yaml-mode; CI installs them)' : false;

/** The elisp block under "Emacs, eglot:" in README.md, pointed at the built server. */
function readmeConfig(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const at = readme.indexOf('Emacs, eglot');
  assert.ok(at >= 0, 'README has an "Emacs, eglot" section');
  const m = /```elisp\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(m, 'the section has an elisp block');
  assert.ok(m[1].includes('/path/to/appset-tools/dist/server.js'), 'the block names the server');
  return m[1].replace('/path/to/appset-tools/dist/server.js', serverPath);
}

test(
  'Emacs (eglot) runs the README setup: diagnostics, hover, completion, definition, quick fixes, rename, preview',
  { skip, timeout: 180_000 },
  () => {
    assert.ok(haveEmacs, 'emacs must be installed under CI (.ci/run installs emacs-nox, elpa-eglot, elpa-yaml-mode)');
    assert.ok(existsSync(serverPath), 'run `node esbuild.js` first');
    const dir = mkdtempSync(join(tmpdir(), 'appset-emacs-'));
    try {
      copyFileSync(join(__dirname, 'neovim', 'appset.yaml'), join(dir, 'appset.yaml'));
      // 'disabled' instead of the README's 'auto' proves the settings reach the server.
      const config = readmeConfig().replace('(:progressiveSyncs "auto")', '(:progressiveSyncs "disabled")');
      assert.ok(config.includes('"disabled"'));
      writeFileSync(join(dir, 'init.el'), config);
      const out = join(dir, 'out.json');
      const r = spawnSync(
        'emacs',
        [
          '--batch',
          // No init file, but Debian's site start-up, which activates the elpa-* packages.
          '-q',
          '-l',
          join(dir, 'init.el'),
          '--eval',
          `(setq FILE ${JSON.stringify(join(dir, 'appset.yaml'))} OUT ${JSON.stringify(out)})`,
          '-l',
          join(__dirname, 'emacs', 'drive.el'),
        ],
        { cwd: dir, encoding: 'utf8', timeout: 150_000, env: { ...process.env, HOME: dir, APPSET_CACHE_DIR: 'off' } },
      );
      assert.ok(existsSync(out), `Emacs wrote no result (exit ${r.status ?? r.signal}): ${r.stdout}\n${r.stderr}`);
      const seen = JSON.parse(readFileSync(out, 'utf8'));
      const shown = JSON.stringify(seen, null, 1) + '\n' + r.stderr.slice(-3000);
      assert.equal(seen.error, undefined, shown);
      assert.equal(seen.mode, 'yaml-mode', shown);
      assert.equal(seen.attached, true, shown);
      // Diagnostics, with the settings from eglot-workspace-configuration.
      assert.ok(seen.diagnostics.includes('appset/unknown-field'), shown);
      assert.ok(seen.diagnostics.includes('rollout/progressive-syncs-disabled'), shown);
      assert.ok(seen.flymake > 0, shown);
      // Hovers: a template parameter's value per Application; a field's documentation.
      assert.match(seen.hover, /guestbook-dev/, shown);
      assert.match(seen.fieldHover, /Go text\/template/, shown);
      // Completion inside {{ }}; go to definition from a parameter to the list keys.
      assert.ok(seen.completion.includes('.cluster') && seen.completion.includes('.url'), shown);
      assert.deepEqual(seen.definitions, ['11', '13'], shown);
      // The "did you mean" quick fix edited the buffer; the progressive-syncs one ran a server command.
      assert.equal(seen.fixTitle, 'Change to "project"', shown);
      assert.equal(seen.fixedLine, '      project: default', shown);
      assert.match(seen.commandFix, /progressiveSyncs/, shown);
      assert.ok(!seen.afterCommand.includes('rollout/progressive-syncs-disabled'), shown);
      // Rename changed both list keys and the use.
      assert.equal(seen.renamed.length, 3, shown);
      // The preview, as a command returning text and as the custom request.
      assert.match(seen.previewCommand, /^# Preview of ApplicationSet "guestbook": 2 Applications/, shown);
      assert.equal(seen.previewRequest, 2, shown);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
