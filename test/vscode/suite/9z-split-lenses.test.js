// Lenses in a split editor (issue 29): the story's 540 Applications with a RollingSync strategy, its
// preview and its rollout view beside it, three columns as a user lays them out. Each lens holds what
// matters in its first 40 characters (test/unit/lens-width.test.ts checks every kind); this test leaves
// the three columns open, so the screenshot of the run's end (APPSET_VSCODE_SCREENSHOT) shows how they
// read, and writes the titles to the report.
const assert = require('assert');
const vscode = require('vscode');
const { storyFleet, note, openFixture, serverReady, waitFor, fixtureUri } = require('./util');

const { secrets, appset } = storyFleet({ env: 'split', subnet: 8, rolling: true });

describe('lenses in a split editor (540 Applications, preview and rollout view beside)', () => {
  before(async () => {
    await serverReady();
    await vscode.workspace.fs.writeFile(fixtureUri('split/clusters.yaml'), Buffer.from(secrets));
    await vscode.workspace.fs.writeFile(fixtureUri('split/services.yaml'), Buffer.from(appset));
  });

  it('shows every lens with its key fact first, in three columns', async () => {
    const { doc } = await openFixture('split/services.yaml');
    const uri = doc.uri.toString();
    const lenses = await waitFor(
      async () => {
        const ls = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 20)) || [];
        const titles = ls.filter((l) => l.command).map((l) => l.command.title);
        return titles.some((t) => /^540 Applications/.test(t)) && titles.some((t) => /^Step 3 · 315 apps/.test(t)) ? titles : undefined;
      },
      { describe: () => 'the lenses of the 540 Applications and their steps' },
    );
    for (const t of lenses) note(`lens: ${t.slice(0, 40)}${t.length > 40 ? ` | ${t.slice(40)}` : ''}`);
    await vscode.commands.executeCommand('appsetTools.showPreview', uri);
    const previewDoc = await waitFor(() =>
      vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'appset-preview' && d.uri.query === uri),
    );
    // The rollout view opens beside the active editor: from the preview's column, a third column.
    await vscode.window.showTextDocument(previewDoc, { viewColumn: vscode.ViewColumn.Two, preserveFocus: false });
    await vscode.commands.executeCommand('appsetTools.showRollout', uri);
    // The source in front, in the first column, scrolled to the strategy (its lenses in view).
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
    const at = doc.positionAt(doc.getText().indexOf('  strategy:'));
    editor.revealRange(new vscode.Range(at.translate(-3), at.translate(18)), vscode.TextEditorRevealType.AtTop);
    await waitFor(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'appset-preview'), {
      describe: () => 'the preview beside',
    });
    assert.ok(vscode.window.visibleTextEditors.length >= 2);
    // An edit updates the shown plan in place (its scroll, filter and open groups stay), not a new page.
    await waitFor(async () => /Step 1/.test(((await vscode.commands.executeCommand('appsetTools.rolloutSnapshot')) || {}).html || ''), {
      describe: () => 'the rollout view',
    });
    const before = (await vscode.commands.executeCommand('appsetTools.rolloutSnapshot')).updates;
    // Edits until one refresh goes in place: a page still loading (a new view on a loaded machine) does not
    // take the message, and gets the whole page instead.
    let after = before;
    for (const n of [9, 8, 7, 6]) {
      const mu = doc.getText().search(/maxUpdate: \d\n/) + 'maxUpdate: '.length;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(mu), doc.positionAt(mu + 1)), String(n));
      assert.ok(await vscode.workspace.applyEdit(edit));
      await waitFor(
        async () =>
          new RegExp(`maxUpdate ${n} → ${n} at a time`).test((await vscode.commands.executeCommand('appsetTools.rolloutSnapshot')).html),
        { describe: () => `the rollout view of maxUpdate ${n}` },
      );
      after = (await vscode.commands.executeCommand('appsetTools.rolloutSnapshot')).updates;
      if (after.inPlace > before.inPlace) break;
      await new Promise((r) => setTimeout(r, 3000));
    }
    assert.ok(after.inPlace > before.inPlace, `updates in place: ${JSON.stringify({ before, after })}`);
    note(`rollout view refreshes: ${after.inPlace} of ${after.total} in place`);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
    // Let the workbench paint the lenses before the run ends (the screenshot is taken then).
    await new Promise((r) => setTimeout(r, 3000));
  });
});
