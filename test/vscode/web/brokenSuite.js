// The test module for a broken language server in VS Code for the Web (webCheck.mjs runs it with a
// copy of the extension whose dist/web/server.js throws as soon as it is evaluated). It checks that the
// start fails closed: the extension activates (no activation left waiting for an initialize that never
// comes), the user is told once that the language server did not start and why, a restart that fails
// again tells nobody twice, and the driver sees that one notification on screen (no message of the
// language client's own beside it). Plain CommonJS, only `vscode` (see suite.js).
const vscode = require('vscode');

const EXTENSION_ID = 'appset-tools.appset-tools';
const lines = [];
const say = (line) => lines.push(line);
const folder = () => vscode.workspace.workspaceFolders[0].uri;
const checkDir = () => vscode.Uri.joinPath(folder(), '.web-check');
const text = (s) => new TextEncoder().encode(s);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(probe, what, timeout = 60_000) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last seen: ${JSON.stringify(last)})`);
    await sleep(200);
  }
}

function check(ok, what) {
  if (!ok) throw new Error(what);
  say(`ok - ${what.replace(/^not /, '')}`);
}

async function checks() {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder(), 'rolling.yaml'));
  await vscode.window.showTextDocument(doc);
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  check(
    !!ext,
    `not loaded: ${EXTENSION_ID} (${vscode.extensions.all
      .map((e) => e.id)
      .filter((id) => !id.startsWith('vscode.'))
      .join(', ')})`,
  );
  // Well within the worker's own start-up limit (web/extension.ts WORKER_START_MS): the error ends the start.
  const t0 = Date.now();
  await waitFor(() => ext.isActive, `${EXTENSION_ID} to activate with a worker that throws`, 30_000);
  say(`activated in ${Date.now() - t0} ms`);
  const told = await waitFor(async () => {
    const r = await vscode.commands.executeCommand('appsetTools.restartSnapshot');
    return r && r.shown.length ? r : undefined;
  }, 'the message that the language server did not start');
  check(
    told.shown.length === 1 && /did not start \(its web worker failed: .*broken on purpose/.test(told.shown[0]) && told.deaths === 0,
    `not one message that the language server did not start, with the worker's error: ${JSON.stringify(told)}`,
  );
  const host = await vscode.commands.executeCommand('appsetTools.hostSnapshot');
  check(host.client === 'web' && host.server === undefined, `not a web client without a server: ${JSON.stringify(host)}`);

  // Restarting fails the same way: it ends too, and says nothing a second time.
  await vscode.commands.executeCommand('appsetTools.restartServer');
  const again = await vscode.commands.executeCommand('appsetTools.restartSnapshot');
  check(
    again.shown.length === 1 && again.deaths === 0,
    `not still one message after a restart that failed again: ${JSON.stringify(again)}`,
  );
  // The notification centre open, for the driver to read every notification shown (a toast may be hidden already).
  await vscode.commands.executeCommand('notifications.showList');
  await sleep(1000);
  await screenshot('broken');
  say('ok - one message that the language server did not start');
}

async function screenshot(name) {
  const request = vscode.Uri.joinPath(checkDir(), 'shot.request');
  await vscode.workspace.fs.writeFile(request, text(name));
  await waitFor(
    () =>
      vscode.workspace.fs.stat(request).then(
        () => false,
        () => true,
      ),
    'the driver to take the screenshot',
    30_000,
  );
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
