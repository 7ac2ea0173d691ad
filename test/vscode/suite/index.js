// Test runner module that VS Code's extension host `require`s (runTests' extensionTestsPath) and
// whose run() settles with the result. Plain CommonJS because the extension host loads it as is.
//
// Under the code-server shim the extension host's stdout goes nowhere, so mocha's reporter output
// is also appended to $CODE_SHIM_REPORT, which the shim prints. Mocha's reporters write through
// Base.consoleLog (captured when mocha loads), hence that hook rather than console.log.
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
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => (failures ? reject(new Error(`${failures} VS Code test(s) failed`)) : resolve()));
    // The spec reporter explains failures only at the end; if the run is cut short (the shim's
    // timeout), the report still says what failed and why.
    if (report)
      runner.on('fail', (test, err) =>
        fs.appendFileSync(report, `      ✖ ${test.fullTitle()}: ${String(err && err.message).split('\n')[0]}\n`),
      );
  });
}

module.exports = { run };
