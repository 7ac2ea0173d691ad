// Hovers in a split editor (issue 29): the story's 540 Applications with a RollingSync strategy, the
// preview beside the source. Under APPSET_VSCODE_SCREENSHOT each test takes a screenshot of its hover
// while it shows (`<screenshot>-strategy-hover.png`, `-generator-hover.png`): how it reads at VS Code's own width. What the hover holds is checked as VS Code received it: this ApplicationSet's
// data before the field's documentation, narrow tables (test/lsp/hovers.test.ts counts their widths), the
// rest counted with a pointer to the preview; on `strategy:`, the plan and the facts, not the warning
// VS Code shows in the same hover.
const assert = require('assert');
const vscode = require('vscode');
const { storyFleet, note, openFixture, serverReady, waitFor, fixtureUri, diagCode, screenshotNow } = require('./util');

const { secrets, appset } = storyFleet({ env: 'hover', subnet: 9, rolling: true });
const hoverText = (hovers) => hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n\n---\n\n');

/** The source in the first column, the preview beside it, the cursor on `needle` and the hover shown. */
async function showHoverAt(needle, ready, lens = /^540 Applications/) {
  const { doc } = await openFixture('hover/services.yaml');
  const uri = doc.uri.toString();
  await waitFor(
    async () => {
      const ls = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 20)) || [];
      return ls.some((l) => l.command && lens.test(l.command.title));
    },
    { describe: () => `a lens matching ${lens}` },
  );
  if (!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'appset-preview')) {
    await vscode.commands.executeCommand('appsetTools.showPreview', uri);
    await waitFor(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'appset-preview'), {
      describe: () => 'the preview beside',
    });
  }
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
  const at = doc.positionAt(doc.getText().indexOf(needle) + 2);
  const md = await waitFor(
    async () => {
      const text = hoverText((await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, at)) || []);
      return ready.test(text) ? text : undefined;
    },
    { describe: () => `a hover at ${needle} matching ${ready}` },
  );
  editor.selection = new vscode.Selection(at, at);
  editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
  return { doc, md };
}

/**
 * Under APPSET_VSCODE_SCREENSHOT, shows the hover at the cursor and takes a screenshot while it shows
 * (`<screenshot>-<name>.png`; the one of the run's end comes after the workbench stopped the extension
 * host, when diagnostics and hovers are gone): once the lenses and diagnostics that arrive late on a loaded
 * machine have been laid out (a re-layout closes a hover), and once only (asked again, VS Code moves the
 * focus into the hover, and a second time closes it).
 */
async function showHoverForScreenshot(name) {
  if (!process.env.CODE_SHIM_SCREENSHOT) return;
  await new Promise((r) => setTimeout(r, 4000));
  await vscode.commands.executeCommand('editor.action.showHover');
  await new Promise((r) => setTimeout(r, 2000));
  note(`screenshot: ${await screenshotNow(name)}`);
}

describe('hovers in a split editor (540 Applications, the preview beside)', () => {
  before(async () => {
    await serverReady();
    await vscode.workspace.fs.writeFile(fixtureUri('hover/clusters.yaml'), Buffer.from(secrets));
    await vscode.workspace.fs.writeFile(fixtureUri('hover/services.yaml'), Buffer.from(appset));
  });

  it('hover on strategy: the plan and the enablement facts, not the warning again', async () => {
    // The controller runs without progressive syncs (the setting), so VS Code shows the warning on `strategy:`.
    const config = vscode.workspace.getConfiguration('appsetTools');
    const previous = config.inspect('progressiveSyncs').workspaceValue;
    await config.update('progressiveSyncs', 'disabled', vscode.ConfigurationTarget.Workspace);
    try {
      await strategyHover();
      await showHoverForScreenshot('strategy-hover');
    } finally {
      await config.update('progressiveSyncs', previous, vscode.ConfigurationTarget.Workspace);
    }
  });
  it('hover on the generator: its Applications first, in a narrow table, the rest pointed to', async () => {
    const { md } = await showHoverAt('- matrix:', /Generator 1 produces 540 Applications/);
    const parts = md.split('\n\n---\n\n');
    assert.match(
      parts[0],
      /^\*\*Generator 1 produces 540 Applications · 12 clusters × 45 services\*\*\n\n\| Application \| destination \| tier \|/,
    );
    assert.ok(
      parts.slice(1).some((p) => /^\*\*matrix\*\* — /.test(p)),
      md,
    );
    const rows = parts[0].split('\n').filter((l) => l.startsWith('| [`'));
    assert.equal(rows.length, 20);
    assert.match(parts[0], /…and 520 more \(one per cluster first\) — Preview generated Applications shows all 540/);
    note(`generator hover: ${rows.length} rows, first ${rows[0].replace(/\]\([^)]*"\)/, ']').slice(0, 60)}`);
    await showHoverForScreenshot('generator-hover');
  });
});

async function strategyHover() {
  const { doc, md } = await showHoverAt('  strategy:', /RollingSync, if enabled/, /^Ignored · /);
  assert.match(md, /^\*\*RollingSync, if enabled: 3 steps · 540 apps · \d+ waves\*\*/);
  assert.match(md, /\n\nProgressive syncs: disabled \(setting\)/);
  const warning = await waitFor(
    () => vscode.languages.getDiagnostics(doc.uri).find((d) => diagCode(d) === 'rollout/progressive-syncs-disabled'),
    { describe: () => 'the warning on strategy:' },
  );
  note(`strategy hover: ${md.split('\n')[0]}; the warning beside it: ${warning.message.slice(0, 70)}`);
  for (const sentence of warning.message.split(/(?<=\.) |; /).filter((x) => x.length > 20))
    assert.ok(!md.includes(sentence.replace(/\.$/, '')), `the hover repeats the warning: "${sentence}"`);
}
