// The extension loads in VS Code and activates when a YAML file is opened.
const assert = require('assert');
const vscode = require('vscode');
const { EXTENSION_ID, openFixture, waitFor } = require('./util');

describe('activation', () => {
  it('is loaded as the extension under development', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} missing from ${vscode.extensions.all.length} loaded extensions`);
    assert.strictEqual(ext.packageJSON.main, './dist/extension.js');
    assert.deepStrictEqual(ext.packageJSON.activationEvents, ['onLanguage:yaml']);
  });

  it('activates when a YAML file is opened', async () => {
    const { doc } = await openFixture('valid.yaml');
    assert.strictEqual(doc.languageId, 'yaml', 'the built-in YAML language should claim .yaml files');
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    await waitFor(() => ext.isActive, { timeout: 20_000, describe: () => `${EXTENSION_ID} did not activate` });
  });
});
