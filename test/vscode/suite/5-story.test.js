// Issue 5's story inside VS Code: a clusters x services matrix that syncs everything at once, on a
// controller without progressive syncs. The blast radius is reported, the quick fix inserts a
// RollingSync strategy that copies the clusters' tier label into the template, the strategy is then
// reported as ignored (progressive syncs disabled), and the lenses show canary → low → high.
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, serverReady, waitFor, waitForDiagnostics, diagCode, rangeOf, waitForCode, quickFixes } = require('./util');

describe('the progressive-sync story', () => {
  let previous;
  before(async () => {
    await serverReady();
    const config = vscode.workspace.getConfiguration('appsetTools');
    previous = config.inspect('progressiveSyncs').workspaceValue;
    await config.update('progressiveSyncs', 'disabled', vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('appsetTools').update('progressiveSyncs', previous, vscode.ConfigurationTarget.Workspace);
  });

  it('shows the blast radius, fixes it with a tier rollout, and warns that the controller would ignore it', async () => {
    const { doc } = await openFixture('story/shop.yaml');
    const { diag: blast } = await waitForCode(doc.uri, 'rollout/blast-radius', 'the AllAtOnce blast radius');
    assert.match(blast.message, /18 Applications/);
    assert.match(blast.message, /6 production clusters/);

    const actions = await quickFixes(doc.uri, blast.range);
    const fix = actions.find((a) => /^Roll out by tier: canary 1 → low-traffic 1 → high-traffic 2 /.test(a.title));
    assert.ok(fix, `no tier rollout quick fix; offered: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    const text = doc.getText();
    assert.match(text, /strategy:\n\s+type: RollingSync/);
    assert.match(text, /tier: '\{\{ index \.metadata\.labels "tier" \}\}'/);

    const after = await waitForDiagnostics(
      doc.uri,
      (ds) => ds.some((d) => diagCode(d) === 'rollout/progressive-syncs-disabled'),
      'the strategy to be reported as ignored',
    );
    const ignored = after.find((d) => diagCode(d) === 'rollout/progressive-syncs-disabled');
    assert.ok(
      ignored.range.isEqual(new vscode.Range(rangeOf(doc, 'strategy:').start, rangeOf(doc, 'strategy').end)),
      `warning range ${JSON.stringify(ignored.range)}`,
    );
    assert.match(ignored.message, /18 Applications/);
    assert.ok(!after.some((d) => diagCode(d) === 'rollout/blast-radius'), 'the blast radius is gone once a strategy exists');
    assert.ok(
      !after.some((d) => d.severity === vscode.DiagnosticSeverity.Error),
      `no errors after the fix: ${JSON.stringify(after.map((d) => d.message))}`,
    );

    const lenses = await waitFor(
      async () => {
        const l = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 20);
        return l.some((x) => x.command && /^Step 3 /.test(x.command.title)) ? l : undefined;
      },
      { describe: () => 'step lenses after the fix' },
    );
    const titles = lenses.map((l) => l.command && l.command.title).filter(Boolean);
    const steps = titles.filter((t) => /^Step \d/.test(t));
    assert.match(steps[0], /^Step 1 · 3 apps · /);
    assert.match(steps[1], /^Step 2 · 6 apps · /);
    assert.match(steps[2], /^Step 3 · 9 apps · /);
    assert.ok(titles.includes('Ignored · all 18 apps sync at once'), JSON.stringify(titles));
    assert.ok(
      titles.some((t) => /^If enabled: 3 steps · 18 apps · \d+ waves?$/.test(t)),
      JSON.stringify(titles),
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
