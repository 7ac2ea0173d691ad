/**
 * The rollout view at incident scale (issue 29): the story's 540 Applications under a tier RollingSync,
 * through the real language service (the plan with the view's details) and the view's page
 * (client/src/rolloutHtml.ts): counts by cluster and tier per step, long runs of waves and big waves
 * folded, every Application filterable by name, cluster and label, each with its link to its source.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { renderPlan } from '../../client/src/rolloutHtml';
import { memHost } from '../helpers/memHost';
import { cmdParamsCm } from '../helpers/clusters';
import { storyRollout, storySecrets } from '../helpers/story';

test('540 Applications: counts by cluster and tier, folded waves, filter data, source links', () => {
  const files = new Map<string, string>();
  files.set('/ws/clusters/secrets.yaml', storySecrets());
  files.set('/ws/argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('true'));
  const text = storyRollout([
    { values: ['canary'], maxUpdate: 1 },
    { values: ['low-traffic'], maxUpdate: '25%' },
    { values: ['high-traffic'], maxUpdate: '100%' },
  ]);
  files.set('/ws/apps/services.yaml', text);
  const ls = getLanguageService({ host: memHost(files) });
  const a = ls.analyze('file:///ws/apps/services.yaml', text, '/ws/apps/services.yaml');
  const plan = ls.rolloutPlan(a)!;
  assert.equal(plan.totalApps, 540);
  assert.deepEqual(plan.labelKeys, ['tier']);
  const app = plan.apps!['prod-01-svc-01'];
  assert.equal(app.cluster, 'prod-01');
  assert.equal(app.labels?.tier, 'canary');
  assert.equal(app.source?.label, 'cluster prod-01');

  const html = renderPlan(plan, '', { source: 'file:///ws/apps/services.yaml', offset: 0, nonce: 'n0nce' });
  const step = (n: number) => html.slice(html.indexOf(`id="step-${n}"`), html.indexOf(`id="step-${n + 1}"`) >>> 0);
  // Step 1: 45 canary Applications one at a time: three waves shown, 42 folded with what they hold.
  assert.match(step(1), /<p class="counts">cluster: prod-01 45 · tier: canary 45<\/p>/);
  assert.match(step(1), /<details class="more"><summary>waves 4–45: 42 more waves, 42 Applications<\/summary>/);
  assert.equal((step(1).match(/<div class="wave"><b>wave \d+<\/b>/g) ?? []).length, 45, 'every wave is still there, folded or not');
  // Step 3: 315 high-traffic Applications in one wave: folded to a line with its counts.
  assert.match(
    step(3),
    /<details class="wave"><summary><b>wave 1<\/b> 315 Applications <span class="counts">\(cluster: prod-06 45, prod-07 45, prod-08 45, prod-09 45, prod-10 45, prod-11 45 and 1 more · tier: high-traffic 315\)<\/span><\/summary>/,
  );
  // Every Application is a filterable chip (name, cluster, labels) with its source link.
  assert.equal((html.match(/<span class="c" data-f="/g) ?? []).length, 540);
  assert.match(html, /<span class="c" data-f="prod-12-svc-45 prod-12 tier=high-traffic">/);
  assert.match(html, /<input id="filter" type="search"/);
  assert.equal((html.match(/class="src"/g) ?? []).length, 540);
});
