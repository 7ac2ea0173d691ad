// Test runner module that VS Code's extension host `require`s (runTests' extensionTestsPath) and
// whose run() settles with the result. Plain CommonJS because the extension host loads it as is.
//
// Under the code-server shim the extension host's stdout goes nowhere, so mocha's reporter output
// is also appended to $CODE_SHIM_REPORT, which the shim prints. Mocha's reporters write through
// Base.consoleLog (captured when mocha loads), hence that hook rather than console.log.
//
// $CODE_SHIM_RESULT (set by the shim) receives this run's own tally as JSON, tagged with $CODE_SHIM_RUN:
// the counts, every failure, and every test that failed a try and passed on a retry (mocha's `retries`),
// so the runner says what failed on the first try even when a retry passed. The report is prose shared
// by whatever writes into it; the result file is the record the runner decides on.
const fs = require('fs');
const path = require('path');
const util = require('util');
const Mocha = require('mocha');

function run() {
  const report = process.env.CODE_SHIM_REPORT;
  if (report) {
    const base = Mocha.reporters.Base;
    const original = base.consoleLog;
    base.consoleLog = (...args) => {
      fs.appendFileSync(report, util.format(...args) + '\n');
      original(...args);
    };
  }
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: !report,
    // The first test waits for the language server's first answer, which is slow on a cold start.
    timeout: 120_000,
    grep: process.env.APPSET_VSCODE_GREP || undefined,
  });
  for (const f of fs.readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  }
  const firstLine = (err) => String(err && err.message).split('\n')[0];
  const tally = { run: process.env.CODE_SHIM_RUN || '', passed: 0, failed: [], retried: [], pending: 0 };
  const writeResult = () => {
    if (process.env.CODE_SHIM_RESULT) fs.writeFileSync(process.env.CODE_SHIM_RESULT, JSON.stringify(tally, null, 2));
  };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      writeResult();
      if (failures) reject(new Error(`${failures} VS Code test(s) failed`));
      else resolve();
    });
    runner.on('pass', () => tally.passed++);
    runner.on('pending', () => tally.pending++);
    runner.on('retry', (test, err) => tally.retried.push({ test: test.fullTitle(), error: firstLine(err) }));
    runner.on('fail', (test, err) => {
      tally.failed.push({ test: test.fullTitle(), error: firstLine(err) });
      writeResult();
      // The spec reporter explains failures only at the end; if the run is cut short (the shim's
      // timeout), the report still says what failed and why.
      if (report) fs.appendFileSync(report, `      ✖ ${test.fullTitle()}: ${firstLine(err)}\n`);
    });
  });
}

module.exports = { run };
