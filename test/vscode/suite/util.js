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

/**
 * The story's fleet at incident scale (as test/helpers/story.ts builds it) for the tests that open it in
 * VS Code: 12 cluster Secrets labelled `env` and a tier (1 canary, 4 low-traffic, 7 high-traffic) on
 * 10.<subnet>.0.x, and an ApplicationSet of 45 services over them: 540 Applications. `rolling` adds the
 * three-step RollingSync by tier and copies the tier label into the template, so the steps select it.
 */
function storyFleet({ env, subnet, rolling = false }) {
  const tiers = ['canary', ...Array(4).fill('low-traffic'), ...Array(7).fill('high-traffic')];
  const pad = (n) => String(n).padStart(2, '0');
  const secrets = tiers
    .map((tier, i) =>
      clusterSecret({ name: `${env}-${pad(i + 1)}`, server: `https://10.${subnet}.0.${i + 1}:6443`, labels: { env, tier } }),
    )
    .join('---\n');
  const services = Array.from({ length: 45 }, (_, i) => `          - service: svc-${pad(i + 1)}\n`).join('');
  const step = (tier, maxUpdate) =>
    `        - matchExpressions:\n            - key: tier\n              operator: In\n              values: [${tier}]\n          maxUpdate: ${maxUpdate}\n`;
  const strategy = rolling
    ? `  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n${step('canary', 5)}${step('low-traffic', 10)}${step('high-traffic', 10)}`
    : '';
  const labels = rolling ? `      labels:\n        tier: '{{ index .metadata.labels "tier" }}'\n` : '';
  const appset = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: services
  namespace: argocd
spec:
  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
  - matrix:
      generators:
      - clusters:
          selector:
            matchLabels:
              env: ${env}
      - list:
          elements:
${services}${strategy}  template:
    metadata:
      name: '{{.name}}-{{.service}}'
${labels}    spec:
      project: default
      source:
        repoURL: https://github.com/example/services.git
        targetRevision: HEAD
        path: 'services/{{.service}}'
      destination:
        server: '{{.server}}'
        namespace: '{{.service}}'
`;
  return { secrets, appset };
}

/** Under the code-server shim, writes a stage to the report as it is reached (a run cut short says where). */
/**
 * Under APPSET_VSCODE_SCREENSHOT, a screenshot of the workbench now, as `<that path without .png>-<name>.png`
 * (code-shim.mjs takes it): the one taken when the run ends comes after the workbench stopped the extension
 * host, with no diagnostics, hovers or status-bar items left. Resolves to the png's path, or undefined.
 */
async function screenshotNow(name) {
  const shot = process.env.CODE_SHIM_SCREENSHOT;
  if (!shot) return undefined;
  const fs = require('fs');
  const png = `${shot.replace(/\.png$/, '')}-${name}.png`;
  fs.writeFileSync(`${shot}.request`, png);
  await waitFor(() => !fs.existsSync(`${shot}.request`), { timeout: 20_000, describe: () => `the shim to take ${png}` });
  return png;
}

/**
 * Waits until the workbench is idle: three round trips in a row to its main thread (setting a context
 * key, which the workbench does at once when it is free) each under `ms`. A measurement made right
 * after opening 258 KiB would otherwise also time VS Code still laying out and tokenising that text.
 * Returns the round trips seen, for the report.
 */
async function workbenchIdle({ ms = 20, timeout = 20_000 } = {}) {
  const seen = [];
  const until = Date.now() + timeout;
  let calm = 0;
  while (calm < 3 && Date.now() < until) {
    const t = Date.now();
    await vscode.commands.executeCommand('setContext', 'appsetTools.test.idleProbe', seen.length);
    const rt = Date.now() - t;
    seen.push(rt);
    calm = rt < ms ? calm + 1 : 0;
    await new Promise((r) => setTimeout(r, 50));
  }
  return seen;
}

function note(line) {
  if (process.env.CODE_SHIM_REPORT) require('fs').appendFileSync(process.env.CODE_SHIM_REPORT, `      · ${line}\n`);
}

/**
 * Under CODE_SHIM_PROFILE (the shim profiles the workbench), records a window of wall time (Date.now())
 * that test/vscode/profileWindows.mjs cuts out of the profile.
 */
function markWindow(name, start, end) {
  const file = process.env.CODE_SHIM_PROFILE;
  if (file) require('fs').appendFileSync(`${file}.windows.jsonl`, JSON.stringify({ name, start, end }) + '\n');
}

module.exports = {
  workbenchIdle,
  screenshotNow,
  clusterSecret,
  markWindow,
  storyFleet,
  note,
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
