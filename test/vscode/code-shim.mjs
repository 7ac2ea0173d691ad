#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's runTests() on machines where no
// desktop VS Code can be downloaded. runTests spawns it with the usual VS Code arguments; it
// runs the extension tests in code-server instead (a real VS Code: web workbench + Node
// extension host) and exits with the tests' exit code, so callers cannot tell the difference.
//
// Steps: start code-server on a free loopback port in its own process group with private HOME,
// TMPDIR, user-data and extensions dirs and the smoke-test driver on; open the workbench in
// headless Chromium (playwright-core) with a `payload` naming the extension under development
// and the tests module; the workbench runs the tests in the extension host and reports the result
// through window.codeAutomationExit(code). The extension host's stdout is invisible, so the test
// runner writes its output to $CODE_SHIM_REPORT, which we print at the end.
//
// Environment:
//   CODE_SHIM_NODE, CODE_SHIM_ENTRY  Node 24 binary and code-server's out/node/entry.js (required)
//   CODE_SHIM_CHROMIUM               browser binary (default /usr/bin/chromium)
//   CODE_SHIM_TIMEOUT_MS             overall limit (default 180000)
//   CODE_SHIM_REPORT                 report file (default: inside the scratch dir)
//   CODE_SHIM_SCREENSHOT             if set, save a screenshot of the workbench there at the end
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const say = (msg) => process.stdout.write(`[code-shim ${elapsed()}] ${msg}\n`);

// ---- arguments, as runTests passes them: `--name=value` flags, positional folder last/first
function parseArgs(argv) {
  const opts = { folders: [], devPaths: [], testsPath: undefined, userDataDir: undefined, extensionsDir: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(a);
    if (!m) { opts.folders.push(resolve(a)); continue; }
    const [, name, inline] = m;
    const takesValue = ['extensionDevelopmentPath', 'extensionTestsPath', 'user-data-dir', 'extensions-dir'].includes(name);
    const value = inline ?? (takesValue ? argv[++i] : undefined);
    if (name === 'extensionDevelopmentPath') opts.devPaths.push(resolve(value));
    else if (name === 'extensionTestsPath') opts.testsPath = resolve(value);
    else if (name === 'user-data-dir') opts.userDataDir = resolve(value);
    else if (name === 'extensions-dir') opts.extensionsDir = resolve(value);
    // Everything else (--no-sandbox, --disable-updates, --skip-welcome...) is for Electron.
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const node = process.env.CODE_SHIM_NODE;
const entry = process.env.CODE_SHIM_ENTRY;
const browserPath = process.env.CODE_SHIM_CHROMIUM || '/usr/bin/chromium';
const timeoutMs = Number(process.env.CODE_SHIM_TIMEOUT_MS) || 180_000;

function fail(msg) {
  process.stderr.write(`[code-shim] ${msg}\n`);
  process.exit(2);
}
if (!node || !existsSync(node)) fail(`CODE_SHIM_NODE must name a Node 24 binary (got ${node}); run test/vscode/install-code-server.mjs`);
if (!entry || !existsSync(entry)) fail(`CODE_SHIM_ENTRY must name code-server's out/node/entry.js (got ${entry})`);
if (!existsSync(browserPath)) fail(`no browser at ${browserPath}: apt-get install -y chromium (or set CODE_SHIM_CHROMIUM)`);
if (!opts.devPaths.length) fail('missing --extensionDevelopmentPath');
if (!opts.testsPath) fail('missing --extensionTestsPath');

// ---- private scratch space: nothing of code-server or Chromium lands in the real HOME or /tmp
const scratch = resolve(opts.userDataDir ? dirname(opts.userDataDir) : join(process.cwd(), '.code-shim'), 'shim');
rmSync(scratch, { recursive: true, force: true });
const dirs = {
  home: join(scratch, 'home'),
  tmp: join(scratch, 'tmp'),
  browser: join(scratch, 'browser'),
  userData: opts.userDataDir ?? join(scratch, 'user-data'),
  extensions: opts.extensionsDir ?? join(scratch, 'extensions'),
};
for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
mkdirSync(join(dirs.userData, 'User'), { recursive: true });
// Quiet the gallery lookups, the AI side bar and the welcome page: noise in the logs, and a
// welcome editor would steal focus from the documents the tests open.
writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify({
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
}, null, 2));
const reportFile = process.env.CODE_SHIM_REPORT ? resolve(process.env.CODE_SHIM_REPORT) : join(scratch, 'report.txt');
writeFileSync(reportFile, '');
const serverLogFile = join(scratch, 'code-server.log');
const workbenchLogFile = join(scratch, 'workbench.log');
const workbenchLog = createWriteStream(workbenchLogFile);

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); });
  });
}

// ---- cleanup: code-server runs in its own process group, so one signal reaches the server,
// the extension host and our language server.
let server;
let browser;
let cleaning;
async function cleanup() {
  cleaning ??= (async () => {
    try { await browser?.close(); } catch { /* already gone */ }
    if (server?.pid && server.exitCode === null) {
      try { process.kill(-server.pid, 'SIGTERM'); } catch { /* already gone */ }
      const exited = new Promise((r) => server.once('exit', r));
      const grace = new Promise((r) => setTimeout(r, 3000).unref());
      await Promise.race([exited, grace]);
      try { process.kill(-server.pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    workbenchLog.end();
  })();
  return cleaning;
}

function tail(file, lines) {
  try { return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return '(none)'; }
}

function printReport() {
  const report = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '';
  process.stdout.write(report.trim() ? `${report.trimEnd()}\n` : '[code-shim] the test runner wrote no report (see the workbench log below)\n');
}

async function finish(code, why) {
  await cleanup();
  say('code-server and browser stopped');
  printReport();
  if (code !== 0) {
    process.stdout.write(`\n[code-shim] ${why}\n--- workbench log (last 60 lines of ${workbenchLogFile}) ---\n${tail(workbenchLogFile, 60)}\n`);
    process.stdout.write(`--- code-server log (last 30 lines of ${serverLogFile}) ---\n${tail(serverLogFile, 30)}\n`);
  }
  say(`exit ${code}${why ? ` (${why})` : ''}`);
  process.exit(code);
}

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => finish(130, `interrupted by ${sig}`));
setTimeout(() => finish(124, `timed out after ${timeoutMs} ms`), timeoutMs).unref();

async function waitHealthy(port, deadline) {
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return;
    } catch { /* not listening yet */ }
    if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode} before listening`);
    if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 30 s');
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function main() {
  const port = await freePort();
  const serverLog = createWriteStream(serverLogFile);
  const folder = opts.folders[0];
  server = spawn(node, [
    entry,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    // Makes the workbench honour `payload` (extension under development + tests) and expose
    // the automation hooks; without it a built workbench ignores both.
    '--vscode-option', 'enable-smoke-test-driver',
    ...(folder ? [folder] : []),
  ], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // An empty gallery: no open-vsx lookups (they fail offline and clutter the log).
    env: { ...process.env, HOME: dirs.home, TMPDIR: dirs.tmp, CODE_SHIM_REPORT: reportFile, EXTENSIONS_GALLERY: '{}' },
  });
  server.stdout.pipe(serverLog);
  server.stderr.pipe(serverLog);
  server.on('exit', (code, sig) => { if (!cleaning) finish(1, `code-server exited unexpectedly (${code ?? sig})`); });
  await waitHealthy(port, Date.now() + 30_000);
  say(`code-server ${port} up`);

  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ...opts.devPaths.map((p) => ['extensionDevelopmentPath', remote(p)]),
    ['extensionTestsPath', remote(opts.testsPath)],
  ];
  const url = new URL(`http://127.0.0.1:${port}/`);
  if (folder) url.searchParams.set('folder', folder);
  url.searchParams.set('payload', JSON.stringify(payload));

  browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    env: { ...process.env, HOME: dirs.browser, TMPDIR: dirs.tmp },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  let reportExit;
  const exitCode = new Promise((res) => { reportExit = res; });
  await page.exposeFunction('codeAutomationExit', (code) => reportExit(Number(code) || 0));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    workbenchLog.write(`[${type}] ${Array.isArray(args) ? args.join(' ') : String(args)}\n`);
  });
  page.on('pageerror', (e) => workbenchLog.write(`[pageerror] ${e.stack || e}\n`));
  page.on('console', (m) => { if (m.type() === 'error') workbenchLog.write(`[console.error] ${m.text()}\n`); });
  page.on('crash', () => finish(1, 'the workbench page crashed'));
  await page.goto(url.href);
  say('workbench opened; running tests');
  const code = await exitCode;
  say(`tests finished with exit code ${code}`);
  if (process.env.CODE_SHIM_SCREENSHOT) {
    try { await page.screenshot({ path: process.env.CODE_SHIM_SCREENSHOT }); } catch { /* best effort */ }
  }
  await finish(code, code === 0 ? '' : `tests failed with exit code ${code}`);
}

main().catch((e) => finish(1, `shim error: ${e.stack || e}`));
