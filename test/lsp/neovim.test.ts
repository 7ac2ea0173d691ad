/**
 * The README's Neovim 0.7–0.10 setup, run as it is by a real Neovim (Debian's `neovim`, installed by
 * .ci/run) against the built server: diagnostics, hover, completion, a code lens run through
 * `vim.lsp.codelens.run()`, a quick fix that edits and one that runs a server command, and the preview
 * as a command returning text and as the custom request. `neovim/drive.lua` does what a user does and
 * writes what Neovim saw as JSON.
 *
 * Skipped only when `nvim` is missing on a developer machine; under CI it must run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, SERVER_COMMANDS, serverPath } from './client';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const haveNvim = nvim.status === 0;
const skip = !haveNvim && !process.env.CI ? 'nvim is not installed (apt-get install neovim; CI installs it)' : false;

/** The Lua block under "Neovim 0.7–0.10" in README.md, pointed at the built server. */
function readmeConfig(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const at = readme.indexOf('Neovim 0.7–0.10');
  assert.ok(at >= 0, 'README has a Neovim 0.7–0.10 section');
  const m = /```lua\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(m, 'the section has a lua block');
  assert.ok(m[1].includes('/path/to/appset-tools/dist/server.js'), 'the block names the server');
  return m[1].replace('/path/to/appset-tools/dist/server.js', serverPath);
}

test(
  'Neovim runs the README setup: diagnostics, hovers, completion, definition, lens, quick fixes, rename, preview',
  { skip, timeout: 180_000 },
  () => {
    assert.ok(haveNvim, "nvim must be installed under CI (.ci/run installs Debian's neovim)");
    assert.ok(existsSync(serverPath), 'run `node esbuild.js` first');
    const dir = mkdtempSync(join(tmpdir(), 'appset-nvim-'));
    try {
      copyFileSync(join(__dirname, 'neovim', 'appset.yaml'), join(dir, 'appset.yaml'));
      // The README's settings say progressiveSyncs 'auto'; 'disabled' here proves they reach the
      // server (pushed from on_init): the strategy warning below only exists when they do.
      const config = readmeConfig().replace("progressiveSyncs = 'auto'", "progressiveSyncs = 'disabled'");
      assert.ok(config.includes("'disabled'"));
      writeFileSync(join(dir, 'init.lua'), config);
      const out = join(dir, 'out.json');
      const r = spawnSync(
        'nvim',
        [
          '--headless',
          '--clean',
          '-u',
          'NONE',
          '--cmd',
          'filetype on',
          '--cmd',
          `lua OUT=${JSON.stringify(out)}; FILE=${JSON.stringify(join(dir, 'appset.yaml'))}`,
          '--cmd',
          'luafile init.lua',
          '-c',
          `luafile ${join(__dirname, 'neovim', 'drive.lua')}`,
        ],
        {
          cwd: dir,
          encoding: 'utf8',
          timeout: 150_000,
          // No code cache: the server may write it (server/src/codeCache.ts) into HOME while `dir` is removed.
          env: { ...process.env, HOME: dir, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, APPSET_CACHE_DIR: 'off' },
        },
      );
      assert.ok(existsSync(out), `Neovim wrote no result (exit ${r.status ?? r.signal}): ${r.stdout}\n${r.stderr}`);
      const seen = JSON.parse(readFileSync(out, 'utf8'));
      const shown = JSON.stringify(seen, null, 1);
      assert.equal(seen.error, undefined, shown);
      assert.equal(seen.attached, true, shown);
      // Diagnostics, with the settings pushed from on_init.
      assert.ok(seen.diagnostics.includes('appset/unknown-field'), shown);
      assert.ok(seen.diagnostics.includes('rollout/progressive-syncs-disabled'), shown);
      // Commands are advertised, so Neovim sends them to the server.
      assert.deepEqual([...seen.capabilities.commands].sort(), SERVER_COMMANDS);
      // Hover on a template parameter shows its value per Application.
      assert.match(seen.hover, /guestbook-dev/, shown);
      // Completion inside {{ }}.
      assert.ok(seen.completion.includes('.cluster') && seen.completion.includes('.url'), shown);
      // The lens ran in the server and said what it found.
      assert.deepEqual(seen.lensNotes, ['guestbook: 2 Applications (guestbook-dev, guestbook-prod)'], shown);
      // The "did you mean" quick fix edited the buffer.
      assert.equal(seen.fixTitle, 'Change to "project"', shown);
      assert.equal(seen.fixedLine, '      project: default', shown);
      // The progressive-syncs quick fix ran a server command, and the warning went away.
      assert.match(seen.commandFix, /progressiveSyncs/, shown);
      assert.ok(!seen.afterCommand.includes('rollout/progressive-syncs-disabled'), shown);
      assert.ok(!seen.notes.some((n: string) => /-32601|Unhandled method|does not support command/.test(n)), shown);
      // A field's documentation on hover; go to definition; rename of a list key with its use.
      assert.match(seen.fieldHover, /Go text\/template/, shown);
      assert.deepEqual(seen.definitions, [10, 12], shown);
      assert.equal(seen.renamed.length, 3, shown);
      // The preview, as a command returning text and as the custom request.
      assert.match(seen.previewCommand, /^# Preview of ApplicationSet "guestbook": 2 Applications/, shown);
      assert.match(seen.previewCommand, /name: guestbook-prod/, shown);
      assert.equal(seen.previewRequest, 2, shown);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
