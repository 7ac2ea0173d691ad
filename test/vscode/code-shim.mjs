#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's runTests() on machines where no
// desktop VS Code can be downloaded. runTests spawns it with the usual VS Code arguments; it
// runs the extension tests in code-server instead (a real VS Code: web workbench + Node
// extension host) and exits with the tests' exit code, so callers cannot tell the difference.
//
// Steps: start code-server (codeServer.mjs) with the smoke-test driver on; open the workbench in
// headless Chromium with a `payload` naming the extension under development and the tests module;
// the workbench runs the tests in the extension host and reports the result through
// window.codeAutomationExit(code). The extension host's stdout is invisible, so the test runner
// writes its output to $CODE_SHIM_REPORT, which we print at the end.
//
// Environment:
//   CODE_SHIM_NODE, CODE_SHIM_ENTRY  Node 24 binary and code-server's out/node/entry.js (required)
//   CODE_SHIM_CHROMIUM               browser binary (default /usr/bin/chromium)
//   CODE_SHIM_TIMEOUT_MS             overall limit (default 480000: the suite on a loaded 2-core machine)
//   CODE_SHIM_REPORT                 report file (default: inside the scratch dir)
//   CODE_SHIM_RESULT                 where the test runner (suite/index.js) writes this run's tally as JSON
//                                    (default: beside the report); the shim prints it and decides on it
//   CODE_SHIM_SCREENSHOT             if set, save a screenshot of the workbench there at the end. By then
//                                    the workbench has stopped the extension host (it does so before it
//                                    reports the exit code), so diagnostics, hovers and status-bar items
//                                    are gone; a test takes one while they show with util.js
//                                    `screenshotNow(name)`, which writes `<that path>.request` for the
//                                    shim to take `<that path without .png>-<name>.png`.
//   CODE_SHIM_PROFILE                if set, a CPU profile of the workbench's main thread is written there
//                                    (test/vscode/profileWindows.mjs reads it with the windows tests mark)
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_BROWSER, openBrowser, prepareDirs, startCodeServer, tail } from './codeServer.mjs';

const t0 = Date.now();
const say = (msg) => process.stdout.write(`[code-shim ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);

// Arguments as runTests passes them: `--name=value` flags and the folder to open. Everything else
// (--no-sandbox, --disable-updates, --skip-welcome...) is meant for Electron and ignored.
function parseArgs(argv) {
  const opts = { folders: [], devPaths: [], testsPath: undefined, userDataDir: undefined, extensionsDir: undefined };
  const withValue = new Set(['extensionDevelopmentPath', 'extensionTestsPath', 'user-data-dir', 'extensions-dir']);
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(argv[i]);
    if (!m) {
      opts.folders.push(resolve(argv[i]));
      continue;
    }
    const [, name, inline] = m;
    if (!withValue.has(name)) continue;
    const value = resolve(inline ?? argv[++i]);
    if (name === 'extensionDevelopmentPath') opts.devPaths.push(value);
    else if (name === 'extensionTestsPath') opts.testsPath = value;
    else if (name === 'user-data-dir') opts.userDataDir = value;
    else opts.extensionsDir = value;
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const node = process.env.CODE_SHIM_NODE;
const entry = process.env.CODE_SHIM_ENTRY;
const browserPath = process.env.CODE_SHIM_CHROMIUM || DEFAULT_BROWSER;
const timeoutMs = Number(process.env.CODE_SHIM_TIMEOUT_MS) || 480_000;

function usageError(msg) {
  process.stderr.write(`[code-shim] ${msg}\n`);
  process.exit(2);
}
if (!node || !existsSync(node))
  usageError(`CODE_SHIM_NODE must name a Node 24 binary (got ${node}); run test/vscode/install-code-server.mjs`);
if (!entry || !existsSync(entry)) usageError(`CODE_SHIM_ENTRY must name code-server's out/node/entry.js (got ${entry})`);
if (!existsSync(browserPath)) usageError(`no browser at ${browserPath}: apt-get install -y chromium (or set CODE_SHIM_CHROMIUM)`);
if (!opts.devPaths.length) usageError('missing --extensionDevelopmentPath');
if (!opts.testsPath) usageError('missing --extensionTestsPath');

const scratch = join(opts.userDataDir ? dirname(opts.userDataDir) : resolve('.code-shim'), 'shim');
const dirs = prepareDirs(scratch, { userData: opts.userDataDir, extensions: opts.extensionsDir });
const reportFile = process.env.CODE_SHIM_REPORT ? resolve(process.env.CODE_SHIM_REPORT) : join(scratch, 'report.txt');
const resultFile = process.env.CODE_SHIM_RESULT ? resolve(process.env.CODE_SHIM_RESULT) : `${reportFile.replace(/\.txt$/, '')}.result.json`;
// Names this run in the tally the test runner writes: a tally of another run (one left running in the
// same folder) is not taken for ours.
const runId = `${process.pid}-${t0}`;
writeFileSync(reportFile, '');
rmSync(resultFile, { force: true });

let server;
let browser;
let finishing = false;
async function finish(exitCode, reason) {
  if (finishing) return;
  finishing = true;
  let code = exitCode;
  let why = reason;
  await browser?.close();
  await server?.stop();
  say('code-server and browser stopped');
  const report = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '';
  process.stdout.write(
    report.trim() ? `${report.trimEnd()}\n` : '[code-shim] the test runner wrote no report (see the workbench log below)\n',
  );
  const verdict = tallyVerdict(report);
  for (const line of verdict.lines) process.stdout.write(`[code-shim] ${line}\n`);
  if (code === 0 && verdict.bad) {
    code = 1;
    why = verdict.bad;
  }
  if (code !== 0) {
    const wb = join(scratch, 'workbench.log');
    const cs = join(scratch, 'code-server.log');
    process.stdout.write(`\n[code-shim] ${why}\n--- workbench log (last 60 lines of ${wb}) ---\n${tail(wb, 60)}\n`);
    process.stdout.write(`--- code-server log (last 30 lines of ${cs}) ---\n${tail(cs, 30)}\n`);
  }
  say(`exit ${code}${why ? ` (${why})` : ''}`);
  process.exit(code);
}

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => finish(130, `interrupted by ${sig}`));
setTimeout(() => finish(124, `timed out after ${timeoutMs} ms`), timeoutMs).unref();

async function main() {
  const folder = opts.folders[0];
  server = await startCodeServer({
    node,
    entry,
    dirs,
    folder,
    smokeTestDriver: true,
    // The extension host inherits this environment: the test runner finds the report file here.
    env: { CODE_SHIM_REPORT: reportFile, CODE_SHIM_RESULT: resultFile, CODE_SHIM_RUN: runId },
    // runTests() spawns this shim: if the runner is killed, code-server must not outlive it.
    owners: [process.pid, process.ppid],
    onUnexpectedExit: (c) => finish(1, `code-server exited unexpectedly (${c})`),
  });
  say(`code-server up on port ${server.port}`);

  let reportExit;
  const exitCode = new Promise((res) => {
    reportExit = res;
  });
  browser = await openBrowser({ dirs, browserPath, expose: { codeAutomationExit: (code) => reportExit(Number(code) || 0) } });
  browser.page.on('crash', () => finish(1, 'the workbench page crashed'));
  const payload = [
    ...opts.devPaths.map((p) => ['extensionDevelopmentPath', server.remote(p)]),
    ['extensionTestsPath', server.remote(opts.testsPath)],
  ];
  // A loaded machine (CI, other jobs) can take longer than Playwright's default 30 s to serve the workbench.
  await browser.page.goto(server.url(payload), { timeout: Math.min(timeoutMs, 120_000) });
  say('workbench opened; running tests');
  const profiler = process.env.CODE_SHIM_PROFILE ? await startProfile(browser.page) : undefined;
  const shots = process.env.CODE_SHIM_SCREENSHOT ? screenshotsOnRequest(browser.page, process.env.CODE_SHIM_SCREENSHOT) : undefined;
  const code = await exitCode;
  if (shots) clearInterval(shots);
  if (profiler) await profiler.stop(resolve(process.env.CODE_SHIM_PROFILE));
  say(`tests finished with exit code ${code}`);
  if (process.env.CODE_SHIM_SCREENSHOT) {
    try {
      await browser.page.screenshot({ path: process.env.CODE_SHIM_SCREENSHOT });
    } catch {
      /* best effort */
    }
  }
  await finish(code, code === 0 ? '' : `tests failed with exit code ${code}`);
}

/**
 * What this run's tally (suite/index.js writes it) says, in lines for the output, and why the run must fail
 * even if the workbench reported exit 0 (`bad`). One run writes one tally and one mocha summary; a
 * report with two summaries had another run writing into it: two suite runs in one folder share the
 * workspace copy and its .vscode/settings.json, so each fails the other's tests, and the report then
 * reads like a failed first pass followed by a passing second one.
 */
function tallyVerdict(report) {
  const lines = [];
  let bad = '';
  const summaries = report.match(/^ {2}\d+ passing \(/gm) ?? [];
  if (summaries.length > 1) {
    bad = `the report holds ${summaries.length} test runs' summaries: another run of the suite wrote into ${reportFile}; its results are not this run's`;
    lines.push(bad);
  }
  let tally;
  try {
    tally = JSON.parse(readFileSync(resultFile, 'utf8'));
  } catch {
    lines.push(`the test runner wrote no tally (${resultFile})`);
    return { lines, bad: bad || 'no tally from the test runner' };
  }
  if (tally.run !== runId) {
    bad = `the tally in ${resultFile} is from another run (${tally.run}, this one is ${runId})`;
    lines.push(bad);
    return { lines, bad };
  }
  // A test retried more than once is named once, with its first failure; one that failed every try is a failure.
  const failed = new Set(tally.failed.map((f) => f.test));
  const firstTries = new Map();
  for (const r of tally.retried) if (!failed.has(r.test) && !firstTries.has(r.test)) firstTries.set(r.test, r.error);
  lines.push(
    `this run: ${tally.passed} passed, ${tally.failed.length} failed${tally.pending ? `, ${tally.pending} pending` : ''}, ${firstTries.size} passed only on a retry`,
  );
  for (const f of tally.failed) lines.push(`  failed: ${f.test}: ${f.error}`);
  if (firstTries.size) {
    lines.push('FIRST TRY FAILED for these tests (a retry passed; a first failure is a finding, not noise):');
    for (const [test, error] of firstTries) lines.push(`  ${test}: ${error}`);
  }
  return { lines, bad };
}

/**
 * Screenshots a test asks for while the extension host runs: the request file names the png to write;
 * it is removed once the png is written, which the test waits for.
 */
function screenshotsOnRequest(page, shot) {
  const request = `${resolve(shot)}.request`;
  let busy = false;
  return setInterval(async () => {
    if (busy || !existsSync(request)) return;
    busy = true;
    try {
      const path = readFileSync(request, 'utf8').trim();
      await page.screenshot({ path });
      say(`screenshot ${path}`);
    } catch (e) {
      say(`screenshot failed: ${e.message}`);
    } finally {
      rmSync(request, { force: true });
      busy = false;
    }
  }, 200);
}

/**
 * Samples the workbench page's main thread. A profile's timestamps are the browser's monotonic clock; a
 * function spinning for 20 ms from a known Date.now() (`shimClockMark`) ties them to the wall clock the
 * tests write their windows in.
 */
async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  // The renderer's CPU time (its main thread, and the whole process with the editor's workers), which
  // the machine's load does not inflate as it does the samples' wall time.
  await cdp.send('Performance.enable');
  const cpu = [];
  const poll = setInterval(async () => {
    try {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
      cpu.push({ at: Date.now(), thread: m.ThreadTime, process: m.ProcessTime });
    } catch {
      /* the page is going */
    }
  }, 25);
  return {
    async stop(file) {
      clearInterval(poll);
      const mark = await page.evaluate(() => {
        const t = Date.now();
        (function shimClockMark() {
          while (Date.now() - t < 20);
        })();
        return t;
      });
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(file, JSON.stringify({ ...profile, shimClockMark: mark, shimCpu: cpu }));
      say(`workbench CPU profile written to ${file}`);
    },
  };
}

main().catch((e) => finish(1, `shim error: ${e.stack || e}`));
