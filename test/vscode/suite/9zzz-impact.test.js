// Issue 41's story in a real VS Code: "This change" over the story's 540 Applications (12 clusters × 45
// services, RollingSync by tier) in a git repository. Bumping the shared revision (unsaved) makes the
// lens say every Application syncs, all at once, while progressive syncs are off; turning them on gives
// waves and time; moving the canary cluster's tier label in the cluster Secrets (unsaved, another file)
// empties the canary step; the lens opens the diff of the generated Applications against HEAD. Named to
// run last: it makes the test workspace a git repository, which every later lens would compare with.
const assert = require('assert');
const path = require('path');
const { execFileSync } = require('child_process');
const vscode = require('vscode');
const { storyFleet, note, openFixture, serverReady, waitFor, fixtureUri, screenshotNow, workbenchIdle, sleep } = require('./util');

// The editor draws a lens a moment after the provider answers (VS Code debounces lens updates): the
// screenshot waits for it.
async function shot(name) {
  await workbenchIdle();
  await sleep(2500);
  return screenshotNow(name);
}

const { secrets, appset } = storyFleet({ env: 'impact', subnet: 9, rolling: true });

async function changeLens(doc, pattern) {
  let seen = [];
  return waitFor(
    async () => {
      const ls = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 20)) || [];
      seen = ls.filter((l) => l.command).map((l) => l.command.title);
      return ls.find((l) => l.command && pattern.test(l.command.title));
    },
    { timeout: 90_000, describe: () => `a lens matching ${pattern}; lenses: ${JSON.stringify(seen)}` },
  );
}

async function replaceIn(doc, from, to) {
  const at = doc.getText().indexOf(from);
  assert.ok(at >= 0, `${from} in ${doc.uri.fsPath}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + from.length)), to);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

describe('This change: the impact of the uncommitted change (540 Applications)', () => {
  let previous;
  before(async () => {
    await serverReady();
    const config = vscode.workspace.getConfiguration('appsetTools');
    previous = config.inspect('progressiveSyncs').workspaceValue;
    await config.update('progressiveSyncs', 'disabled', vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.fs.writeFile(fixtureUri('impact/clusters.yaml'), Buffer.from(secrets));
    await vscode.workspace.fs.writeFile(fixtureUri('impact/services.yaml'), Buffer.from(appset));
    // The workspace (a fresh copy made by runTest.mjs) becomes a git repository whose HEAD holds the story.
    const root = path.dirname(path.dirname(fixtureUri('impact/services.yaml').fsPath));
    const git = (...args) =>
      execFileSync('git', args, {
        cwd: root,
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'the story before the change');
  });
  after(async () => {
    const config = vscode.workspace.getConfiguration('appsetTools');
    await config.update('progressiveSyncs', previous, vscode.ConfigurationTarget.Workspace);
  });

  it('says what the edit does: all at once (strategy ignored), then waves and time, then the canary step emptied', async () => {
    const { doc } = await openFixture('impact/services.yaml');
    // Nothing changed yet: the file's other lenses, and no "This change".
    await waitFor(
      async () => {
        const ls = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 20)) || [];
        return (
          ls.some((l) => l.command && /^540 Applications/.test(l.command.title)) &&
          !ls.some((l) => l.command && /^This change/.test(l.command.title))
        );
      },
      { timeout: 90_000, describe: () => 'the lenses of the unchanged file, without "This change"' },
    );

    // 1. The shared revision bumped, unsaved: every Application syncs at once, the strategy ignored.
    await replaceIn(doc, 'targetRevision: HEAD', 'targetRevision: v2');
    let lens = await changeLens(doc, /^This change/);
    assert.equal(lens.command.title, 'This change: all 540 Applications sync, all at once on 12 clusters (strategy ignored)');
    assert.equal(lens.range.start.line, 0, 'over the ApplicationSet');
    note(`lens: ${lens.command.title}`);
    await shot('impact-1-all-at-once');

    // 2. Progressive syncs enabled: the waves and the time.
    await vscode.workspace.getConfiguration('appsetTools').update('progressiveSyncs', 'enabled', vscode.ConfigurationTarget.Workspace);
    // (The change lens's own line: the strategy's lens says "waves" too.)
    lens = await changeLens(doc, /^This change: .*waves/);
    // canary: 45 Applications 5 at a time (9 waves); low-traffic: 180, 10 at a time (18); high-traffic: 315, 10 at a time (32).
    assert.equal(lens.command.title, 'This change: all 540 Applications sync · 59 waves · about 2 h 57 min');
    note(`lens: ${lens.command.title}`);
    await shot('impact-2-waves');

    // 3. The canary cluster's tier label moved in the cluster Secrets (another file, unsaved).
    const clusters = (await openFixture('impact/clusters.yaml')).doc;
    await replaceIn(clusters, 'tier: canary', 'tier: low-traffic');
    await vscode.window.showTextDocument(doc);
    lens = await changeLens(doc, /^This change: .*canary step is now empty/);
    assert.equal(lens.command.title, 'This change: all 540 Applications sync · 55 waves · about 2 h 45 min · the canary step is now empty');
    note(`lens: ${lens.command.title}`);
    await shot('impact-3-canary-empty');

    // 4. The lens opens VS Code's diff editor: the Applications at HEAD beside the current ones.
    await vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments || []));
    const shown = await waitFor(() => vscode.commands.executeCommand('appsetTools.changeSnapshot'), {
      describe: () => 'the diff view opened',
    });
    assert.match(shown.title, /^services: HEAD \([0-9a-f]{7}\) ↔ now$/);
    const tab = await waitFor(
      () => {
        const t = vscode.window.tabGroups.activeTabGroup.activeTab;
        return t && t.input instanceof vscode.TabInputTextDiff ? t : undefined;
      },
      { describe: () => 'a diff tab' },
    );
    assert.equal(tab.input.original.scheme, 'appset-change');
    const before = await vscode.workspace.openTextDocument(tab.input.original);
    const now = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.equal((before.getText().match(/targetRevision: HEAD/g) || []).length, 540);
    assert.equal((now.getText().match(/targetRevision: v2/g) || []).length, 540);
    note(`diff view: ${shown.title}`);
    await shot('impact-4-diff');
  });

  it('shows the change in the rollout view, and keeps the preview, marked stale, while the YAML is broken', async () => {
    const { doc } = await openFixture('impact/services.yaml');
    const uri = doc.uri.toString();
    // The rollout view: a "This change" section and, on each timeline row, what syncs at once.
    await vscode.commands.executeCommand('appsetTools.showRollout', uri, 0);
    const view = await waitFor(
      async () => {
        const snap = await vscode.commands.executeCommand('appsetTools.rolloutSnapshot');
        return snap && /id="change"/.test(snap.html) ? snap : undefined;
      },
      { timeout: 60_000, describe: () => 'the rollout view with its This change section' },
    );
    assert.match(view.html, /">1<\/a><\/td><td>tier In \(canary\)<\/td><td>45<\/td><td>0 \(now empty\)<\/td>/);
    assert.match(view.html, /<td>tier In \(high-traffic\) · 315 Applications on 7 clusters · 10 at a time<\/td>/);
    await shot('impact-5-rollout-view');

    // The preview, then a keystroke that breaks the YAML: the last good preview stays, marked stale.
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('appsetTools.showPreview', uri);
    const preview = await waitFor(() =>
      vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === 'appset-preview' && d.uri.query === uri && /540 Applications/.test(d.getText()),
      ),
    );
    await replaceIn(doc, '          - service: svc-02\n', '          - service: [svc-02\n');
    await waitFor(() => /^# STALE: the YAML does not parse \(line \d+: /m.test(preview.getText()), {
      describe: () => `the stale mark; the preview begins: ${preview.getText().split('\n').slice(0, 3).join(' | ')}`,
    });
    assert.match(preview.getText().split('\n', 1)[0], /540 Applications/, 'the last good preview, not what could be read');
    note(`preview: ${preview.getText().split('\n')[1]}`);
    // The lens does not guess from a broken document either.
    const unknown = await changeLens(doc, /^This change: not known while the YAML does not parse \(line \d+: /);
    note(`lens: ${unknown.command.title}`);
    await shot('impact-6-stale-preview');
  });
});
