// Issue 10 inside VS Code: a typo in the template of a 24-Application matrix is ONE row in the
// Problems panel (vscode.languages.getDiagnostics is what the panel lists), naming the Applications
// it hits, with related information that opens the cluster Secret behind an affected Application.
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, serverReady, show, rangeOf, sleep, waitForCode } = require('./util');

describe('one finding per authored site', () => {
  before(serverReady);

  it('shows one Problems row for a typo met by 24 Applications, with related information', async () => {
    const { doc } = await openFixture('story/typo.yaml');
    const { all: diags } = await waitForCode(doc.uri, 'template/missing-key', 'the missing key of the misspelt parameter');
    // Let any further publication land before counting rows.
    await sleep(1500);
    const rows = vscode.languages.getDiagnostics(doc.uri);
    assert.strictEqual(rows.length, 1, `one row expected: ${show(rows)}`);
    const d = rows[0];
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /map has no entry for key "servic".* — in 24 of 24 Applications \(/);
    const action = rangeOf(doc, '{{ .servic }}', doc.getText().indexOf("path: '"));
    assert.ok(d.range.intersection(action), `the row points at the misspelt parameter: ${JSON.stringify(d.range)}`);
    const related = d.relatedInformation || [];
    assert.ok(
      related.some((r) => r.location.uri.path.endsWith('/story/clusters.yaml')),
      `related information opens a cluster Secret: ${JSON.stringify(related.map((r) => [r.location.uri.path, r.message]))}`,
    );
    assert.ok(
      related.some((r) => r.location.uri.path.endsWith('/story/typo.yaml') && /list element/.test(r.message)),
      'and a list element',
    );
    assert.ok(diags.length >= 1);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
