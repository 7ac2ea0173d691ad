/**
 * The rollout view's page script, run for real (issue 41): the page `renderPlan` builds for the 540
 * Applications of the story, loaded as VS Code's webview loads it (the same HTML, its Content-Security-
 * Policy and nonce'd script) in headless Chromium, then used: a folded wave opened by a click stays open
 * when a refresh is delivered as the view delivers it (a `message` event carrying `planBody` of the new
 * page, rolloutView.ts), the groups left closed stay closed, and the filter's count counts Applications.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { getLanguageService } from '@appset-tools/engine';
import { planBody, renderPlan } from '../../client/src/rolloutHtml';
import { memHost } from '../helpers/memHost';
import { cmdParamsCm } from '../helpers/clusters';
import { storyRollout, storySecrets } from '../helpers/story';

/** Chromium as the real-VS-Code suite uses it (test/vscode/codeServer.mjs); CODE_SHIM_CHROMIUM overrides, as there. */
const BROWSER = process.env.CODE_SHIM_CHROMIUM || '/usr/bin/chromium';
const NONCE = 'n0nce42';

/**
 * The view's page for the story under a tier RollingSync whose canary step syncs `canary` at a time;
 * `canaryTwice`: the last step selects the canary tier too (its Applications shown in two steps).
 */
function pageOf(canary: number, canaryTwice = false): string {
  const files = new Map<string, string>();
  files.set('/ws/clusters/secrets.yaml', storySecrets());
  files.set('/ws/argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('true'));
  const text = storyRollout([
    { values: ['canary'], maxUpdate: canary },
    { values: ['low-traffic'], maxUpdate: '25%' },
    { values: canaryTwice ? ['high-traffic', 'canary'] : ['high-traffic'], maxUpdate: '100%' },
  ]);
  files.set('/ws/apps/services.yaml', text);
  const ls = getLanguageService({ host: memHost(files) });
  const plan = ls.rolloutPlan(ls.analyze('file:///ws/apps/services.yaml', text, '/ws/apps/services.yaml'))!;
  assert.equal(plan.totalApps, 540);
  return renderPlan(plan, '', { source: 'file:///ws/apps/services.yaml', offset: 0, nonce: NONCE });
}

let browser: Browser;
let page: Page;
const errors: string[] = [];
before(async () => {
  browser = await chromium.launch({ executablePath: BROWSER, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

/** A new page showing `html`, as a webview shows a page whose html is set (a new document each time). */
async function load(html: string): Promise<void> {
  await page?.close();
  page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  // A webview page may ask for the VS Code API; this one never does, and a stub keeps the page as VS Code has it.
  await page.addInitScript(() => {
    (globalThis as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
      postMessage() {},
      getState() {},
      setState() {},
    });
  });
  await page.setContent(html);
}
after(async () => browser?.close());

/** Which folded groups are open, by their step and summary label. */
const openGroups = () =>
  page.$$eval('#plan details', (ds) =>
    ds.map(
      (d) =>
        `${d.closest('section')?.id ?? ''} ${d.className} ${(d.querySelector('summary')?.textContent ?? '').split(':')[0]}|${(d as unknown as { open: boolean }).open}`,
    ),
  );
/** What the view does on a refresh of a shown plan: posts `update` with the new page's body (rolloutView.ts). */
const refresh = (html: string) =>
  page.evaluate(
    (body) =>
      (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(
        { type: 'update', body, scrollTo: undefined },
        '*',
      ),
    planBody(html)!,
  );

test('a wave opened by a click stays open across a refresh; the others stay closed', async () => {
  await load(pageOf(1));
  // The nonce'd script ran under the page's policy (the filter box is wired, nothing was refused).
  assert.equal(await page.locator('#matches').textContent(), '');
  const wave = page.locator('#step-3 details.wave').first();
  assert.match((await wave.locator('summary').textContent()) ?? '', /^wave 1 315 Applications/);
  assert.equal(await wave.evaluate((d) => (d as unknown as { open: boolean }).open), false);
  await wave.locator('summary').click();
  assert.equal(await wave.evaluate((d) => (d as unknown as { open: boolean }).open), true);
  const before = await openGroups();
  assert.deepEqual(
    before.filter((g) => g.endsWith('|true')),
    ['step-3 wave wave 1 315 Applications (cluster|true'],
  );

  // A refresh with another plan (the canary step now 5 at a time: its waves change) replaces the body.
  await refresh(pageOf(5));
  await page.waitForFunction(`!document.querySelector('#step-1 details.more')?.textContent?.includes('waves 4–45')`);
  assert.match((await page.locator('#step-1 details.more summary').textContent()) ?? '', /^waves 4–9: 6 more waves, 30 Applications/);
  // The wave the user opened is open again; every other group stays as it was (closed).
  assert.equal(
    await page
      .locator('#step-3 details.wave')
      .first()
      .evaluate((d) => (d as unknown as { open: boolean }).open),
    true,
  );
  assert.deepEqual(
    (await openGroups()).filter((g) => g.endsWith('|true')),
    ['step-3 wave wave 1 315 Applications (cluster|true'],
  );
  // Closed by a click, it stays closed on the next refresh.
  await page.locator('#step-3 details.wave summary').first().click();
  await refresh(pageOf(1));
  await page.waitForFunction(`!!document.querySelector('#step-1 details.more')?.textContent?.includes('waves 4–45')`);
  assert.deepEqual(
    (await openGroups()).filter((g) => g.endsWith('|true')),
    [],
  );
  assert.deepEqual(errors, []);
});

test("the filter's count counts Applications (each once), hides what does not match, and holds across a refresh", async () => {
  await load(pageOf(1, true));
  const box = page.locator('#filter');
  const count = () => page.locator('#matches').textContent();
  const visibleChips = () => page.$$eval('#plan .c:not(.hidden)', (cs) => cs.length);
  // One cluster: its 45 canary Applications, each shown twice (steps 1 and 3): 90 chips, 45 Applications.
  await box.fill('prod-01');
  assert.equal(await count(), '45 Applications');
  assert.equal(await visibleChips(), 90);
  assert.equal(await page.locator('#step-2').evaluate((s) => s.classList.contains('hidden')), true);
  assert.equal(await page.locator('#step-1').evaluate((s) => s.classList.contains('hidden')), false);
  // A low-traffic cluster: its Applications in step 2 only; the steps without a match are hidden.
  await box.fill('prod-03');
  assert.equal(await count(), '45 Applications');
  assert.equal(await visibleChips(), 45);
  assert.equal(await page.locator('#step-3').evaluate((s) => s.classList.contains('hidden')), true);
  // A service on every cluster: 12 Applications, across all three steps; a label: the tier's 315.
  await box.fill('svc-07');
  assert.equal(await count(), '12 Applications');
  await box.fill('tier=high-traffic');
  assert.equal(await count(), '315 Applications');
  // The folded wave opened to show its matches.
  assert.equal(
    await page
      .locator('#step-3 details.wave')
      .first()
      .evaluate((d) => (d as unknown as { open: boolean }).open),
    true,
  );
  // Words narrow: one Application, said in the singular.
  await box.fill('prod-12 svc-45');
  assert.equal(await count(), '1 Application');
  assert.equal(await visibleChips(), 1);
  // A refresh keeps what is typed and applies it to the new plan.
  await refresh(pageOf(5));
  await page.waitForFunction(`!document.querySelector('#step-1 details.more')?.textContent?.includes('waves 4–45')`);
  assert.equal(await box.inputValue(), 'prod-12 svc-45');
  assert.equal(await count(), '1 Application');
  assert.equal(await visibleChips(), 1);
  // Cleared: every chip back, no count.
  await box.fill('');
  assert.equal(await count(), '');
  assert.equal(await visibleChips(), 540);
  assert.deepEqual(errors, []);
});
