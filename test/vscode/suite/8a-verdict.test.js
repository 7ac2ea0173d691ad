// Issue 37 in a real VS Code: the fix sequence from a folder with no Argo CD configuration to "enabled",
// step by step, with the lens over `strategy:`, the rollout view's banner and the status bar saying the
// same verdict at each step (the rollout view said "Ignored" where the lens said "Not deployed yet"; the
// second fix wrote the key a second time); then the enabling file deleted on disk while its tab stays
// open (it kept "Enabled by argocd-cmd-params-cm.yaml:13" until the tab was closed).
const assert = require('assert');
const vscode = require('vscode');
const {
  diagCode,
  fixtureUri,
  note,
  openFixture,
  quickFixes,
  screenshotNow,
  serverReady,
  sleep,
  waitFor,
  waitForDiagnostics,
} = require('./util');

const APPSET = 'verdict/shop.yaml';
const CM = 'verdict/argocd-cmd-params-cm.yaml';
const KUSTOMIZATION = 'verdict/kustomization.yaml';

/** A screenshot once the editor has drawn what the fronts say (lenses are re-requested after the server's refresh). */
const shot = async (name) => {
  await sleep(2000);
  return screenshotNow(name);
};

const remove = async (f) => {
  try {
    await vscode.workspace.fs.delete(fixtureUri(f));
  } catch {
    // already gone
  }
};

describe('one verdict everywhere, from an empty folder to enabled (issue 37)', () => {
  before(() => serverReady());
  after(async () => {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);
    for (const t of tabs) await vscode.window.tabGroups.close(t);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await remove(CM);
    await remove(KUSTOMIZATION);
  });

  it('walks the fixes (create the ConfigMap, deploy it) with the lens, the rollout view and the status bar agreeing, then drops "enabled" when the file is deleted with its tab open', async () => {
    const { doc } = await openFixture(APPSET);
    const uri = doc.uri.toString();
    const at = doc.positionAt(doc.getText().indexOf('strategy:'));
    const focus = () => vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(at, at) });
    await focus();
    await vscode.commands.executeCommand('appsetTools.showRollout', uri);
    await focus();

    /** What each front says now: the lens over `strategy:`, the rollout view's banner, the status bar. */
    const fronts = async () => {
      const lenses = ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 50)) || [])
        .map((l) => l.command && l.command.title)
        .filter(Boolean);
      const rollout = await vscode.commands.executeCommand('appsetTools.rolloutSnapshot');
      const html = rollout ? rollout.html.replace(/<(style|script)[^]*?<\/\1>/g, '') : '';
      const banner = (/<p class="(?:warn|ok)">([^]*?)<\/p>/.exec(html) || [])[1] || '';
      const status = await vscode.commands.executeCommand('appsetTools.statusSnapshot');
      const warning = vscode.languages.getDiagnostics(doc.uri).find((d) => /^rollout\/progressive-syncs/.test(diagCode(d)));
      return {
        lens: lenses.find((t) => /^(Enabled|Ignored|Not deployed|Unknown)/.test(t)) || '',
        banner: banner.replace(/<[^>]*>/g, '').replace(/&#34;/g, '"'),
        status: status.text,
        tooltip: status.tooltip,
        warning: warning ? warning.message : '',
      };
    };
    let last;
    const until = (what, ok) => {
      note(what);
      return waitFor(
        async () => {
          last = await fronts();
          return ok(last) ? last : undefined;
        },
        { describe: () => `${what}; the fronts said ${JSON.stringify(last)}` },
      );
    };

    // 1. Nothing configures the Argo CD of namespace argocd-verdict: "Ignored" on every front.
    let v = await until(
      'ignored everywhere',
      (f) =>
        f.lens === 'Ignored · all 3 apps sync at once' &&
        f.banner.startsWith('Ignored: progressive syncs are off, so all 3 Applications sync at once.') &&
        f.status === '$(warning) Progressive syncs: off' &&
        f.warning.startsWith('Ignored: progressive syncs are off, so all 3 Applications sync at once'),
    );
    assert.ok(v.tooltip.includes('Ignored: progressive syncs are off, so all 3 Applications sync at once'), v.tooltip);
    await shot('verdict-1-ignored');

    // 2. The fix creates the ConfigMap beside the ApplicationSet; saved, it is written but not deployed.
    let warn = vscode.languages.getDiagnostics(doc.uri).find((d) => /^rollout\/progressive-syncs/.test(diagCode(d)));
    let actions = await quickFixes(doc.uri, warn.range);
    const create = actions.find((a) => a.title.startsWith('Enable progressive syncs: create verdict/argocd-cmd-params-cm.yaml'));
    assert.ok(create, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(await vscode.workspace.applyEdit(create.edit));
    const cmDoc = await vscode.workspace.openTextDocument(fixtureUri(CM));
    await cmDoc.save();
    const written = cmDoc.getText();
    await focus();
    const sentence =
      /^Not deployed yet: verdict\/argocd-cmd-params-cm\.yaml is written but not deployed: [^]*\. Until then, progressive syncs are off, so all 3 Applications sync at once/;
    v = await until(
      'not deployed yet, everywhere',
      (f) =>
        f.lens === 'Not deployed yet · 3 apps at once' &&
        sentence.test(f.banner) &&
        f.status === '$(warning) Progressive syncs: not deployed yet' &&
        sentence.test(f.warning),
    );
    // One sentence, said once: the banner, the warning and the status bar's tooltip hold the same one.
    const said = sentence.exec(v.banner)[0];
    assert.ok(v.warning.startsWith(said), `warning: ${v.warning}\nbanner: ${v.banner}`);
    assert.ok(v.tooltip.includes(said), v.tooltip);
    assert.ok(!/Ignored|Nothing in/.test(v.banner + v.warning), `no "Ignored" beside "Not deployed yet": ${v.banner} / ${v.warning}`);
    assert.strictEqual(v.warning.split('is written but not deployed').length, 2, `said once: ${v.warning}`);
    await shot('verdict-2-not-deployed');

    // 3. The next fix is the missing step, deploying it, never the key a second time.
    warn = vscode.languages.getDiagnostics(doc.uri).find((d) => /^rollout\/progressive-syncs/.test(diagCode(d)));
    actions = await quickFixes(doc.uri, warn.range);
    assert.ok(!actions.some((a) => /^Enable progressive syncs: in /.test(a.title)), JSON.stringify(actions.map((a) => a.title)));
    const deploy = actions.find((a) =>
      a.title.startsWith('Deploy argocd-cmd-params-cm.yaml: create verdict/kustomization.yaml listing it'),
    );
    assert.ok(deploy, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(await vscode.workspace.applyEdit(deploy.edit));
    const kDoc = await vscode.workspace.openTextDocument(fixtureUri(KUSTOMIZATION));
    await kDoc.save();
    assert.match(kDoc.getText(), /\nresources:\n {2}- argocd-cmd-params-cm\.yaml\n$/);
    assert.strictEqual(cmDoc.getText(), written, 'the ConfigMap is not edited');
    await focus();

    // 4. Deployed: enabled by the ConfigMap, on every front, and no warning.
    v = await until(
      'enabled everywhere',
      (f) =>
        f.lens === 'Enabled by argocd-cmd-params-cm.yaml:13' &&
        /^Progressive syncs enabled by verdict\/argocd-cmd-params-cm\.yaml:13/.test(f.banner) &&
        f.status === '$(check) Progressive syncs: enabled' &&
        f.tooltip.includes('Progressive syncs enabled by verdict/argocd-cmd-params-cm.yaml:13') &&
        !f.warning,
    );
    assert.deepStrictEqual(vscode.languages.getDiagnostics(cmDoc.uri).map(diagCode), [], 'the ConfigMap is valid YAML');
    await shot('verdict-3-enabled');

    // 5. The same key written twice in the ConfigMap's tab: the file gets an error there, and the warning names it.
    const cmEditor = await vscode.window.showTextDocument(fixtureUri(CM), { viewColumn: vscode.ViewColumn.Two, preserveFocus: false });
    // The editor's document (the one loaded for the fix may have been let go since: nothing showed it).
    const cm = cmEditor.document;
    const keyLine = cm.lineAt(cm.positionAt(written.indexOf('  applicationsetcontroller.enable.progressive.syncs')).line);
    assert.ok(await cmEditor.edit((e) => e.insert(keyLine.range.end, `\n${keyLine.text}`)));
    await waitForDiagnostics(cm.uri, (ds) => ds.length > 0, 'the ConfigMap with a key written twice to get an error');
    await focus();
    v = await until(
      'the key written twice is named in the warning',
      (f) =>
        / writes the key applicationsetcontroller\.enable\.progressive\.syncs twice: kubectl, kustomize and Argo CD refuse such a file/.test(
          f.warning,
        ) &&
        f.lens.startsWith('Ignored · ') &&
        f.status === '$(warning) Progressive syncs: off',
    );
    // Taken back (the line removed) and saved: valid again.
    assert.ok(await cmEditor.edit((e) => e.delete(new vscode.Range(keyLine.range.end, keyLine.range.end.translate(1, 0)))));
    assert.strictEqual(cm.getText(), written);
    assert.ok(await cm.save());
    await focus();
    await until('enabled again after the revert', (f) => f.lens === 'Enabled by argocd-cmd-params-cm.yaml:13');

    // 6. The ConfigMap deleted on disk (a git checkout) while its tab stays open: not in the repository.
    assert.ok(
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === cm.uri.toString()),
      'the ConfigMap has a tab open',
    );
    const t0 = Date.now();
    await vscode.workspace.fs.delete(fixtureUri(CM));
    v = await until(
      'no longer enabled once the file is deleted, its tab still open',
      (f) =>
        !/^Enabled/.test(f.lens) &&
        !/enabled by/i.test(f.banner) &&
        f.status !== '$(check) Progressive syncs: enabled' &&
        !f.tooltip.includes('enabled by'),
    );
    note(`the fronts dropped "enabled" ${Date.now() - t0} ms after the deletion: ${JSON.stringify(v)}`);
    assert.ok(Date.now() - t0 < 20_000, `took ${Date.now() - t0} ms`);
    assert.ok(
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === cm.uri.toString()),
      'the tab of the deleted file is still open',
    );
    // The fronts agree on what it is now.
    const lensKind = v.lens.split(' ')[0];
    assert.ok(v.banner.startsWith(`${lensKind === 'Not' ? 'Not deployed yet' : lensKind}`), JSON.stringify(v));
    assert.ok(v.warning.startsWith(v.banner.split('.')[0]), JSON.stringify(v));
    await shot('verdict-4-deleted-tab-open');
  });
});
