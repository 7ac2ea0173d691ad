// The user's view, end to end: code-server with the extension installed from the VSIX (no test
// hooks), a broken ApplicationSet opened from the Explorer, then what a person would look at: the
// squiggle under the misspelled key, the RollingSync code lenses, the Problems panel row, and the
// plan a lens opens. Saves a screenshot. Returns a list of problems (empty when all was seen).
//
// The selectors are VS Code's internal DOM classes; they are stable within the pinned code-server.
import { join } from 'node:path';
import { openBrowser, prepareDirs, startCodeServer, tail } from './codeServer.mjs';

const FILE = 'unknown-field.yaml';

async function poll(probe, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// Runs in the page: is one of the editor's error squiggles exactly under the token `word`?
function squiggleUnderKey(editorEl, word) {
  const token = [...editorEl.querySelectorAll('.view-line span span')].find((e) => e.textContent === word);
  if (!token) return false;
  const k = token.getBoundingClientRect();
  return [...editorEl.querySelectorAll('.squiggly-error')].some((el) => {
    const q = el.getBoundingClientRect();
    return Math.abs(q.left - k.left) < 2 && Math.abs(q.width - k.width) < 2 && q.top < k.bottom && q.bottom > k.top;
  });
}

export async function uiCheck({ codeServer, extensionsDir, workspace, workDir, screenshot, timeout = 60_000 }) {
  const problems = [];
  const t0 = Date.now();
  const mark = (what) => process.env.APPSET_UI_TIMINGS && console.log(`[ui ${Date.now() - t0} ms] ${what}`);
  const dirs = prepareDirs(workDir, { extensions: extensionsDir });
  let server;
  let browser;
  try {
    server = await startCodeServer({ node: codeServer.node, entry: codeServer.entry, dirs, folder: workspace });
    browser = await openBrowser({ dirs });
    const { page } = browser;
    mark('code-server up');
    await page.goto(server.url(), { waitUntil: 'domcontentloaded' });
    mark('page loaded');
    await page.locator('.monaco-workbench').waitFor({ timeout });
    mark('workbench');
    await page.locator(`.explorer-folders-view .monaco-list-row[aria-label*="${FILE}"]`).click({ timeout });
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines').filter({ hasText: 'maxUpdates' }).waitFor({ timeout });
    mark('editor');

    // Once one thing is missing the rest is probably missing too: do not wait the full time again.
    const expect = async (what, locator) => {
      try {
        await locator.first().waitFor({ timeout: problems.length ? 3000 : timeout });
        return (await locator.first().innerText()).trim();
      } catch {
        problems.push(`not seen: ${what}`);
        return undefined;
      }
    };
    await expect('an error squiggle in the editor', editor.locator('.squiggly-error'));
    const lens = await expect('a RollingSync step code lens', editor.locator('.codelens-decoration', { hasText: 'Step 1' }));
    // Code lenses appear above lines and move them, so the squiggle's position is checked once
    // the lenses are in, measuring squiggles and key together.
    if (lens !== undefined && !(await poll(() => editor.evaluate(squiggleUnderKey, 'maxUpdates'), 5000))) {
      problems.push(
        `the squiggle is not under "maxUpdates": ${JSON.stringify(await editor.evaluate(squiggleUnderKey, 'maxUpdates').catch((e) => e.message))}`,
      );
    }

    // The lens opens the RollingSync plan, a webview. Its content frame runs no scripts, so it is
    // read through the webview host frame around it.
    let plan;
    if (lens !== undefined) {
      await editor.locator('.codelens-decoration a', { hasText: 'Step 1' }).first().click();
      const planText = async () => {
        const host = page.frames().find((f) => /\/webview\/browser\/pre\/index\.html/.test(f.url()));
        return host?.evaluate(() => document.getElementById('active-frame')?.contentDocument?.body?.innerText ?? '');
      };
      plan = await poll(async () => ((await planText()) ?? '').match(/Step 1 · env In \(dev\)/)?.[0], problems.length ? 3000 : timeout);
      if (!plan)
        problems.push(
          `not seen: the RollingSync plan opened from the lens (webview text: ${JSON.stringify((await planText())?.slice(0, 200))})`,
        );
    }
    // The Problems panel last: it takes the lower half of the window, and with the lenses above the
    // strategy and each step the misspelled line would then lie below the editor's visible lines.
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+Shift+M');
    const row = await expect(
      'the unknown-field row in the Problems panel',
      page.locator('.markers-panel .monaco-list-row', { hasText: 'did you mean "maxUpdate"?' }),
    );
    mark('all seen');
    if (screenshot) await page.screenshot({ path: screenshot });
    console.log(`[ui] lens: ${lens ?? '-'} | problem: ${row?.replace(/\s+/g, ' ') ?? '-'} | plan: ${plan ?? '-'}`);
  } catch (e) {
    problems.push(`UI check error: ${e.message.split('\n')[0]}`);
    if (screenshot && browser) await browser.page.screenshot({ path: screenshot }).catch(() => {});
  } finally {
    await browser?.close();
    await server?.stop();
  }
  if (problems.length) problems.push(`workbench log (${join(workDir, 'workbench.log')}):\n${tail(join(workDir, 'workbench.log'), 30)}`);
  return problems;
}
