// Diagnostics published by the language server arrive in VS Code with our codes and the exact
// ranges of the offending text, for syntax and schema errors, in multi-document files, and they
// follow edits. Ranges are computed from the fixture text (the key or value the message is about),
// never from what the server happened to send.
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, waitForDiagnostics, diagCode, show, fmtRange, rangeOf, serverReady, sleep } = require('./util');

const ERROR = vscode.DiagnosticSeverity.Error;

function find(diags, code, range) {
  return diags.find((d) => diagCode(d) === code && (!range || d.range.isEqual(range)));
}

// How long to wait before concluding that "no diagnostics" is the final answer: the server's
// debounce (200 ms by default) plus generous slack for a busy 2-core machine.
const SETTLE_MS = 2500;

describe('diagnostics', () => {
  before(serverReady);

  it('reports a YAML syntax error at the offending character', async () => {
    const { doc } = await openFixture('syntax-error.yaml');
    const tab = rangeOf(doc, '\tproject');
    const expected = new vscode.Range(tab.start, tab.start.translate(0, 1));
    const diags = await waitForDiagnostics(
      doc.uri,
      (all) => find(all, 'yaml/syntax', expected),
      `a yaml/syntax diagnostic at ${fmtRange(expected)}`,
    );
    const d = find(diags, 'yaml/syntax', expected);
    assert.strictEqual(d.severity, ERROR);
    assert.match(d.message, /tab/i, `message should name the tab: ${d.message}`);
  });

  it('reports an unknown field on its key, with a suggestion', async () => {
    const { doc } = await openFixture('unknown-field.yaml');
    const entry = rangeOf(doc, 'maxUpdates: 1'); // not the mention in the header comment
    const key = new vscode.Range(entry.start, entry.start.translate(0, 'maxUpdates'.length));
    const diags = await waitForDiagnostics(doc.uri, (all) => find(all, 'appset/unknown-field'), 'an appset/unknown-field diagnostic');
    const d = find(diags, 'appset/unknown-field');
    assert.ok(d.range.isEqual(key), `range ${fmtRange(d.range)}, expected the key "maxUpdates" at ${fmtRange(key)}`);
    assert.strictEqual(d.severity, ERROR);
    assert.match(d.message, /"maxUpdates"/);
    assert.match(d.message, /did you mean "maxUpdate"\?/);
    const others = diags.filter((x) => x !== d && x.severity <= vscode.DiagnosticSeverity.Warning);
    assert.deepStrictEqual(others, [], `no other errors or warnings expected: ${show(others)}`);
  });

  it('checks only the ApplicationSet in a multi-document file', async () => {
    const { doc } = await openFixture('multi-doc.yaml');
    const second = doc.getText().indexOf('---');
    const value = rangeOf(doc, '"true"', second); // spec.goTemplate's value (a string), not the ConfigMap's
    const diags = await waitForDiagnostics(doc.uri, (all) => find(all, 'appset/wrong-type'), 'an appset/wrong-type diagnostic');
    const d = find(diags, 'appset/wrong-type');
    assert.ok(d.range.isEqual(value), `range ${fmtRange(d.range)}, expected the value "true" (with its quotes) at ${fmtRange(value)}`);
    assert.match(d.message, /goTemplate/);
    const inConfigMap = diags.filter((x) => doc.offsetAt(x.range.start) < second);
    assert.deepStrictEqual(inConfigMap, [], `the ConfigMap document must be left alone: ${show(inConfigMap)}`);
  });

  it('gives a valid ApplicationSet and a non-ApplicationSet YAML file no diagnostics', async () => {
    // Make sure the server is answering at all before trusting an empty list.
    const { doc: bad } = await openFixture('unknown-field.yaml');
    await waitForDiagnostics(bad.uri, (all) => all.length > 0, 'the server to publish for a broken file');
    const { doc: valid } = await openFixture('valid.yaml');
    const { doc: other } = await openFixture('not-an-appset.yaml');
    await sleep(SETTLE_MS);
    assert.deepStrictEqual(vscode.languages.getDiagnostics(valid.uri).map(diagCode), [], show(vscode.languages.getDiagnostics(valid.uri)));
    assert.deepStrictEqual(vscode.languages.getDiagnostics(other.uri).map(diagCode), [], show(vscode.languages.getDiagnostics(other.uri)));
  });

  it('updates diagnostics as the document is edited', async () => {
    const { doc, editor } = await openFixture('edit-me.yaml');
    await sleep(SETTLE_MS);
    assert.deepStrictEqual(vscode.languages.getDiagnostics(doc.uri).map(diagCode), [], 'edit-me.yaml starts clean');

    // Misspell a key, as a user would while typing.
    const key = rangeOf(doc, 'targetRevision');
    assert.ok(await editor.edit((e) => e.replace(key, 'targetRevison')));
    const typo = new vscode.Range(key.start, key.start.translate(0, 'targetRevison'.length));
    const diags = await waitForDiagnostics(
      doc.uri,
      (all) => find(all, 'appset/unknown-field', typo),
      `appset/unknown-field at ${fmtRange(typo)} after the edit`,
    );
    assert.match(find(diags, 'appset/unknown-field', typo).message, /did you mean "targetRevision"\?/);

    // Fix it again: the diagnostic goes away.
    assert.ok(await editor.edit((e) => e.replace(typo, 'targetRevision')));
    await waitForDiagnostics(doc.uri, (all) => all.length === 0, 'no diagnostics after undoing the typo');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('stops and resumes with the appsetTools.validate.enable setting', async () => {
    const { doc } = await openFixture('unknown-field.yaml');
    await waitForDiagnostics(doc.uri, (all) => find(all, 'appset/unknown-field'), 'appset/unknown-field before the setting changes');
    const settings = vscode.workspace.getConfiguration('appsetTools');
    await settings.update('validate.enable', false, vscode.ConfigurationTarget.Workspace);
    try {
      await waitForDiagnostics(doc.uri, (all) => all.length === 0, 'no diagnostics once validation is disabled');
    } finally {
      await settings.update('validate.enable', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitForDiagnostics(
      doc.uri,
      (all) => find(all, 'appset/unknown-field'),
      'appset/unknown-field again once validation is re-enabled',
    );
  });
});
