// Runs the extension tests (test/vscode/suite) inside a real VS Code through @vscode/test-electron's
// runTests(). Which VS Code:
//   VSCODE_EXECUTABLE=/path/to/code   a desktop VS Code you have
//   APPSET_VSCODE=download            let @vscode/test-electron download one (or reuse .vscode-test/)
//   otherwise                         code-server + Chromium through test/vscode/code-shim.mjs; code-server
//                                     is installed into .tools/ on first use (about 2 minutes)
// Other knobs: APPSET_VSCODE_GREP=<regex> runs only matching tests; APPSET_VSCODE_SCREENSHOT=<png>
// (shim only) saves the workbench as it looked at the end. After the tests (shim only): the VSIX is
// packaged and installed into code-server, then a UI check opens a broken file in it as a user
// would (APPSET_SKIP_VSIX=1 skips both, APPSET_SKIP_UI=1 the UI check only). Last (shim only), the web
// build in the browser's web worker extension host (webCheck.mjs; APPSET_SKIP_WEB=1 skips it).
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer } from './install-code-server.mjs';
import { checkVsix } from './checkVsix.mjs';
import { uiCheck } from './uiCheck.mjs';
import { webCheck } from './webCheck.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const runDir = join(here, '.tmp', 'run');
const lockFile = join(here, '.tmp', 'run.lock');
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

function build() {
  // Cheap (about a second) and avoids testing a stale bundle when this script is run directly.
  const r = spawnSync(process.execPath, ['esbuild.js'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('esbuild failed');
}

// Tests open and edit fixture files; a fresh copy keeps the repository clean and runs independent.
function copyWorkspace(dest) {
  rmSync(dest, { recursive: true, force: true });
  cpSync(join(here, 'workspace'), dest, { recursive: true });
  return dest;
}

/**
 * One run at a time in a checkout. Two runs would share .tmp/run: the second deletes and copies again
 * the workspace the first is testing in, both write its .vscode/settings.json (appsetTools.progressiveSyncs,
 * set by one run's test, shows in the other's findings) and the same report file. Each then fails the
 * other's enablement tests (the "not-found" warning, "enabled by the new ConfigMap", the setting), and
 * the report reads like a failing first pass followed by a passing second one. A lock left by a run
 * that is gone (its process no longer exists) is taken over.
 */
function claimCheckout() {
  mkdirSync(dirname(lockFile), { recursive: true });
  for (;;) {
    try {
      writeFileSync(lockFile, JSON.stringify({ pid: process.pid, started: new Date().toISOString() }), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let holder;
    try {
      holder = JSON.parse(readFileSync(lockFile, 'utf8'));
    } catch {
      holder = undefined; // half written or gone: treat as stale
    }
    if (holder && holder.pid !== process.pid && alive(holder.pid)) {
      console.error(
        `[vscode-tests] another run of this suite (pid ${holder.pid}, started ${holder.started}) is using ${runDir}: ` +
          'two runs in one checkout share its workspace copy, settings and report and fail each other. Wait for it to end, or stop it.',
      );
      process.exit(1);
    }
    rmSync(lockFile, { force: true });
  }
  process.on('exit', () => {
    try {
      if (JSON.parse(readFileSync(lockFile, 'utf8')).pid === process.pid) rmSync(lockFile, { force: true });
    } catch {
      /* gone already */
    }
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

async function main() {
  claimCheckout();
  build();
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const workspace = copyWorkspace(join(runDir, 'workspace'));
  const options = {
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: join(here, 'suite', 'index.js'),
    launchArgs: [
      workspace,
      `--user-data-dir=${join(runDir, 'user-data')}`,
      `--extensions-dir=${join(runDir, 'extensions')}`,
      '--disable-extensions',
    ],
    extensionTestsEnv: {
      ...(process.env.APPSET_VSCODE_GREP ? { APPSET_VSCODE_GREP: process.env.APPSET_VSCODE_GREP } : {}),
    },
  };

  let codeServer;
  if (process.env.VSCODE_EXECUTABLE) {
    options.vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
    console.log(`[vscode-tests] desktop VS Code: ${options.vscodeExecutablePath}`);
  } else if (process.env.APPSET_VSCODE === 'download') {
    console.log('[vscode-tests] desktop VS Code from @vscode/test-electron (download or .vscode-test/ cache)');
  } else {
    codeServer = ensureCodeServer();
    const shim = join(here, 'code-shim.mjs');
    chmodSync(shim, 0o755); // runTests spawns it directly; a checkout may have lost the mode bit
    options.vscodeExecutablePath = shim;
    Object.assign(options.extensionTestsEnv, {
      CODE_SHIM_NODE: codeServer.node,
      CODE_SHIM_ENTRY: codeServer.entry,
      ...(process.env.APPSET_VSCODE_SCREENSHOT ? { CODE_SHIM_SCREENSHOT: resolve(process.env.APPSET_VSCODE_SCREENSHOT) } : {}),
    });
    console.log(`[vscode-tests] code-server ${codeServer.version} through ${shim} (${secs()})`);
  }

  try {
    await runTests(options);
  } catch (e) {
    console.error(`[vscode-tests] FAILED after ${secs()}: ${e.message}`);
    process.exit(1);
  }
  console.log(`[vscode-tests] extension tests passed in ${secs()}`);

  // After the tests, not alongside them: on two cores, vsce and a second code-server slow the
  // workbench down more than they save.
  if (codeServer && process.env.APPSET_SKIP_VSIX !== '1') {
    const problems = await checkVsix({ repoRoot, codeServer, workDir: join(runDir, 'vsix') });
    if (problems.length) {
      console.error(`[vscode-tests] VSIX check FAILED:\n  ${problems.join('\n  ')}`);
      process.exit(1);
    }
    console.log(`[vscode-tests] VSIX packaged and installed into code-server (${secs()})`);

    if (process.env.APPSET_SKIP_UI !== '1') {
      const screenshot = join(here, '.tmp', 'ui-check.png');
      const uiProblems = await uiCheck({
        codeServer,
        extensionsDir: join(runDir, 'vsix', 'extensions'),
        workspace: copyWorkspace(join(runDir, 'ui-workspace')),
        workDir: join(runDir, 'ui'),
        screenshot,
      });
      if (uiProblems.length) {
        console.error(`[vscode-tests] UI check FAILED (screenshot: ${screenshot}):\n  ${uiProblems.join('\n  ')}`);
        process.exit(1);
      }
      console.log(
        `[vscode-tests] UI check passed: squiggle under the key, code lens, Problems row and the plan it opens seen (${secs()}; screenshot ${screenshot})`,
      );
    }
  }

  if (codeServer && process.env.APPSET_SKIP_WEB !== '1') {
    const screenshot = join(here, '.tmp', 'web-check.png');
    const webProblems = await webCheck({
      codeServer,
      repoRoot,
      workspace: copyWorkspace(join(runDir, 'web-workspace')),
      workDir: join(runDir, 'web'),
      screenshot,
    });
    if (webProblems.length) {
      console.error(`[vscode-tests] web check FAILED (screenshot: ${screenshot}):\n  ${webProblems.join('\n  ')}`);
      process.exit(1);
    }
    console.log(
      `[vscode-tests] web check passed: the extension and its server in web workers, diagnostic, lens and hover seen (${secs()}; screenshot ${screenshot})`,
    );
  }
}

main().catch((e) => {
  console.error(`[vscode-tests] ${e.stack || e}`);
  process.exit(1);
});
