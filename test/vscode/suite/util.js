// Helpers shared by the VS Code tests: open fixtures from the test workspace and wait for what the
// language server publishes (it answers asynchronously, debounced, after the extension activates).
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');

const EXTENSION_ID = 'appset-tools.appset-tools';

function fixtureUri(name) {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  assert.ok(folder, 'the tests need the test workspace open (runTest.mjs passes it as the folder)');
  return vscode.Uri.file(path.join(folder.uri.fsPath, name));
}

async function openFixture(name) {
  const doc = await vscode.workspace.openTextDocument(fixtureUri(name));
  const editor = await vscode.window.showTextDocument(doc);
  return { doc, editor };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it returns a truthy value or the timeout ends; then fails with `describe()`,
 * which should say what was seen, so a failure is diagnosable from the report alone.
 */
async function waitFor(probe, { timeout = 45_000, interval = 100, describe = () => '' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out after ${timeout} ms: ${describe()}`);
    await sleep(interval);
  }
}

function diagCode(d) {
  return typeof d.code === 'object' && d.code !== null ? String(d.code.value) : d.code === undefined ? undefined : String(d.code);
}

function show(diags) {
  return JSON.stringify(diags.map((d) => ({ code: diagCode(d), range: fmtRange(d.range), message: d.message })));
}

function fmtRange(r) {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** Waits until the diagnostics for `uri` satisfy `predicate` (called with all of them). */
function waitForDiagnostics(uri, predicate, what, timeout) {
  return waitFor(
    () => {
      const all = vscode.languages.getDiagnostics(uri);
      return predicate(all) ? all : undefined;
    },
    { timeout, describe: () => `${what}; diagnostics for ${path.basename(uri.fsPath)}: ${show(vscode.languages.getDiagnostics(uri))}` },
  );
}

/** Waits until `uri` has a diagnostic with `code`; returns it (`diag`) and all of the file's (`all`). */
async function waitForCode(uri, code, what, timeout) {
  const all = await waitForDiagnostics(uri, (ds) => ds.some((d) => diagCode(d) === code), what, timeout);
  return { all, diag: all.find((d) => diagCode(d) === code) };
}

/** The quick fixes VS Code offers on `range`; the last argument asks it to resolve lazily computed edits too. */
function quickFixes(uri, range) {
  return vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value, 10);
}

/** Runs a provider command (`vscode.execute…Provider`, with `args`) until `pick` finds an answer in its result. */
function waitForProvider(command, args, pick, what) {
  return waitFor(async () => pick(await vscode.commands.executeCommand(command, ...args)), { describe: () => what });
}

/** The range of the first occurrence of `needle` in the document (the text a diagnostic should cover). */
function rangeOf(doc, needle, from = 0) {
  const i = doc.getText().indexOf(needle, from);
  assert.ok(i >= 0, `fixture ${doc.uri.fsPath} lacks ${JSON.stringify(needle)}`);
  return new vscode.Range(doc.positionAt(i), doc.positionAt(i + needle.length));
}

async function activeExtension() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(
    ext,
    `extension ${EXTENSION_ID} is not loaded; loaded: ${vscode.extensions.all
      .map((e) => e.id)
      .filter((id) => !id.startsWith('vscode.'))
      .join(', ')}`,
  );
  await waitFor(() => ext.isActive, { describe: () => `${EXTENSION_ID} did not activate` });
  return ext;
}

let ready;
/**
 * Resolves once the extension is active and its language server has published diagnostics for a
 * known-broken fixture. Suites call it in `before`, so a server that never answers fails once,
 * clearly, instead of every test timing out in turn.
 */
function serverReady() {
  ready ??= (async () => {
    const { doc } = await openFixture('unknown-field.yaml');
    await activeExtension();
    await waitForCode(
      doc.uri,
      'appset/unknown-field',
      'the language server to publish its first diagnostics (appset/unknown-field in unknown-field.yaml)',
      30_000,
    );
  })();
  return ready;
}

/**
 * A cluster Secret for the tests that run inside the extension host (CommonJS, so they cannot load
 * test/helpers/clusters.ts): the same shape as that builder writes with `opaque: true`.
 */
function clusterSecret({ name, server, labels = {}, secretName, namespace = 'argocd' }) {
  const lines = ['apiVersion: v1', 'kind: Secret', 'metadata:', `  name: ${secretName ?? `cluster-${name}`}`, `  namespace: ${namespace}`];
  lines.push('  labels:', '    argocd.argoproj.io/secret-type: cluster');
  for (const [k, v] of Object.entries(labels)) lines.push(`    ${k}: ${v}`);
  lines.push('type: Opaque', 'stringData:', `  name: ${name}`, `  server: ${server ?? `https://${name}.example.com`}`);
  return lines.join('\n') + '\n';
}

module.exports = {
  clusterSecret,
  EXTENSION_ID,
  fixtureUri,
  openFixture,
  waitFor,
  waitForDiagnostics,
  waitForCode,
  quickFixes,
  waitForProvider,
  diagCode,
  show,
  fmtRange,
  rangeOf,
  activeExtension,
  serverReady,
  sleep,
};
