// The extension test module for VS Code for the Web (webCheck.mjs loads it through the smoke-test
// driver's payload). The workbench runs it in the extension host that runs the extension, here the
// browser's web worker extension host, so it is plain CommonJS that needs nothing but `vscode`: a
// worker has no `require` of its own, no `fs`, no mocha.
//
// It checks, as a user of github.dev would see it, that the web build works: the test itself and the
// extension run in the web worker (no Node), the language server runs in a web worker too, and over a
// workspace the browser reads through VS Code's file system API it publishes the diagnostic, the
// RollingSync lens and a hover; then the preview document lists the generated Applications and the
// rollout view (a webview) draws the RollingSync steps with the verdict read from the workspace's Argo
// CD configuration. It writes its report into the workspace (`.web-check/report.txt`, through the same
// file system API) and asks the driver for a screenshot at each stage ('editor', 'views').
const vscode = require('vscode');

const EXTENSION_ID = 'appset-tools.appset-tools';
const FILE = 'unknown-field.yaml';
/** Two Applications (dev-app, prod-app) in a two-step RollingSync; argocd/argocd-cmd-params-cm.yaml enables it. */
const ROLLING = 'rolling.yaml';
const lines = [];
const say = (line) => lines.push(line);

function folder() {
  const f = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!f) throw new Error('no workspace folder open (webCheck.mjs opens the test workspace)');
  return f.uri;
}
const checkDir = () => vscode.Uri.joinPath(folder(), '.web-check');
const text = (s) => new TextEncoder().encode(s);

async function waitFor(probe, what, timeout = 60_000) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (e) {
      last = `error: ${e && e.message}`;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last seen: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function check(ok, what) {
  if (!ok) throw new Error(what);
  say(`ok - ${what.replace(/^not /, '')}`);
}

const codeOf = (d) => (d.code && typeof d.code === 'object' ? String(d.code.value) : String(d.code));
const hoverText = (hs) => hs.map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n')).join('\n---\n');

/** Asks the driver to take a screenshot now, and waits until it has (it deletes the request). */
async function screenshot(name) {
  const request = vscode.Uri.joinPath(checkDir(), 'shot.request');
  await vscode.workspace.fs.writeFile(request, text(name));
  await waitFor(
    async () => {
      try {
        await vscode.workspace.fs.stat(request);
        return false;
      } catch {
        return true;
      }
    },
    'the driver to take the screenshot',
    30_000,
  );
}

async function checks() {
  // Where this runs: a web worker has `importScripts` and no Node `process`.
  const inWorker = typeof importScripts === 'function' && typeof process === 'undefined' && typeof require !== 'undefined';
  check(inWorker, `not in a web worker extension host (importScripts: ${typeof importScripts}, process: ${typeof process})`);

  const uri = vscode.Uri.joinPath(folder(), FILE);
  say(`workspace: ${folder().toString()}`);
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc);

  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  check(!!ext, `not loaded: ${EXTENSION_ID}`);
  await waitFor(() => ext.isActive, `${EXTENSION_ID} to activate`);
  // The extension host's kind as VS Code reports it: the web worker host is a UI-side host.
  say(`extensionKind: ${ext.extensionKind === vscode.ExtensionKind.UI ? 'UI' : 'Workspace'}`);

  const host = await waitFor(async () => {
    const h = await vscode.commands.executeCommand('appsetTools.hostSnapshot');
    return h && h.server ? h : undefined;
  }, 'the client to report where it and its language server run');
  check(host.client === 'web' && host.server === 'browser', `not the web client with a web worker server: ${JSON.stringify(host)}`);

  const diags = await waitFor(() => {
    const all = vscode.languages.getDiagnostics(uri);
    return all.some((d) => codeOf(d) === 'appset/unknown-field') ? all : undefined;
  }, 'the appset/unknown-field diagnostic');
  const unknown = diags.find((d) => codeOf(d) === 'appset/unknown-field');
  const at = doc.getText().indexOf('maxUpdates: 1');
  check(
    doc.offsetAt(unknown.range.start) === at && /maxUpdate/.test(unknown.message),
    `not the unknown-field diagnostic on maxUpdates: ${JSON.stringify({ message: unknown.message, start: doc.offsetAt(unknown.range.start), at })}`,
  );

  const lenses = await waitFor(async () => {
    const ls = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri);
    return ls && ls.some((l) => l.command && /Step 1/.test(l.command.title)) ? ls : undefined;
  }, 'a RollingSync "Step 1" code lens');
  check(lenses.length > 0, `not a lens: ${lenses.map((l) => l.command && l.command.title).join(' | ')}`);
  say(`lenses: ${lenses.map((l) => l.command && l.command.title).join(' | ')}`);

  // "Show this change" from the palette: no git history here, and the command says so (not "nothing changed").
  const change = await vscode.commands.executeCommand('appsetTools.showChange');
  check(
    /^This change: not known \(VS Code for the Web reads no git history/.test(String(change)),
    `not "not known" from Show this change: ${JSON.stringify(change)}`,
  );

  const key = doc.positionAt(doc.getText().indexOf('goTemplate: true') + 3);
  const hovers = await waitFor(async () => {
    const hs = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, key);
    return hs && /spec\.goTemplate/.test(hoverText(hs)) ? hs : undefined;
  }, 'a hover on spec.goTemplate');
  check(/Go text\/template/.test(hoverText(hovers)), `not the goTemplate hover: ${hoverText(hovers).slice(0, 200)}`);

  // The quick fix for the misspelled key, and completion of the keys a RollingSync step has.
  const actions = await waitFor(async () => {
    const as = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, unknown.range);
    return as && as.some((a) => a.edit) ? as : undefined;
  }, 'a quick fix for maxUpdates');
  const fix = actions.find((a) => a.edit && a.edit.entries().some(([, edits]) => edits.some((e) => e.newText === 'maxUpdate')));
  check(!!fix, `not a quick fix that writes maxUpdate: ${actions.map((a) => a.title).join(' | ')}`);
  say(`quick fix: ${fix.title}`);
  const completions = await waitFor(async () => {
    const l = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', uri, doc.positionAt(at));
    return l && l.items.length ? l : undefined;
  }, 'completions in a RollingSync step');
  const labels = completions.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  check(labels.includes('maxUpdate'), `not maxUpdate among the completions in a step: ${labels.join(', ')}`);

  // On screen: the hover shown over the key, with the squiggle and the lenses in the editor.
  editor.selection = new vscode.Selection(key, key);
  editor.revealRange(new vscode.Range(key, key));
  await vscode.commands.executeCommand('editor.action.showHover');
  await new Promise((r) => setTimeout(r, 1000));
  await screenshot('editor');
  await views();
}

/** The preview and the rollout view: what the commands of the lenses open, beside the source. */
async function views() {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const uri = vscode.Uri.joinPath(folder(), ROLLING);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });

  await vscode.commands.executeCommand('appsetTools.showPreview', uri.toString());
  const preview = await waitFor(() => {
    const e = vscode.window.visibleTextEditors.find((ed) => ed.document.uri.scheme === 'appset-preview');
    if (e && /name: dev-app/.test(e.document.getText())) return e;
    // What shows instead (a failure says it).
    throw new Error(
      JSON.stringify({
        editors: vscode.window.visibleTextEditors.map((ed) => `${ed.document.uri.toString()}: ${ed.document.getText().slice(0, 300)}`),
      }),
    );
  }, 'the preview document with the generated Applications');
  const names = [...preview.document.getText().matchAll(/^kind: Application\n(?:.*\n)*?  name: (\S+)$/gm)].map((m) => m[1]);
  check(
    names.join(',') === 'dev-app,prod-app',
    `not the two generated Applications in the preview: ${JSON.stringify(names)} in ${preview.document.getText().slice(0, 400)}`,
  );

  // The rollout view in a third column, beside the preview (Beside from the focused preview).
  await vscode.window.showTextDocument(preview.document, { viewColumn: preview.viewColumn, preserveFocus: false });
  await vscode.commands.executeCommand('appsetTools.showRollout', uri.toString());
  const plan = await waitFor(async () => {
    const r = await vscode.commands.executeCommand('appsetTools.rolloutSnapshot');
    return r && /Step 2/.test(r.html) ? r : undefined;
  }, 'the rollout view with the RollingSync steps');
  const html = plan.html.replace(/<(style|script)[^]*?<\/\1>/g, '');
  const steps = [...html.matchAll(/<h3>(Step \d+ · [^<]*)<\/h3>/g)].map((m) => m[1]);
  check(
    plan.title === 'Rollout: rolling' && steps.length === 2 && /dev-app/.test(html) && /prod-app/.test(html),
    `not the two steps with their Applications in the rollout view: ${JSON.stringify({ title: plan.title, steps })}`,
  );
  say(`rollout steps: ${steps.join(' | ')}`);
  // No git history in the browser: the view's "This change" section says "not known", as the lens does.
  check(
    /<section class="change" id="change"><h3>This change<\/h3><p class="summary">Not known: /.test(html),
    `not the rollout view's "This change" section saying "not known": ${(/<section class="change"[^]*?<\/section>/.exec(html) || ['none'])[0]}`,
  );
  // The verdict, from the Argo CD configuration in the workspace the browser read (argocd/argocd-cmd-params-cm.yaml).
  const banner = (/<p class="(?:warn|ok)">([^]*?)<\/p>/.exec(html) || [])[1] || '';
  check(
    /Progressive syncs enabled by/.test(banner) && /argocd-cmd-params-cm\.yaml/.test(banner),
    `not the verdict from the workspace's Argo CD configuration: ${banner.replace(/<[^>]*>/g, '')}`,
  );
  // The status bar says the same verdict for the source (its documents are the workspace's, not file: ones).
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
  const status = await waitFor(async () => {
    const st = await vscode.commands.executeCommand('appsetTools.statusSnapshot');
    return st && st.visible ? st : undefined;
  }, 'the status bar item for the source');
  check(/Progressive syncs: enabled/.test(status.text), `not the verdict in the status bar: ${JSON.stringify(status)}`);
  await screenshot('views');
}

async function run() {
  let failure;
  try {
    await checks();
  } catch (e) {
    failure = e;
    say(`FAILED: ${e && e.message}`);
  }
  try {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(checkDir(), 'report.txt'), text(lines.join('\n') + '\n'));
  } catch {
    /* the driver then says the report is missing */
  }
  if (failure) throw failure;
}

module.exports = { run };
