/**
 * The README's Emacs eglot setup, run as it is by a real Emacs (Debian's `emacs-nox` 28 with
 * `elpa-eglot` and `elpa-yaml-mode`, installed by .ci/run) against the built server: diagnostics
 * (with the settings from `eglot-workspace-configuration`), hover, completion, go to definition, a
 * quick fix that edits and one that runs a server command, rename, and the preview as a command
 * returning text and as the custom request. `emacs/drive.el` does what a user does and writes what
 * eglot saw as JSON; editors.ts runs it and makes the checks Neovim shares.
 *
 * Skipped only when `emacs` is missing on a developer machine; under CI it must run.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { editorTest } from './editors';

editorTest(
  'Emacs (eglot) runs the README setup: diagnostics, hover, completion, definition, quick fixes, rename, preview',
  {
    binary: 'emacs',
    packages: ['emacs-nox', 'elpa-eglot', 'elpa-yaml-mode'],
    section: 'Emacs, eglot',
    fence: 'elisp',
    setting: ['(:progressiveSyncs "auto")', '(:progressiveSyncs "disabled")'],
    configFile: 'init.el',
    // eglot roots at the file's project (project.el: the nearest .git), not the current directory;
    // one run from ~ shows it.
    starts: ['home'],
    // No init file, but Debian's site start-up, which activates the elpa-* packages.
    args: (dir, file, out) => [
      '--batch',
      '-q',
      '-l',
      join(dir, 'init.el'),
      '--eval',
      `(setq FILE ${JSON.stringify(file)} OUT ${JSON.stringify(out)})`,
      '-l',
      join(__dirname, 'emacs', 'drive.el'),
    ],
  },
  // eglot reports 1-based line numbers, as strings.
  (seen) => seen.definitions.map((l: string) => Number(l) - 1),
  (seen, shown) => {
    assert.equal(seen.mode, 'yaml-mode', shown);
    assert.ok(seen.flymake > 0, shown);
  },
);
