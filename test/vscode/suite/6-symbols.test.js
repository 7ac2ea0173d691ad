// Parameters as symbols in the real VS Code: go to definition from a template parameter to the list
// element keys and to the cluster Secret, the Outline of an ApplicationSet, completion of a label key
// that needs `index`, rename (and its refusal for a cluster's name), a field's documentation on hover,
// and the "turn on goTemplate" quick fix.
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, serverReady, waitFor, rangeOf, waitForProvider } = require('./util');

/** params.yaml, opened, and the position two characters into the first `needle`. */
async function openAt(needle) {
  const { doc } = await openFixture('params.yaml');
  return { doc, at: rangeOf(doc, needle).start.translate(0, 2) };
}

describe('parameters as symbols', () => {
  before(serverReady);

  it('goes to the definition of a parameter: list element keys and cluster Secret lines', async () => {
    const { doc, at: service } = await openAt('.service }}-');
    const defs = await waitForProvider(
      'vscode.executeDefinitionProvider',
      [doc.uri, service],
      (d) => (d && d.length ? d : undefined),
      'definitions of .service',
    );
    const lines = defs.map((d) => doc.lineAt((d.targetRange || d.range).start.line).text.trim());
    assert.deepEqual(lines, ['- service: cart', '- service: search']);

    const name = rangeOf(doc, '.name }}').start.translate(0, 2);
    const clusters = await vscode.commands.executeCommand('vscode.executeDefinitionProvider', doc.uri, name);
    assert.ok(clusters.length >= 2, `definitions of .name: ${JSON.stringify(clusters)}`);
    for (const d of clusters) {
      const uri = d.targetUri || d.uri;
      assert.match(uri.path, /story\/clusters\.yaml$/);
      const target = await vscode.workspace.openTextDocument(uri);
      assert.match(target.lineAt((d.targetRange || d.range).start.line).text, /^\s+name: prod-\d+$/);
    }
  });

  it('shows the ApplicationSet, its generators with counts and the template in the Outline', async () => {
    const { doc } = await openFixture('params.yaml');
    const symbols = await waitForProvider(
      'vscode.executeDocumentSymbolProvider',
      [doc.uri],
      (s) => (s && s.some((x) => x.name === 'params') ? s : undefined),
      'an Outline with the ApplicationSet "params"',
    );
    const appset = symbols.find((x) => x.name === 'params');
    assert.match(appset.detail, /ApplicationSet · \d+ Applications/);
    const names = appset.children.map((c) => c.name);
    assert.ok(names.includes('generators') && names.includes('template'), JSON.stringify(names));
    const matrix = appset.children.find((c) => c.name === 'generators').children[0];
    assert.equal(matrix.name, 'matrix');
    assert.deepEqual(
      matrix.children.map((c) => c.name),
      ['clusters', 'list'],
    );
    assert.match(matrix.children[1].detail, /^2 elements · 2 parameter sets$/);
  });

  it('completes a dotted label key as an index call', async () => {
    const { doc, editor } = await openFixture('params.yaml');
    const tier = rangeOf(doc, '.metadata.labels.tier');
    const typed = new vscode.Range(tier.start, tier.end);
    await editor.edit((e) => e.replace(typed, '.metadata.labels.arg'));
    try {
      const at = typed.start.translate(0, '.metadata.labels.arg'.length);
      const list = await waitForProvider(
        'vscode.executeCompletionItemProvider',
        [doc.uri, at],
        (l) => (l.items.some((i) => (i.filterText || '').includes('secret-type')) ? l : undefined),
        'a completion for the secret-type label',
      );
      const item = list.items.find((i) => (i.filterText || '').includes('secret-type'));
      const label = typeof item.label === 'string' ? item.label : item.label.label;
      assert.equal(label, 'index .metadata.labels "argocd.argoproj.io/secret-type"');
      const text = item.textEdit ? item.textEdit.newText : item.insertText.value || item.insertText;
      const range = item.textEdit ? item.textEdit.range : item.range.replacing || item.range;
      await editor.edit((e) => e.replace(range, text));
      assert.match(doc.lineAt(at.line).text, /tier: '\{\{ index \.metadata\.labels "argocd\.argoproj\.io\/secret-type" \}\}'/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('renames a list key with its uses, and refuses a cluster Secret name with the reason', async () => {
    const { doc, at } = await openAt('.service }}-');
    const edit = await vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', doc.uri, at, 'svc');
    const edits = edit.get(doc.uri);
    assert.equal(edits.length, 4, JSON.stringify(edits));
    assert.ok(edits.every((e) => e.newText === 'svc' && doc.getText(e.range) === 'service'));
    const name = rangeOf(doc, '.name }}').start.translate(0, 2);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', doc.uri, name, 'cluster')),
      /comes from cluster prod-\d+, which rename cannot change/,
    );
  });

  it("shows a field's documentation on hover", async () => {
    const { doc, at } = await openAt('goTemplate:');
    const text = await waitForProvider(
      'vscode.executeHoverProvider',
      [doc.uri, at],
      (hs) => {
        const md = (hs || []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return /Go text\/template/.test(md) ? md : undefined;
      },
      'a hover with the goTemplate documentation',
    );
    assert.match(text, /Default: false/);
  });

  it('turns on goTemplate for Go syntax written without it, with missingkey=error', async () => {
    const { doc, editor } = await openFixture('params.yaml');
    const flag = rangeOf(doc, 'goTemplate: true');
    await editor.edit((e) => e.replace(flag, 'goTemplate: false'));
    try {
      const warning = await waitFor(
        () =>
          vscode.languages.getDiagnostics(doc.uri).find((d) => d.code && String(d.code.value || d.code) === 'template/gotemplate-syntax'),
        { describe: () => 'a template/gotemplate-syntax warning' },
      );
      const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', doc.uri, warning.range);
      const on = actions.find((a) => a.title.startsWith('Turn on goTemplate'));
      assert.ok(on, actions.map((a) => a.title).join(' | '));
      assert.ok(await vscode.workspace.applyEdit(on.edit));
      assert.match(doc.getText(), /goTemplateOptions: \["missingkey=error"\]\n {2}goTemplate: true\n/);
      await waitFor(
        () =>
          vscode.languages.getDiagnostics(doc.uri).some((d) => String(d.code && (d.code.value || d.code)).startsWith('template/'))
            ? undefined
            : true,
        { describe: () => 'no template finding left' },
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});
