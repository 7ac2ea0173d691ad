// The user's view, end to end: code-server with the extension installed from the VSIX (no test
// hooks), a broken ApplicationSet opened from the Explorer, then what a person would look at: the
// squiggle under the misspelled key, the RollingSync code lenses, and the Problems panel row. Saves
// a screenshot. Returns a list of problems (empty when all was seen).
//
// The selectors are VS Code's internal DOM classes; they are stable within the pinned code-server.
import { join } from 'node:path';
import { openBrowser, prepareDirs, startCodeServer, tail } from './codeServer.mjs';

const FILE = 'unknown-field.yaml';

export async function uiCheck({ codeServer, extensionsDir, workspace, workDir, screenshot, timeout = 30_000 }) {
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
    if (await expect('an error squiggle in the editor', editor.locator('.squiggly-error')) !== undefined) {
      // The squiggle must sit under the misspelt key: compare its box with the key token's box.
      const squiggles = await editor.locator('.squiggly-error').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
      const key = await editor.locator('.view-line span', { hasText: /^maxUpdates$/ }).first().boundingBox();
      const under = key && squiggles.some((q) => Math.abs(q.x - key.x) < 2 && Math.abs(q.width - key.width) < 2 && Math.abs(q.y - key.y) < key.height);
      if (!under) problems.push(`the squiggle is not under "maxUpdates" (key ${JSON.stringify(key)}, squiggles ${JSON.stringify(squiggles)})`);
    }
    const lens = await expect('a RollingSync step code lens', editor.locator('.codelens-decoration', { hasText: 'Step 1' }));
    await page.keyboard.press('Control+Shift+M');
    const row = await expect('the unknown-field row in the Problems panel',
      page.locator('.markers-panel .monaco-list-row', { hasText: 'did you mean "maxUpdate"?' }));
    mark('all seen');
    if (screenshot) await page.screenshot({ path: screenshot });
    console.log(`[ui] lens: ${lens ?? '-'} | problem: ${row?.replace(/\s+/g, ' ') ?? '-'}`);
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
