// VS Code for the Web, in a real browser: code-server serves the workbench to headless Chromium with
// the extension under development forced into the browser's web worker extension host (the user
// setting `remote.extensionKind`: the package has both `main` and `browser`, and VS Code prefers the
// Node host), and the test module web/suite.js runs beside it in that host. The module checks what the
// web build does (diagnostic, lens, hover, both sides in web workers; the preview and the rollout
// view) and asks for a screenshot at each stage; this driver takes them and checks the same on screen:
// the squiggle, the lens and the hover widget, then the preview's Applications and the rollout
// webview's steps and verdict (web-check.png, web-check-views.png).
// Returns a list of problems (empty when all was seen). Runnable alone: node test/vscode/webCheck.mjs
// (builds first); runTest.mjs runs it after the UI check (APPSET_SKIP_WEB=1 skips it).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser, prepareDirs, startCodeServer, tail } from './codeServer.mjs';

const EXTENSION_ID = 'appset-tools.appset-tools';

export async function webCheck({ codeServer, repoRoot, workspace, workDir, screenshot, timeout = 240_000 }) {
  const here = join(repoRoot, 'test', 'vscode', 'web');
  const problems = await session({
    codeServer,
    workspace,
    workDir,
    screenshot,
    timeout,
    extension: repoRoot,
    suite: join(here, 'suite.js'),
    reported: /ok - in a web worker extension host/,
  });
  // The same extension with a language server whose worker throws while it starts (brokenSuite.js).
  const broken = join(workDir, '..', 'broken-extension');
  rmSync(broken, { recursive: true, force: true });
  mkdirSync(join(broken, 'dist', 'web'), { recursive: true });
  // Without `main`: a web-only extension, so the test module runs in the web worker host with it.
  const { main: _node, ...manifest } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  writeFileSync(join(broken, 'package.json'), JSON.stringify(manifest, null, 2));
  cpSync(join(repoRoot, 'dist', 'web', 'extension.js'), join(broken, 'dist', 'web', 'extension.js'));
  writeFileSync(join(broken, 'dist', 'web', 'server.js'), "throw new Error('broken on purpose by webCheck.mjs');\n");
  // Inside the extension: VS Code runs a test module in the extension host of the extension it belongs to.
  cpSync(join(here, 'brokenSuite.js'), join(broken, 'brokenSuite.js'));
  const brokenProblems = await session({
    codeServer,
    workspace,
    workDir: `${workDir}-broken`,
    screenshot: screenshot?.replace(/\.png$/, '-broken.png'),
    timeout,
    extension: broken,
    suite: join(broken, 'brokenSuite.js'),
    reported: /ok - one message that the language server did not start/,
  });
  return [...problems, ...brokenProblems.map((p) => `(broken worker) ${p}`)];
}

/** One workbench with `extension` in the web worker extension host and the test module `suite` run beside it. */
async function session({ codeServer, workspace, workDir, screenshot, timeout, extension, suite, reported }) {
  const problems = [];
  const dirs = prepareDirs(workDir);
  // The web worker extension host for our extension, as a user of code-server would ask for it.
  const settingsFile = join(dirs.userData, 'User', 'settings.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  writeFileSync(settingsFile, JSON.stringify({ ...settings, 'remote.extensionKind': { [EXTENSION_ID]: ['web'] } }, null, 2));

  const checkDir = join(workspace, '.web-check');
  const request = join(checkDir, 'shot.request');
  const report = join(checkDir, 'report.txt');
  rmSync(report, { force: true });
  let server;
  let browser;
  let shots;
  try {
    server = await startCodeServer({ node: codeServer.node, entry: codeServer.entry, dirs, folder: workspace, smokeTestDriver: true });
    let exit;
    const exited = new Promise((res) => (exit = res));
    browser = await openBrowser({ dirs, expose: { codeAutomationExit: (code) => exit(Number(code) || 0) } });
    const { page } = browser;
    page.on('crash', () => exit(-1));
    const payload = [
      ['extensionDevelopmentPath', server.remote(extension)],
      ['extensionTestsPath', server.remote(suite)],
    ];
    await page.goto(server.url(payload), { timeout: 120_000 });

    // The module's screenshot requests: the page as it is, and what shows. 'editor': the squiggle, the
    // lens and the hover in the editor; 'views': the preview's Applications and the rollout view's steps.
    const seenIn = {
      editor: async () => {
        const editor = page.locator('.editor-instance .monaco-editor').first();
        return {
          squiggle: await editor.locator('.squiggly-error').count(),
          lens: await editor.locator('.codelens-decoration', { hasText: 'Step 1' }).count(),
          hover: await page
            .locator('.monaco-hover:not(.hidden)', { hasText: 'goTemplate' })
            .count()
            .catch(() => 0),
        };
      },
      views: async () => {
        // The rollout view is a webview: its content frame runs no scripts of ours, so it is read
        // through the webview host frame around it (as uiCheck.mjs does). It draws a moment after
        // the module saw the plan: waited for (10 s at most) before the screenshot.
        const planText = async () => {
          const host = page.frames().find((f) => /\/webview\/browser\/pre\/index\.html/.test(f.url()));
          return (await host?.evaluate(() => document.getElementById('active-frame')?.contentDocument?.body?.innerText ?? '')) ?? '';
        };
        let plan = await planText();
        for (let i = 0; i < 50 && !/Step 2/.test(plan); i++) plan = await new Promise((r) => setTimeout(r, 200)).then(planText);
        const lines = page.locator('.editor-instance .monaco-editor .view-lines');
        return {
          'preview Applications':
            (await lines.filter({ hasText: 'dev-app' }).count()) && (await lines.filter({ hasText: 'prod-app' }).count()),
          'rollout step 1': /Step 1 · env In \(dev\)[^]*dev-app/.test(plan) ? 1 : 0,
          'rollout step 2': /Step 2 · env In \(prod\)[^]*prod-app/.test(plan) ? 1 : 0,
          'rollout verdict': /Progressive syncs enabled by argocd\/argocd-cmd-params-cm\.yaml:12/.test(plan) ? 1 : 0,
          'status bar verdict': await page.locator('.statusbar-item', { hasText: 'Progressive syncs: enabled' }).count(),
        };
      },
      broken: async () => {
        // One notification, ours: none of the language client's own for the same failure (the module
        // opened the notification centre, which lists them all).
        const toasts = await page.locator('.notifications-center .notification-list-item').allInnerTexts();
        const ours = toasts.filter((t) => /the language server did not start/.test(t));
        const others = toasts.filter(
          (t) => /ApplicationSet Tools|couldn't create connection|initialization failed|Pending response/i.test(t) && !ours.includes(t),
        );
        if (others.length) console.log(`[web] other notifications: ${JSON.stringify(others)}`);
        return { 'one "did not start" notification': ours.length === 1 ? 1 : 0, 'no other notification about it': others.length ? 0 : 1 };
      },
    };
    let busy = false;
    shots = setInterval(async () => {
      if (busy || !existsSync(request)) return;
      busy = true;
      const stage = readFileSync(request, 'utf8').trim();
      try {
        const path = screenshot && (stage === 'views' ? screenshot.replace(/\.png$/, '-views.png') : screenshot);
        const seen = await (seenIn[stage] ?? (async () => ({ [`a known stage (${stage})`]: 0 })))();
        if (path) await page.screenshot({ path });
        for (const [what, n] of Object.entries(seen)) if (!n) problems.push(`not seen on screen (${stage}): the ${what}`);
        console.log(`[web] on screen (${stage}): ${JSON.stringify(seen)}${path ? ` (screenshot ${path})` : ''}`);
      } catch (e) {
        problems.push(`screenshot failed: ${e.message.split('\n')[0]}`);
      } finally {
        rmSync(request, { force: true });
        busy = false;
      }
    }, 200);

    const code = await Promise.race([exited, new Promise((res) => setTimeout(() => res('timeout'), timeout).unref())]);
    const text = existsSync(report) ? readFileSync(report, 'utf8').trim() : '';
    if (text) console.log(text.replace(/^/gm, '[web] '));
    if (code !== 0)
      problems.push(
        code === 'timeout'
          ? `the web test module did not finish within ${timeout} ms`
          : `the web test module failed (exit ${code})${text ? '' : ': it wrote no report (the extension or the test did not load in the web worker host)'}`,
      );
    else if (!reported.test(text)) problems.push(`the web test module passed but its report says nothing: ${text}`);
  } catch (e) {
    problems.push(`web check error: ${e.message.split('\n')[0]}`);
  } finally {
    if (shots) clearInterval(shots);
    await browser?.close();
    await server?.stop();
  }
  if (problems.length) problems.push(`workbench log (${join(workDir, 'workbench.log')}):\n${tail(join(workDir, 'workbench.log'), 30)}`);
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { ensureCodeServer } = await import('./install-code-server.mjs');
  const here = dirname(fileURLToPath(import.meta.url));
  const repoRoot = resolve(here, '..', '..');
  const build = spawnSync(process.execPath, ['esbuild.js'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
  const workspace = join(here, '.tmp', 'web', 'workspace');
  rmSync(workspace, { recursive: true, force: true });
  cpSync(join(here, 'workspace'), workspace, { recursive: true });
  const screenshot = join(here, '.tmp', 'web-check.png');
  const problems = await webCheck({
    codeServer: ensureCodeServer(),
    repoRoot,
    workspace,
    workDir: join(here, '.tmp', 'web', 'run'),
    screenshot,
  });
  if (problems.length) {
    console.error(`web check FAILED (screenshot: ${screenshot}):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`web check passed (screenshot: ${screenshot})`);
}
