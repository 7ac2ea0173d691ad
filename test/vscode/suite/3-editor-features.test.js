// What the language server offers besides diagnostics, as VS Code's own commands see it: hovers
// over ApplicationSet fields, the RollingSync code lenses and the plan they open, and quick fixes.
const assert = require('assert');
const vscode = require('vscode');
const { openFixture, serverReady, waitFor, waitForDiagnostics, diagCode, fmtRange, rangeOf, waitForCode, quickFixes } = require('./util');

function hoverText(hovers) {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n---\n');
}

describe('editor features', () => {
  before(serverReady);

  it('explains a field on hover, with its path in the ApplicationSet', async () => {
    const { doc } = await openFixture('valid.yaml');
    const key = rangeOf(doc, 'goTemplate:');
    const word = new vscode.Range(key.start, key.start.translate(0, 'goTemplate'.length));
    const hovers = await waitFor(
      async () => {
        const h = await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, key.start.translate(0, 3));
        return h.some((x) => /goTemplate/.test(hoverText([x]))) ? h : undefined;
      },
      { describe: () => 'a hover mentioning goTemplate' },
    );
    const ours = hovers.find((x) => /spec\.goTemplate/.test(hoverText([x])));
    assert.ok(ours, `no hover names spec.goTemplate: ${hoverText(hovers)}`);
    assert.match(hoverText([ours]), /Go text\/template/);
    assert.ok(
      ours.range && ours.range.isEqual(word),
      `hover range ${ours.range && fmtRange(ours.range)}, expected the key at ${fmtRange(word)}`,
    );
  });

  it('puts RollingSync lenses over the strategy, its rollingSync and each step', async () => {
    const { doc } = await openFixture('rolling.yaml');
    const lenses = await waitFor(
      async () => {
        const l = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 10);
        return l.length >= 4 ? l : undefined;
      },
      { describe: () => 'four code lenses (strategy, rollingSync, 2 steps)' },
    );
    const at = (line) => lenses.filter((l) => l.range.start.line === line).map((l) => l.command && l.command.title);
    const strategyLine = rangeOf(doc, 'strategy:').start.line;
    const text = doc.getText();
    const step1 = doc.positionAt(text.indexOf('- matchExpressions') + 2).line;
    const step2 = doc.positionAt(text.indexOf('- matchExpressions', text.indexOf('maxUpdate: 1')) + 2).line;
    // One lens a line: whether the controller runs the strategy over `strategy:`, the plan over `rollingSync:`.
    assert.match(
      at(strategyLine).join(' | '),
      /^(Enabled by |Ignored · |Not deployed yet · |Unknown whether honoured)/,
      `lens over strategy (line ${strategyLine}): ${JSON.stringify(at(strategyLine))}`,
    );
    const rollingSyncLine = rangeOf(doc, 'rollingSync:').start.line;
    assert.match(
      at(rollingSyncLine).join(' | '),
      /2 steps/,
      `lens over rollingSync (line ${rollingSyncLine}): ${JSON.stringify(at(rollingSyncLine))}`,
    );
    assert.match(at(step1).join(' | '), /^Step 1 · /, `lens over step 1 (line ${step1}): ${JSON.stringify(at(step1))}`);
    assert.match(
      at(step1).join(' | '),
      /· 1 app · .*\b1 at a time/,
      `step 1 selects dev-app, with maxUpdate: 1: ${JSON.stringify(at(step1))}`,
    );
    assert.match(at(step2).join(' | '), /· 1 app · /, `step 2 selects prod-app: ${JSON.stringify(at(step2))}`);
    assert.match(at(step2).join(' | '), /^Step 2 · /, `lens over step 2 (line ${step2}): ${JSON.stringify(at(step2))}`);
    // The selector is the YAML under the lens; the lens's tooltip has the whole description.
    const tip2 = lenses.find((l) => l.range.start.line === step2 && l.command && /^Step 2 /.test(l.command.title));
    assert.match(tip2.command.tooltip || '', /^Step 2 · env In \(prod\) · /);
    for (const l of lenses) assert.ok(l.command && l.command.command, `lens at ${fmtRange(l.range)} has no command`);
  });

  it('opens the RollingSync plan from a step lens', async () => {
    const { doc } = await openFixture('rolling.yaml');
    const lenses = await waitFor(
      async () => {
        const l = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 10);
        return l.some((x) => x.command && /^Step 1 /.test(x.command.title)) ? l : undefined;
      },
      { describe: () => 'the step 1 code lens' },
    );
    const { command, arguments: args = [] } = lenses.find((x) => x.command && /^Step 1 /.test(x.command.title)).command;
    await vscode.commands.executeCommand(command, ...args);
    const webviewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);
    const tab = await waitFor(() => webviewTabs().find((t) => t.label === 'Rollout: rolling'), {
      describe: () => `a "Rollout: rolling" webview; webview tabs: ${JSON.stringify(webviewTabs().map((t) => t.label))}`,
    });
    assert.match(tab.input.viewType, /appsetTools\.rollout$/);
    await vscode.window.tabGroups.close(tab);
  });

  it('offers the "did you mean" quick fix for a misspelt field and applying it clears the error', async () => {
    const { doc, editor } = await openFixture('unknown-field.yaml');
    const entry = rangeOf(doc, 'maxUpdates: 1');
    const key = new vscode.Range(entry.start, entry.start.translate(0, 'maxUpdates'.length));
    await waitForCode(doc.uri, 'appset/unknown-field', 'appset/unknown-field on maxUpdates');
    const actions = await quickFixes(doc.uri, key);
    const fix = actions.find((a) => a.title === 'Change to "maxUpdate"');
    assert.ok(fix, `no "Change to \"maxUpdate\"" quick fix; offered: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.ok(fix.kind && vscode.CodeActionKind.QuickFix.contains(fix.kind), `kind ${fix.kind && fix.kind.value}`);
    assert.strictEqual(fix.isPreferred, true);
    assert.ok(fix.edit, 'the quick fix carries a workspace edit');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.strictEqual(doc.getText(new vscode.Range(key.start, key.start.translate(0, 'maxUpdate: 1'.length))), 'maxUpdate: 1');
    await waitForDiagnostics(
      doc.uri,
      (all) => !all.some((d) => diagCode(d) === 'appset/unknown-field'),
      'the unknown-field error to go away after the fix',
    );
    assert.strictEqual(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document, editor.document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
