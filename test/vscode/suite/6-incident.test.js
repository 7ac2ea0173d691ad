// The incident path in VS Code: a RollingSync for a production Argo CD whose configuration is not in
// the repository. Nothing enables progressive syncs → the quick fix creates the ConfigMap next to the
// ApplicationSet → nothing deploys it yet, so the lens says "Not deployed yet" → a kustomization deploys it
// → the lens and the status bar say enabled, and by which file → the wave that syncs 15 Applications at
// once gets the safer strategy.
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, serverReady, waitFor, waitForDiagnostics, diagCode, fixtureUri, waitForCode, quickFixes } = require('./util');

const lensTitles = async (uri) =>
  ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 50)) || [])
    .map((l) => l.command && l.command.title)
    .filter(Boolean);

describe('the incident path: progressive syncs not found', () => {
  before(() => serverReady());
  after(async () => {
    for (const f of ['incident/argocd-cmd-params-cm.yaml', 'incident/project.yaml', 'incident/kustomization.yaml']) {
      try {
        await vscode.workspace.fs.delete(fixtureUri(f));
      } catch {
        // already gone
      }
    }
  });

  it('creates the configuration, then says enabled (lens, status bar), then inserts a safer strategy', async () => {
    const { doc, editor } = await openFixture('incident/shop.yaml');
    // 1. Nothing governs namespace argocd-prod: the consequence comes first.
    const { diag: warn } = await waitForCode(doc.uri, 'rollout/progressive-syncs-not-found', 'the not-found warning');
    assert.match(warn.message, /^Ignored: progressive syncs are off, so all 30 Applications sync at once/);
    assert.match(warn.message, /argocd configures the controller in namespace argocd, and this ApplicationSet is in argocd-prod/);
    let titles = await lensTitles(doc.uri);
    assert.ok(titles.includes('Ignored · all 30 apps sync at once'), JSON.stringify(titles));
    editor.selection = new vscode.Selection(
      doc.positionAt(doc.getText().indexOf('strategy:')),
      doc.positionAt(doc.getText().indexOf('strategy:')),
    );
    await waitFor(
      async () => (await vscode.commands.executeCommand('appsetTools.statusSnapshot')).text === '$(warning) Progressive syncs: off',
      { describe: () => 'status bar says off' },
    );

    // 2. The fix creates incident/argocd-cmd-params-cm.yaml (it says to restart the controller).
    const actions = await quickFixes(doc.uri, warn.range);
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

    // 3. Written, but nothing deploys incident/ yet: not "enabled" (issue 24); the finding says what is missing.
    await waitForDiagnostics(
      doc.uri,
      (ds) =>
        ds.some(
          (d) =>
            diagCode(d) === 'rollout/progressive-syncs-not-found' &&
            /^Not deployed yet: incident\/argocd-cmd-params-cm\.yaml/.test(d.message),
        ),
      'the finding to say the new ConfigMap is not deployed yet',
    );
    await waitFor(async () => (await lensTitles(doc.uri)).some((t) => t.startsWith('Not deployed yet')), {
      describe: async () => JSON.stringify(await lensTitles(doc.uri)),
    });
    // The user deploys it with the ApplicationSet's folder.
    await vscode.workspace.fs.writeFile(
      fixtureUri('incident/kustomization.yaml'),
      Buffer.from('resources:\n  - shop.yaml\n  - argocd-cmd-params-cm.yaml\n'),
    );

    // 4. Enabled, and by which file: the warning goes, the lens and the status bar say so.
    await waitForDiagnostics(
      doc.uri,
      (ds) => !ds.some((d) => /^rollout\/progressive-syncs/.test(diagCode(d))),
      'the warning to go once the ConfigMap exists',
    );
    titles = await waitFor(
      async () => {
        const t = await lensTitles(doc.uri);
        return t.includes('Enabled by argocd-cmd-params-cm.yaml:13') ? t : undefined;
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

    // 5. The last step syncs 15 at once: the safer strategy replaces it, in the file's flow-list style.
    const { diag: big } = await waitForCode(doc.uri, 'rollout/large-wave', 'the large-wave note');
    assert.match(big.message, /^Step 3 syncs 15 Applications at once/);
    const fixes = await quickFixes(doc.uri, big.range);
    const safer = fixes.find((a) => a.title.startsWith('Roll out by tier: canary 1 → low-traffic 1 → high-traffic 3 — '));
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
        return t.some((x) => /^Step 3 · 15 apps · 3 at a time, 5 waves$/.test(x)) ? t : undefined;
      },
      { describe: async () => JSON.stringify(await lensTitles(doc.uri)) },
    );

    // 5. An AppProject deny window on the payments namespace: step 3 can stall, and the rollout view,
    // opened from the step 3 lens, shows the window under that step with a link to its line.
    await vscode.workspace.fs.writeFile(
      fixtureUri('incident/project.yaml'),
      Buffer.from(
        'apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: default\n  namespace: argocd-prod\nspec:\n  syncWindows:\n  - kind: deny\n    schedule: "0 22 * * *"\n    duration: 8h\n    namespaces: [payments]\n',
      ),
    );
    const windowed = await waitForDiagnostics(
      doc.uri,
      (d) => d.some((x) => diagCode(x) === 'rollout/sync-window' && /^Step 3 /.test(x.message)),
      'the sync-window warning on step 3',
    );
    const w3 = windowed.find((d) => diagCode(d) === 'rollout/sync-window' && /^Step 3 /.test(d.message));
    assert.match(
      w3.message,
      /^Step 3 can stall in a sync window: AppProject default's deny window "0 22 \* \* \*" for 8h \(incident\/project\.yaml:8\) keeps 3 of its 15 Applications \(payments-/,
    );
    assert.equal(w3.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(w3.relatedInformation[0].location.uri.toString(), fixtureUri('incident/project.yaml').toString());
    const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 50)) || [];
    const step3 = lenses.find((l) => l.command && /^Step 3 /.test(l.command.title));
    assert.ok(step3, JSON.stringify(lenses.map((l) => l.command && l.command.title)));
    await vscode.commands.executeCommand(step3.command.command, ...(step3.command.arguments || []));
    const view = await waitFor(
      async () => {
        const v = await vscode.commands.executeCommand('appsetTools.rolloutSnapshot');
        return v && v.title === 'Rollout: shop-prod' && v.html.includes('sync-window') ? v : undefined;
      },
      { describe: async () => JSON.stringify(await vscode.commands.executeCommand('appsetTools.rolloutSnapshot')).slice(0, 2000) },
    );
    const section = view.html.slice(view.html.indexOf('id="step-3"'));
    assert.ok(view.html.includes('<section class="step focus" id="step-3">'), 'scrolled to the step whose lens was clicked');
    assert.match(
      section,
      /The deny window "0 22 \* \* \*" for 8h of AppProject default can park these; each parked one holds a maxUpdate slot and the step waits \(<a href="command:appsetTools\.openLocation[^"]*">incident\/project\.yaml:8<\/a>\)/,
    );
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);
    for (const t of tabs) await vscode.window.tabGroups.close(t);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
