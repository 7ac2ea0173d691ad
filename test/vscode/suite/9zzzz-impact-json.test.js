// Issue 41 in a real VS Code: a git generator's config.json, edited in a tab and not saved, changes the
// "This change" lens and the preview. The client syncs YAML documents only; JSON tabs reach the server as
// text only (client/src/inputDocuments.ts, `appsetTools/inputDocument`). Closing the tab without saving
// brings the saved file back. Named to run after 9zzz-impact: it commits the workspace as its baseline.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const vscode = require('vscode');
const { serverReady, waitFor, fixtureUri, openFixture } = require('./util');

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: shop-json
spec:
  goTemplate: true
  generators:
  - git:
      repoURL: https://example.com/json-config.git
      revision: HEAD
      files:
      - path: 'clusters/*/config.json'
  template:
    metadata:
      name: 'shop-{{.cluster.name}}'
    spec:
      project: default
      source:
        repoURL: https://example.com/shop.git
        targetRevision: '{{.image.tag}}'
        path: deploy
      destination:
        server: '{{.cluster.server}}'
        namespace: shop
`;
const config = (name, tag) => JSON.stringify({ cluster: { name, server: `https://${name}.example.com` }, image: { tag } }, null, 2) + '\n';

async function changeTitles(doc) {
  const ls = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 20)) || [];
  return ls.filter((l) => l.command && /^This change/.test(l.command.title)).map((l) => l.command.title);
}

describe("This change: a git generator's config.json edited, not saved", () => {
  let previous;
  before(async () => {
    await serverReady();
    const config_ = vscode.workspace.getConfiguration('appsetTools');
    previous = config_.inspect('repoMappings').workspaceValue;
    await config_.update(
      'repoMappings',
      { 'https://example.com/json-config.git': 'impact-json/config-repo' },
      vscode.ConfigurationTarget.Workspace,
    );
    await vscode.workspace.fs.writeFile(fixtureUri('impact-json/shop.yaml'), Buffer.from(APPSET));
    await vscode.workspace.fs.writeFile(fixtureUri('impact-json/config-repo/clusters/eu/config.json'), Buffer.from(config('eu', '1.0.0')));
    const root = path.dirname(path.dirname(fixtureUri('impact-json/shop.yaml').fsPath));
    const git = (...args) =>
      execFileSync('git', args, {
        cwd: root,
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
      });
    // A repository already when the impact suite ran before; `git init` again changes nothing then.
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', 'the json config before the change');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('appsetTools').update('repoMappings', previous, vscode.ConfigurationTarget.Workspace);
  });

  it('the lens and the preview follow the tab, and the saved file once the tab closes unsaved', async () => {
    const { doc } = await openFixture('impact-json/shop.yaml');
    // The server has the mapping and the commit: the file's own lenses, no "This change".
    await waitFor(
      async () => {
        const ls = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 20)) || [];
        return ls.some((l) => l.command && /1 Application/.test(l.command.title)) && !(await changeTitles(doc)).length;
      },
      { timeout: 90_000, describe: () => 'the lenses of the unchanged file, without "This change"' },
    );
    const json = await vscode.workspace.openTextDocument(fixtureUri('impact-json/config-repo/clusters/eu/config.json'));
    await vscode.window.showTextDocument(json, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    const at = json.getText().indexOf('1.0.0');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(json.uri, new vscode.Range(json.positionAt(at), json.positionAt(at + 5)), '2.0.0');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(json.isDirty, 'the edit is not saved');
    let seen = [];
    await waitFor(
      async () => {
        seen = await changeTitles(doc);
        return seen.includes('This change: 1 Application syncs, on 1 cluster');
      },
      { timeout: 60_000, describe: () => `"This change: 1 Application syncs" after the unsaved edit; lenses: ${JSON.stringify(seen)}` },
    );
    // Still not saved: the disk holds the committed text.
    assert.match(fs.readFileSync(json.uri.fsPath, 'utf8'), /"tag": "1\.0\.0"/);
    assert.ok(json.isDirty, 'still not saved');
    const preview = await vscode.commands.executeCommand('appsetTools.preview', doc.uri.toString());
    assert.match(String(preview), /targetRevision: 2\.0\.0/);
    // Closed without saving: the saved file (as committed) counts again, and nothing changes.
    await vscode.window.showTextDocument(json);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(async () => !(seen = await changeTitles(doc)).length, {
      timeout: 60_000,
      describe: () =>
        `no "This change" once the tab closed unsaved; lenses: ${JSON.stringify(seen)}; on disk: ${fs.readFileSync(json.uri.fsPath, 'utf8')}`,
    });
  });
});
