// Issue 10 inside VS Code: a Helm chart template that emits ApplicationSets is one information row,
// not a lint of its Helm syntax; ApplicationSets declared as argocd-apps chart values are previewed
// like ApplicationSet files, and the preview and the hovers say where each Application's parameter
// set came from (the list element's line, the cluster Secret's file and line).
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, serverReady, waitFor, show, sleep, waitForCode } = require('./util');

const previews = () => vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'appset-preview');

describe('Helm and provenance', () => {
  before(serverReady);

  it('shows one information row for a Helm chart template, not its Helm syntax', async () => {
    const { doc } = await openFixture('helm/platform-appsets/templates/appsets.yaml');
    await waitForCode(doc.uri, 'helm/chart-template', 'the chart-template note');
    await sleep(1500);
    const rows = vscode.languages.getDiagnostics(doc.uri);
    assert.strictEqual(rows.length, 1, `one row expected: ${show(rows)}`);
    assert.strictEqual(rows[0].severity, vscode.DiagnosticSeverity.Information);
    assert.match(rows[0].message, /Helm chart platform-appsets/);
    assert.strictEqual(doc.getText(rows[0].range), 'ApplicationSet');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('previews the ApplicationSets of argocd-apps values, each Application with the list element it came from', async () => {
    const { doc } = await openFixture('helm/apps/values.yaml');
    await vscode.commands.executeCommand('appsetTools.showPreview', doc.uri.toString());
    const preview = await waitFor(() => previews().find((d) => d.getText().includes('name: guestbook-dev')), {
      describe: () => `a preview of the values file; previews open: ${JSON.stringify(previews().map((d) => d.getText().slice(0, 600)))}`,
    });
    const text = preview.getText();
    const line =
      doc
        .getText()
        .split('\n')
        .findIndex((l) => l.includes('- env: prod')) + 1;
    assert.match(
      text,
      new RegExp(
        `# from: list element 2 \\(helm/apps/values\\.yaml:${line}\\)\\napiVersion: argoproj\\.io/v1alpha1\\nkind: Application\\nmetadata:\\n  name: guestbook-prod`,
      ),
    );
    assert.match(text, /path: guestbook\/dev/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('hovers on a generator link each Application to where it came from, the cluster Secret in the title', async () => {
    const { doc } = await openFixture('story/shop.yaml');
    const at = doc.positionAt(doc.getText().indexOf('matrix:') + 2);
    const text = await waitFor(
      async () => {
        const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, at)) || [];
        const md = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return /\| Application \|/.test(md) && /cluster Secret/.test(md) ? md : undefined;
      },
      { describe: () => 'a hover whose Applications name their cluster Secrets', timeout: 30_000 },
    );
    // Each name links to where its parameter set came from, every place in the link's title: no column of
    // places, so the table stays narrow.
    assert.match(text, /\[`[^`]+`\]\(file:\/\/[^ )]*#L\d+ "[^"]*cluster Secret '[^']+' \(story\/clusters\.yaml:\d+\)[^"]*"\)/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
