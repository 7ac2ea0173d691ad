// The incident path in VS Code: a RollingSync for a production Argo CD whose configuration is not in
// the repository. Nothing enables progressive syncs → the quick fix creates the ConfigMap next to the
// ApplicationSet → the lens and the status bar say enabled, and by which file → the wave that syncs 15
// Applications at once gets the safer strategy.
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, serverReady, waitFor, waitForDiagnostics, diagCode, fixtureUri } = require('./util');

const lensTitles = async (uri) =>
  ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 50)) || [])
    .map((l) => l.command && l.command.title)
    .filter(Boolean);

describe('the incident path: progressive syncs not found', () => {
  before(() => serverReady());
  after(async () => {
    try {
      await vscode.workspace.fs.delete(fixtureUri('incident/argocd-cmd-params-cm.yaml'));
    } catch {
      // already gone
    }
  });

  it('creates the configuration, then says enabled (lens, status bar), then inserts a safer strategy', async () => {
    const { doc, editor } = await openFixture('incident/shop.yaml');
    // 1. Nothing governs namespace argocd-prod: the consequence comes first.
    const all = await waitForDiagnostics(
      doc.uri,
      (ds) => ds.some((d) => diagCode(d) === 'rollout/progressive-syncs-not-found'),
      'the not-found warning',
    );
    const warn = all.find((d) => diagCode(d) === 'rollout/progressive-syncs-not-found');
    assert.match(warn.message, /^Ignored: progressive syncs are off, so all 30 Applications sync at once/);
    assert.match(warn.message, /argocd configures the controller in namespace argocd, and this ApplicationSet is in argocd-prod/);
    let titles = await lensTitles(doc.uri);
    assert.ok(titles.includes('Ignored: progressive syncs are off, so all 30 Applications sync at once'), JSON.stringify(titles));
    editor.selection = new vscode.Selection(
      doc.positionAt(doc.getText().indexOf('strategy:')),
      doc.positionAt(doc.getText().indexOf('strategy:')),
    );
    await waitFor(
      async () => (await vscode.commands.executeCommand('appsetTools.statusSnapshot')).text === '$(warning) Progressive syncs: off',
      { describe: () => 'status bar says off' },
    );

    // 2. The fix creates incident/argocd-cmd-params-cm.yaml (it says to restart the controller).
    const actions = await vscode.commands.executeCommand(
      'vscode.executeCodeActionProvider',
      doc.uri,
      warn.range,
      vscode.CodeActionKind.QuickFix.value,
      10,
    );
    const create = actions.find(
      (a) => a.title === 'Enable progressive syncs: create incident/argocd-cmd-params-cm.yaml (then restart the ApplicationSet controller)',
    );
    assert.ok(create, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(actions.some((a) => a.title.startsWith('I have enabled it outside this repository')));
    assert.ok(await vscode.workspace.applyEdit(create.edit));
    const created = await vscode.workspace.openTextDocument(fixtureUri('incident/argocd-cmd-params-cm.yaml'));
    assert.match(created.getText(), /namespace: argocd-prod\n[^]*applicationsetcontroller\.enable\.progressive\.syncs: "true"\n$/);
    await created.save();
    await vscode.window.showTextDocument(doc);

    // 3. Enabled, and by which file: the warning goes, the lens and the status bar say so.
    await waitForDiagnostics(
      doc.uri,
      (ds) => !ds.some((d) => /^rollout\/progressive-syncs/.test(diagCode(d))),
      'the warning to go once the ConfigMap exists',
    );
    titles = await waitFor(
      async () => {
        const t = await lensTitles(doc.uri);
        return t.includes('Progressive syncs enabled by incident/argocd-cmd-params-cm.yaml:13') ? t : undefined;
      },
      { describe: async () => JSON.stringify(await lensTitles(doc.uri)) },
    );
    const at = doc.positionAt(doc.getText().indexOf('strategy:'));
    vscode.window.activeTextEditor.selection = new vscode.Selection(at, at);
    const status = await waitFor(
      async () => {
        const s = await vscode.commands.executeCommand('appsetTools.statusSnapshot');
        return s.text === '$(check) Progressive syncs: enabled' ? s : undefined;
      },
      { describe: () => 'status bar says enabled' },
    );
    assert.match(status.tooltip, /Progressive syncs enabled by incident\/argocd-cmd-params-cm\.yaml:13/);

    // 4. The last step syncs 15 at once: the safer strategy replaces it, in the file's flow-list style.
    const ds = await waitForDiagnostics(doc.uri, (d) => d.some((x) => diagCode(x) === 'rollout/large-wave'), 'the large-wave note');
    const big = ds.find((d) => diagCode(d) === 'rollout/large-wave');
    assert.match(big.message, /^Step 3 syncs 15 Applications at once/);
    const fixes = await vscode.commands.executeCommand(
      'vscode.executeCodeActionProvider',
      doc.uri,
      big.range,
      vscode.CodeActionKind.QuickFix.value,
      10,
    );
    const safer = fixes.find((a) => a.title === 'Roll out by tier: canary 1 → low-traffic 1 → high-traffic 25%');
    assert.ok(safer, JSON.stringify(fixes.map((a) => a.title)));
    assert.ok(
      fixes.some((a) => a.title.startsWith('Roll out by tier, faster: ')),
      'a faster variant is offered too',
    );
    assert.ok(await vscode.workspace.applyEdit(safer.edit));
    assert.match(doc.getText(), /values: \[high-traffic\]\n\s+maxUpdate: 25%/);
    await waitForDiagnostics(doc.uri, (d) => !d.some((x) => diagCode(x) === 'rollout/large-wave'), 'the large-wave note to go');
    titles = await waitFor(
      async () => {
        const t = await lensTitles(doc.uri);
        return t.some((x) => /^Step 3 · tier In \(high-traffic\) · 15 apps · maxUpdate 25% → 3 at a time, 5 waves$/.test(x))
          ? t
          : undefined;
      },
      { describe: async () => JSON.stringify(await lensTitles(doc.uri)) },
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
