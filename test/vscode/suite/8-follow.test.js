// Every view follows the truth: with the preview, the rollout view and the status bar open on
// follow/shop.yaml, files change on disk as a `git pull` would change them (a new cluster Secret; the
// argocd-cmd-params-cm written, flipped and deleted). Every view and the lenses follow, each polled
// until it says the new truth; none keeps "enabled by" a file that is gone.
const assert = require('assert');
const vscode = require('vscode');
const { clusterSecret, note, openFixture, serverReady, waitFor, fixtureUri } = require('./util');

const CM = 'follow/argocd-cmd-params-cm.yaml';
const SECRET = 'follow/cluster-b.yaml';
// Deploys the ConfigMap (issue 24: a ConfigMap nothing deploys is "not deployed yet", never "enabled").
const KUSTOMIZATION = 'follow/kustomization.yaml';
const cm = (value) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd-follow\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "${value}"\n`;
const secret = clusterSecret({
  name: 'follow-b',
  secretName: 'cluster-follow-b',
  namespace: 'argocd-follow',
  labels: { env: 'follow', tier: 'main' },
});

const write = (f, text) => vscode.workspace.fs.writeFile(fixtureUri(f), Buffer.from(text));
const remove = async (f) => {
  try {
    await vscode.workspace.fs.delete(fixtureUri(f));
  } catch {
    // already gone
  }
};

describe('every view follows files changed on disk', () => {
  before(() => serverReady());
  after(async () => {
    await remove(CM);
    await remove(KUSTOMIZATION);
    await remove(SECRET);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);
    for (const t of tabs) await vscode.window.tabGroups.close(t);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('updates the preview, the rollout view, the status bar and the lenses after a new cluster Secret and a ConfigMap flipped, then deleted', async () => {
    const { doc, editor } = await openFixture('follow/shop.yaml');
    const uri = doc.uri.toString();
    const at = doc.positionAt(doc.getText().indexOf('strategy:'));
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('appsetTools.showPreview', uri);
    await vscode.commands.executeCommand('appsetTools.showRollout', uri);
    // The preview and the rollout view open beside the source; the source keeps the cursor.
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(at, at) });

    const views = async () => {
      const preview = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'appset-preview' && d.uri.query === uri);
      const rollout = await vscode.commands.executeCommand('appsetTools.rolloutSnapshot');
      const status = await vscode.commands.executeCommand('appsetTools.statusSnapshot');
      const lenses = ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 50)) || [])
        .map((l) => l.command && l.command.title)
        .filter(Boolean);
      const text = preview ? preview.getText() : '';
      return {
        apps: (text.match(/^kind: Application$/gm) || []).length,
        names: (text.match(/^  name: \S+$/gm) || []).map((l) => l.slice(8)),
        rollout: rollout ? rollout.html.replace(/<(style|script)[^]*?<\/\1>/g, '').replace(/<[^>]*>/g, '') : '',
        status: status.text,
        tooltip: status.tooltip,
        lenses,
      };
    };
    const until = (what, ok) => {
      note(what);
      let last;
      return waitFor(
        async () => {
          last = await views();
          return ok(last) ? last : undefined;
        },
        { describe: () => `${what}; the views said ${JSON.stringify(last).slice(0, 3000)}` },
      );
    };

    await until(
      'one Application, progressive syncs off everywhere',
      (v) =>
        v.apps === 1 &&
        /Ignored: progressive syncs are off/.test(v.rollout) &&
        v.status === '$(warning) Progressive syncs: off' &&
        v.lenses.some((t) => t.startsWith('Ignored · ')),
    );

    // 1. A new cluster Secret (as a git pull brings it): two Applications in the preview and the plan.
    await write(SECRET, secret);
    await until(
      'the new cluster in the preview, the rollout view and the lenses',
      (v) =>
        v.apps === 2 &&
        v.names.includes('web-follow-b') &&
        /web-follow-b/.test(v.rollout) &&
        v.lenses.some((t) => /^Step 2 .*· 1 app/.test(t)),
    );

    // 2. The ConfigMap appears, with the kustomization that deploys it: enabled, by that file, everywhere.
    await write(KUSTOMIZATION, 'resources:\n  - argocd-cmd-params-cm.yaml\n');
    await write(CM, cm('true'));
    await until(
      'enabled by the new ConfigMap',
      (v) =>
        /Progressive syncs enabled by follow\/argocd-cmd-params-cm\.yaml/.test(v.rollout) &&
        v.status === '$(check) Progressive syncs: enabled' &&
        /argocd-cmd-params-cm\.yaml/.test(v.tooltip) &&
        v.lenses.some((t) => /^Enabled by argocd-cmd-params-cm\.yaml:\d+$/.test(t)),
    );

    // 3. Flipped to "false": off everywhere.
    await write(CM, cm('false'));
    await until(
      'off after the flip',
      (v) =>
        !/enabled by/.test(v.rollout) &&
        /Ignored: progressive syncs are off/.test(v.rollout) &&
        v.status === '$(warning) Progressive syncs: off' &&
        !v.lenses.some((t) => /^Enabled by/.test(t)),
    );

    // 4. On again, then deleted: nothing may keep saying "enabled by" the deleted file.
    await write(CM, cm('true'));
    await until('enabled again', (v) => /enabled by/.test(v.rollout) && v.status === '$(check) Progressive syncs: enabled');
    await remove(CM);
    const gone = await until(
      'off once the ConfigMap is deleted',
      (v) =>
        !/Progressive syncs enabled by|follow\/argocd-cmd-params-cm\.yaml/.test(v.rollout) &&
        /Ignored: progressive syncs are off/.test(v.rollout) &&
        v.status === '$(warning) Progressive syncs: off' &&
        !/follow\/argocd-cmd-params-cm\.yaml/.test(v.tooltip) &&
        !v.lenses.some((t) => /^Enabled by/.test(t)),
    );
    assert.strictEqual(gone.apps, 2, 'the preview still shows both Applications');
  });
});
