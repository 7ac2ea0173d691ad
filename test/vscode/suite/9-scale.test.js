// The editor at incident scale: the story's 540 Applications (12 clusters x 45 services, as
// test/helpers/story.ts). The preview opens with every Application and an outline entry for each, and
// follows a template edit (the Applications on screen edited at once, then, in the pause after it, the
// whole text replaced by VS Code) and a list element edit (the client edits the few lines in place),
// each time ending with exactly the server's text; each costs one request to the server,
// plus one per notification the server sent meanwhile (counted, not timed: speed is the bench's). The open
// and refresh times seen, split into their parts, are written to the report for the record; under
// CODE_SHIM_PROFILE the windows are marked for test/vscode/profileWindows.mjs.
const assert = require('assert');
const vscode = require('vscode');
const { storyFleet, markWindow, note, openFixture, serverReady, waitFor, fixtureUri, workbenchIdle } = require('./util');

const { secrets, appset } = storyFleet({ env: 'scale', subnet: 9 });

const notifications = async () => (await vscode.commands.executeCommand('appsetTools.viewsSnapshot')).resultsChanged;
/** Waits until the server has stopped announcing changes (the files this test wrote): each would refresh the preview too. */
async function quiet() {
  let last = -1;
  await waitFor(
    async () => {
      const n = await notifications();
      const same = n === last;
      last = n;
      return same;
    },
    { interval: 1500, describe: () => 'the server to stop announcing changes' },
  );
}

/** Where the time went: to the client's refresh (its wait after an edit), to its request, to the server's answer, to VS Code's new text. */
const parts = (t0, { fired, asked, answered }, seen) =>
  `${fired >= t0 ? `until the refresh ${fired - t0} ms, ` : ''}until the request ${asked - t0} ms, the request ${answered - asked} ms, VS Code applying the text ${seen - answered} ms`;

describe('the preview at incident scale (540 Applications)', () => {
  before(async () => {
    await serverReady();
    await vscode.workspace.fs.writeFile(fixtureUri('scale/clusters.yaml'), Buffer.from(secrets));
    await vscode.workspace.fs.writeFile(fixtureUri('scale/services.yaml'), Buffer.from(appset));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const f of ['scale/services.yaml', 'scale/clusters.yaml']) {
      try {
        await vscode.workspace.fs.delete(fixtureUri(f));
      } catch {
        // already gone
      }
    }
  });

  it('opens with 540 Applications and their outline, and follows a template edit and a list element edit, one request each (plus one per server notification)', async () => {
    const { doc } = await openFixture('scale/services.yaml');
    const uri = doc.uri.toString();
    await waitFor(
      async () =>
        ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', doc.uri, 10)) || []).some(
          (l) => l.command && /540 Applications/.test(l.command.title),
        ),
      { describe: () => 'the lens of the 540 Applications' },
    );
    // This preview's requests only: previews earlier tests left open refresh on a YAML edit too.
    const stats = async () => {
      const p = (await vscode.commands.executeCommand('appsetTools.viewsSnapshot')).preview;
      return { ...p, requests: p.bySource[uri] ?? 0 };
    };
    await quiet();
    const before = await stats();
    const notes00 = await notifications();
    const preview = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'appset-preview' && d.uri.query === uri);
    const apps = () =>
      (
        (preview() &&
          preview()
            .getText()
            .match(/^kind: Application$/gm)) ||
        []
      ).length;

    // Times are taken when VS Code hands the extension host the preview's text (its events), not when a
    // poll of it comes round (every 100 ms).
    const seen = (test) =>
      new Promise((resolve) => {
        let subs = [];
        const done = (v) => {
          for (const d of subs) d.dispose();
          subs = [];
          resolve(v);
        };
        const check = (d) => d.uri.scheme === 'appset-preview' && d.uri.query === uri && test(d.getText()) && done(Date.now());
        subs = [
          vscode.workspace.onDidOpenTextDocument((d) => check(d)),
          vscode.workspace.onDidChangeTextDocument((e) => check(e.document)),
        ];
        setTimeout(() => done(undefined), 60_000);
      });
    // The extension host's own CPU time (this test runs in it): what the client costs, which other
    // processes' load does not inflate, unlike the wall times.
    const cpu = (c0) => {
      const c = process.cpuUsage(c0);
      return Math.round((c.user + c.system) / 1000);
    };
    let c0 = process.cpuUsage();
    let t0 = Date.now();
    const openedAt = seen((t) => (t.match(/^kind: Application$/gm) || []).length === 540);
    await vscode.commands.executeCommand('appsetTools.showPreview', uri);
    await waitFor(() => apps() === 540, { describe: () => `540 Applications in the preview, saw ${apps()}` });
    const openSeen = (await openedAt) ?? Date.now();
    const open = openSeen - t0;
    const openCpu = cpu(c0);
    const opened = await stats();
    // One request, and at most one more per notification the server sent meanwhile (never one per event).
    const openNotes = (await notifications()) - notes00;
    assert.ok(
      opened.requests - before.requests <= 1 + openNotes,
      `opening: ${opened.requests - before.requests} preview requests, ${openNotes} notifications from the server`,
    );
    note(
      `opening the 540-Application preview: ${open} ms in VS Code (the server's request ${opened.lastMs} ms, ${Math.round(opened.lastBytes / 1024)} KiB; extension host CPU ${openCpu} ms)`,
    );
    note(`  ${parts(t0, opened.last, openSeen)}`);
    markWindow('open', t0, openSeen);

    const symbols = await waitFor(async () => {
      const s = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', preview().uri);
      return s && s.length ? s : undefined;
    });
    assert.strictEqual(symbols[0].name, 'services');
    assert.strictEqual(symbols[0].children.length, 540);
    assert.strictEqual(symbols[0].children[0].name, 'scale-01-svc-01');
    assert.match(symbols[0].children[0].detail, /cluster Secret "cluster-scale-01"/);

    // A template edit: the preview follows with one more request. First the server's notifications about
    // the files this test wrote must be over (each would refresh the preview too), and the workbench done
    // with the 258 KiB it just opened (an edit is timed on an idle editor).
    await quiet();
    note(`  the workbench idle before the template edit (round trips ${(await workbenchIdle()).join(', ')} ms)`);
    const settled = await stats();
    const notes0 = await notifications();
    const at = doc.getText().indexOf('targetRevision: HEAD') + 'targetRevision: '.length;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 4)), 'main');
    const refreshedAt = seen((t) => /targetRevision: main/.test(t));
    const wholeAt = seen((t) => /targetRevision: main/.test(t) && !/targetRevision: HEAD/.test(t));
    c0 = process.cpuUsage();
    t0 = Date.now();
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => preview() && /targetRevision: main/.test(preview().getText()), { describe: () => 'the preview of the edit' });
    const refreshSeen = (await refreshedAt) ?? Date.now();
    const refresh = refreshSeen - t0;
    const refreshCpu = cpu(c0);
    const refreshed = await stats();
    // One request for the edit, and at most one more per notification the server sent meanwhile (an edit
    // can move the workspace index: then every view asks again); never one per change event.
    const notes = (await notifications()) - notes0;
    assert.ok(
      refreshed.requests - settled.requests <= 1 + notes,
      `one edit: ${refreshed.requests - settled.requests} preview requests, ${notes} notifications from the server`,
    );
    note(`the edit: ${refreshed.requests - settled.requests} preview request(s), ${notes} resultsChanged notification(s)`);
    note(
      `refreshing it after a template edit: ${refresh} ms in VS Code (the server's request ${refreshed.lastMs} ms; extension host CPU ${refreshCpu} ms)`,
    );
    note(`  ${parts(t0, refreshed.last, refreshSeen)}`);
    markWindow('refresh', t0, refreshSeen);
    markWindow('refresh: VS Code applying the text', refreshed.last.answered, refreshSeen);
    markWindow('refresh: until the refresh', t0, refreshed.last.fired);
    // Every Application changed: too much to edit in place. The Applications on screen were edited at
    // once (a few hunks), and VS Code replaces the whole text in the pause after the edit: then the
    // preview is the server's text, exactly.
    assert.strictEqual(refreshed.lastHunks, -1, 'a template edit is too large to edit in place');
    assert.ok(
      refreshed.onScreen.hunks > 0 && refreshed.onScreen.hunks <= 40,
      `the Applications on screen edited first: ${refreshed.onScreen.hunks} hunks`,
    );
    const wholeSeen = (await wholeAt) ?? Date.now();
    const whole = await stats();
    assert.ok(whole.onScreen.wholeAsked > 0, 'the whole replacement followed');
    assert.strictEqual(preview().getText(), await vscode.commands.executeCommand('appsetTools.preview', uri));
    note(
      `  the ${refreshed.onScreen.hunks} on-screen hunks first; the whole text replaced after the pause (asked ${whole.onScreen.wholeAsked - refreshSeen} ms after), ${wholeSeen - t0} ms after the edit`,
    );
    markWindow('refresh: the whole text', whole.onScreen.wholeAsked, wholeSeen);

    // An edit of one list element changes its 12 Applications: the preview is edited in place (a few
    // lines), and ends the same as the server's text.
    await quiet();
    note(`  the workbench idle before the list element edit (round trips ${(await workbenchIdle()).join(', ')} ms)`);
    const notes1 = await notifications();
    const el = doc.getText().indexOf('service: svc-45') + 'service: '.length;
    const edit2 = new vscode.WorkspaceEdit();
    edit2.replace(doc.uri, new vscode.Range(doc.positionAt(el), doc.positionAt(el + 'svc-45'.length)), 'svc-99');
    const gone = (t) => /path: services\/svc-99/.test(t) && !/svc-45/.test(t);
    const elementAt = seen(gone);
    c0 = process.cpuUsage();
    t0 = Date.now();
    assert.ok(await vscode.workspace.applyEdit(edit2));
    await waitFor(() => preview() && gone(preview().getText()), { describe: () => 'the preview of the list element edit' });
    const elementSeen = (await elementAt) ?? Date.now();
    const elementCpu = cpu(c0);
    const element = await stats();
    assert.strictEqual(preview().getText(), await vscode.commands.executeCommand('appsetTools.preview', uri));
    assert.ok(element.lastHunks > 0, `the list element edit was applied in place (${element.lastHunks} hunks)`);
    assert.ok(element.requests - refreshed.requests <= 1 + ((await notifications()) - notes1), 'one request for the edit');
    note(
      `refreshing it after a list element edit: ${elementSeen - t0} ms in VS Code, in place (${element.lastHunks} hunks; the server's request ${element.lastMs} ms; extension host CPU ${elementCpu} ms)`,
    );
    note(`  ${parts(t0, element.last, elementSeen)}`);
    markWindow('list element edit', t0, elementSeen);
    markWindow('list element edit: VS Code applying the text', element.last.answered, elementSeen);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
