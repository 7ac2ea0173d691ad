// Starting code-server and a headless Chromium on its workbench, isolated from the machine: used by
// the runTests() shim (code-shim.mjs) and by the UI check (uiCheck.mjs).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const DEFAULT_BROWSER = '/usr/bin/chromium';

// Quiet the update checks, the AI side bar and the welcome page: noise in the logs, and a welcome
// editor would take focus from the documents the tests open.
const USER_SETTINGS = {
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  // The test workspace sits inside our repository; the git extension would offer to open it.
  'git.openRepositoryInParentFolders': 'never',
  'git.enabled': false,
  // The web workbench saves a changed file 1 s after the last edit by default (VS Code's default is
  // `isWeb ? afterDelay : off`); desktop VS Code, which the tests are written for, never does. With it,
  // an edit a test keeps unsaved reached the disk whenever the test took longer than that second (on a
  // loaded machine), and then stayed there after the test reverted its tab: "This change" of the
  // config.json test (9zzzz) kept saying "1 Application syncs" once the tab closed, and the fixtures
  // later tests read had the earlier tests' edits in them.
  'files.autoSave': 'off',
};

// Built-in extensions that start on their own (activation "*", onStartupFinished or any language)
// and have nothing to do with YAML. On two cores they delay the extension host by seconds and fill
// the log (the Copilot chat extension waits for a GitHub sign-in that never comes).
const UNRELATED_BUILTINS = [
  'GitHub.copilot-chat',
  'vscode.git',
  'vscode.git-base',
  'vscode.github',
  'vscode.github-authentication',
  'vscode.microsoft-authentication',
  'vscode.emmet',
  'vscode.merge-conflict',
  'vscode.debug-auto-launch',
  'ms-vscode.js-debug',
  'ms-vscode.js-debug-companion',
  'vscode.npm',
];

/**
 * A fresh scratch folder with private HOME and TMPDIR (code-server writes its config under HOME and
 * sockets under TMPDIR; Chromium writes crash reports under HOME), user data and extensions.
 */
export function prepareDirs(scratch, { userData, extensions } = {}) {
  rmSync(scratch, { recursive: true, force: true });
  const dirs = {
    scratch,
    home: join(scratch, 'home'),
    tmp: join(scratch, 'tmp'),
    browser: join(scratch, 'browser'),
    userData: userData ?? join(scratch, 'user-data'),
    extensions: extensions ?? join(scratch, 'extensions'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  return dirs;
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

export function tail(file, lines) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(none)';
  }
}

/**
 * Starts code-server on a free loopback port in its own process group (so stop() reaches the
 * extension host and our language server too) and waits until it answers; it is ended when one of
 * `owners` ends (watchOwners).
 * `smokeTestDriver` makes the workbench honour a `payload` (extension under development, tests
 * module) and call window.codeAutomationExit; a built workbench ignores both without it.
 */
export async function startCodeServer({
  node,
  entry,
  dirs,
  folder,
  smokeTestDriver = false,
  env = {},
  onUnexpectedExit,
  owners = [process.pid],
}) {
  const port = await freePort();
  const logFile = join(dirs.scratch, 'code-server.log');
  const log = createWriteStream(logFile);
  const proc = spawn(
    node,
    [
      entry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      dirs.userData,
      '--extensions-dir',
      dirs.extensions,
      ...UNRELATED_BUILTINS.flatMap((id) => ['--vscode-option', `disable-extension=${id}`]),
      ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      ...(folder ? [folder] : []),
    ],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // An empty gallery: no open-vsx lookups (they fail offline and clutter the log).
      env: { ...process.env, ...env, HOME: dirs.home, TMPDIR: dirs.tmp, EXTENSIONS_GALLERY: '{}' },
    },
  );
  proc.stdout.pipe(log);
  proc.stderr.pipe(log);
  watchOwners(proc.pid, owners);
  let stopping = false;
  proc.on('exit', (code, sig) => {
    if (!stopping) onUnexpectedExit?.(code ?? sig);
  });

  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (proc.exitCode !== null) throw new Error(`code-server exited with ${proc.exitCode} before listening; log:\n${tail(logFile, 20)}`);
    if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 30 s');
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    port,
    logFile,
    /** Workbench URL for a folder, with an optional smoke-test `payload` (list of [name, value]). */
    url(payload) {
      const u = new URL(`http://127.0.0.1:${port}/`);
      if (folder) u.searchParams.set('folder', folder);
      if (payload) u.searchParams.set('payload', JSON.stringify(payload));
      return u.href;
    },
    /** vscode-remote URI of a path on this server, as the workbench's payload wants it. */
    remote: (p) => `vscode-remote://127.0.0.1:${port}${p}`,
    async stop() {
      stopping = true;
      if (!proc.pid || proc.exitCode !== null) return log.end();
      try {
        process.kill(-proc.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await Promise.race([new Promise((r) => proc.once('exit', r)), new Promise((r) => setTimeout(r, 3000).unref())]);
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      log.end();
    },
  };
}

/**
 * code-server runs in its own process group, so a signal to ours (a job stopped with `kill -- -PGID`, a
 * runner killed with SIGKILL) does not reach it: left alone, its extension host would go on running the
 * tests in the workspace the next run copies afresh, and write into that run's report. A small watchdog
 * process of its own ends code-server's group as soon as one of `owners` (the processes the run belongs
 * to: this one, and for the shim the runner that started it) is gone, and ends itself with the group.
 */
function watchOwners(groupId, owners) {
  if (!groupId) return;
  const script = `
    const [group, ...owners] = process.argv.slice(1).map(Number);
    const gone = (p) => { try { process.kill(p, 0); return false; } catch (e) { return e.code !== 'EPERM'; } };
    setInterval(() => {
      if (gone(group)) process.exit(0);
      if (owners.some(gone)) { try { process.kill(-group, 'SIGKILL'); } catch {} process.exit(0); }
    }, 500);`;
  const pids = owners.filter((p) => p > 1).map(String);
  const dog = spawn(process.execPath, ['-e', script, String(groupId), ...pids], { stdio: 'ignore', detached: true });
  dog.unref();
}

/**
 * Headless Chromium with a page whose workbench log lines (window.codeAutomationLog), page errors and
 * console errors go to `<scratch>/workbench.log`. Extra functions to expose go in `expose`.
 */
export async function openBrowser({ dirs, browserPath = DEFAULT_BROWSER, expose = {} }) {
  const logFile = join(dirs.scratch, 'workbench.log');
  const log = createWriteStream(logFile);
  const browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    env: { ...process.env, HOME: dirs.browser, TMPDIR: dirs.tmp },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.exposeFunction('codeAutomationLog', (type, msg) =>
    log.write(`[${type}] ${Array.isArray(msg) ? msg.join(' ') : String(msg)}\n`),
  );
  for (const [name, fn] of Object.entries(expose)) await page.exposeFunction(name, fn);
  page.on('pageerror', (e) => log.write(`[pageerror] ${e.stack || e}\n`));
  page.on('console', (m) => {
    if (m.type() === 'error') log.write(`[console.error] ${m.text()}\n`);
  });
  return {
    browser,
    page,
    logFile,
    async close() {
      try {
        await browser.close();
      } catch {
        /* already gone */
      }
      log.end();
    },
  };
}
