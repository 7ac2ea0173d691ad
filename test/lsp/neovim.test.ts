/**
 * The README's Neovim 0.7–0.10 setup, run as it is by a real Neovim (Debian's `neovim`, installed by
 * .ci/run) against the built server: diagnostics, hover, completion, a code lens run through
 * `vim.lsp.codelens.run()`, a quick fix that edits and one that runs a server command, and the preview
 * as a command returning text and as the custom request. `neovim/drive.lua` does what a user does and
 * writes what Neovim saw as JSON; editors.ts runs it and makes the checks Emacs shares.
 *
 * Skipped only when `nvim` is missing on a developer machine; under CI it must run.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SERVER_COMMANDS } from './client';
import { editorTest } from './editors';

editorTest(
  'Neovim runs the README setup: diagnostics, hovers, completion, definition, lens, quick fixes, rename, preview',
  {
    binary: 'nvim',
    packages: ['neovim'],
    section: 'Neovim 0.7–0.10',
    fence: 'lua',
    // Pushed from on_init.
    setting: ["progressiveSyncs = 'auto'", "progressiveSyncs = 'disabled'"],
    configFile: 'init.lua',
    args: (dir, file, out) => [
      '--headless',
      '--clean',
      '-u',
      'NONE',
      '--cmd',
      'filetype on',
      '--cmd',
      `lua OUT=${JSON.stringify(out)}; FILE=${JSON.stringify(file)}`,
      '--cmd',
      `luafile ${join(dir, 'init.lua')}`,
      '-c',
      `luafile ${join(__dirname, 'neovim', 'drive.lua')}`,
    ],
    env: (dir) => ({ XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    // From a subfolder and from ~: the block roots the workspace at the file's repository, not the cwd.
    starts: ['subfolder', 'home'],
  },
  (seen) => seen.definitions,
  (seen, shown) => {
    // Commands are advertised, so Neovim sends them to the server.
    assert.deepEqual([...seen.capabilities.commands].sort(), SERVER_COMMANDS);
    // The lens ran in the server and said what it found.
    assert.deepEqual(seen.lensNotes, ['guestbook: 2 Applications (guestbook-dev, guestbook-prod)'], shown);
    assert.ok(!seen.notes.some((n: string) => /-32601|Unhandled method|does not support command/.test(n)), shown);
    assert.match(seen.previewCommand, /name: guestbook-prod/, shown);
    // The edits above against HEAD: the "This change" lens, and running it shows its line (issue 41).
    assert.match(seen.changeLens, /^This change: /, shown);
    assert.ok(seen.changeNotes?.includes(seen.changeLens), shown);
  },
);
