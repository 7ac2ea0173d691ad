// "Preview generated Applications": the command opens a YAML document with the Applications the
// generators produce. Expected values were rendered with ../shared/golden-render (Argo CD's Go
// template libraries) from valid.yaml's template and list elements.
const assert = require('assert');
const vscode = require('vscode');
const YAML = require('yaml');
const { openFixture, serverReady, waitFor } = require('./util');

const EXPECTED = [
  { name: 'engineering-dev-guestbook', server: 'https://1.2.3.4', env: 'dev' },
  { name: 'engineering-prod-guestbook', server: 'https://2.4.6.8', env: 'prod' },
];

describe('preview', () => {
  before(serverReady);

  it('opens the generated Applications of an ApplicationSet beside it', async () => {
    const { doc } = await openFixture('valid.yaml');
    await vscode.commands.executeCommand('appsetTools.showPreview', doc.uri.toString());
    const previews = () => vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'appset-preview');
    const preview = await waitFor(() => previews().find((d) => d.getText().includes('kind: Application')), {
      describe: () =>
        `a preview document with Applications; previews open: ${JSON.stringify(previews().map((d) => d.getText().slice(0, 400)))}`,
    });
    assert.strictEqual(preview.languageId, 'yaml');
    assert.ok(
      vscode.window.visibleTextEditors.some((e) => e.document === preview),
      'the preview is shown in an editor',
    );
    const docs = YAML.parseAllDocuments(preview.getText());
    assert.deepStrictEqual(
      docs.flatMap((d) => d.errors.map((e) => e.message)),
      [],
      'the preview is valid YAML',
    );
    const apps = docs.map((d) => d.toJS()).filter((a) => a && a.kind === 'Application');
    const seen = apps.map((a) => ({
      name: a.metadata.name,
      server: a.spec.destination.server,
      env: a.metadata.labels && a.metadata.labels.env,
    }));
    assert.deepStrictEqual(
      seen.sort((a, b) => a.name.localeCompare(b.name)),
      EXPECTED,
    );
    for (const a of apps) {
      assert.strictEqual(a.apiVersion, 'argoproj.io/v1alpha1');
      assert.strictEqual(a.spec.source.path, 'guestbook');
    }
  });
});
