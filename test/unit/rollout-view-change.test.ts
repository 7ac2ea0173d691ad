/**
 * The rollout view at incident scale (issue 41): each timeline row says what syncs at once (selector,
 * Applications on clusters, how many at a time), and the "This change" section shows the change
 * against the baseline (timeline before → after, steps before → now with the emptied one marked,
 * moves, deletions with their reasons). client/src/rolloutHtml.ts, pure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atOnceOf, changeHtml, chipApp, groupKey, renderPlan, type GroupElement } from '../../client/src/rolloutHtml';
import type { ChangeSummary, RolloutPlan } from '@appset-tools/protocol';

const apps = (prefix: string, clusters: number, perCluster: number) =>
  Array.from({ length: clusters * perCluster }, (_, i) => `${prefix}-${Math.floor(i / perCluster)}-${i % perCluster}`);
const high = apps('high', 7, 45);
const canary = apps('canary', 1, 45);
const info = (list: string[]) =>
  Object.fromEntries(
    list.map((a) => [
      a,
      { destination: `https://${a.split('-').slice(0, 2).join('-')}:6443 / ns`, cluster: a.split('-').slice(0, 2).join('-'), labels: {} },
    ]),
  );

const plan: RolloutPlan = {
  appset: 'services',
  strategy: 'RollingSync',
  totalApps: canary.length + high.length,
  steps: [
    {
      step: 1,
      selector: 'tier In (canary)',
      apps: canary,
      maxUpdate: 5,
      concurrency: 5,
      manual: false,
      waves: [{ wave: 1, apps: canary.slice(0, 5) }],
    },
    {
      step: 2,
      selector: 'tier In (high-traffic)',
      apps: high,
      maxUpdate: '3%',
      concurrency: 10,
      manual: false,
      waves: [{ wave: 1, apps: high.slice(0, 10) }],
    },
    { step: 3, selector: 'tier In (qa)', apps: [], maxUpdate: 0, concurrency: 0, manual: true, waves: [] },
  ],
  unselected: [],
  totalWaves: 2,
  enablement: { state: 'enabled', source: 'detected', evidence: [], searched: [] },
  apps: { ...info(canary), ...info(high) },
} as unknown as RolloutPlan;

test("a timeline row's step says what syncs at once: selector, Applications on clusters, a count at a time", () => {
  assert.equal(atOnceOf(plan, 1), 'tier In (canary) · 45 Applications on 1 cluster · 5 at a time');
  // maxUpdate 3% of 315 is 10: the row says the count, not the percentage.
  assert.equal(atOnceOf(plan, 2), 'tier In (high-traffic) · 315 Applications on 7 clusters · 10 at a time');
  assert.equal(atOnceOf(plan, 3), 'tier In (qa) · 0 Applications · nothing to sync');
  const html = renderPlan({
    ...plan,
    timeline: {
      minutesPerSync: 3,
      mode: 'rolling',
      steps: [{ step: 2, at: '0 min', takes: 'about 1 h 36 min', waves: 32, stops: [] }],
      waves: 32,
      minutes: 96,
      stops: [],
      ends: 'completes',
      neverSynced: 0,
      summary: '32 waves',
      assumptions: ['x'],
    },
  } as unknown as RolloutPlan);
  assert.match(html, /<th>what syncs at once<\/th>/);
  assert.match(html, /<td>tier In \(high-traffic\) · 315 Applications on 7 clusters · 10 at a time<\/td>/);
});

const change: ChangeSummary = {
  name: 'services',
  baseline: 'HEAD (1a2b3c4)',
  summary: 'This change: all 540 Applications sync · 55 waves · about 2 h 45 min · the canary step is now empty',
  timeline: { before: '59 waves, about 2 h 57 min', after: '55 waves, about 2 h 45 min' },
  steps: [
    { step: 1, selector: 'tier In (canary)', before: 45, after: 0 },
    { step: 2, selector: 'tier In (low-traffic)', before: 180, after: 225 },
    { step: 3, selector: 'tier In (high-traffic)', before: 315, after: 315 },
  ],
  emptied: [1],
  moved: [{ name: 'impact-01-svc-01', from: 1, to: 2 }],
  deletions: [
    {
      name: 'old-1',
      application: 'deleted',
      resources: 'deleted',
      why: 'resources-finalizer.argocd.argoproj.io: its resources are deleted with it',
    },
    { name: 'old-<2>', application: 'deleted', resources: 'kept', why: 'no resources finalizer' },
  ],
};

test('the "This change" section: timeline before → after, steps before → now, moves and deletions, escaped', () => {
  const html = changeHtml(change);
  assert.match(html, /<h3>This change <span class="summary">\(against HEAD \(1a2b3c4\)\)<\/span><\/h3>/);
  assert.match(html, /<p>all 540 Applications sync · 55 waves · about 2 h 45 min · the canary step is now empty<\/p>/);
  assert.match(html, /Timeline: 59 waves, about 2 h 57 min → 55 waves, about 2 h 45 min/);
  assert.match(
    html,
    /<tr class="warn"><td><a href="#step-1">1<\/a><\/td><td>tier In \(canary\)<\/td><td>45<\/td><td>0 \(now empty\)<\/td><\/tr>/,
  );
  assert.match(html, /<td>180<\/td><td>225<\/td>/);
  assert.doesNotMatch(html, /high-traffic/, 'an unchanged step is left out');
  assert.match(html, /1 Application move between steps: impact-01-svc-01 \(step 1 → 2\)/);
  assert.match(html, /2 Applications no longer generated, 1 deleted with their resources/);
  assert.match(html, /old-&#60;2&#62;: Application deleted, resources kept/);
  assert.equal(changeHtml(null), '');
  // Not known (VS Code for the Web has no git history): the section says why, with the reason escaped.
  const unknown = changeHtml({ ...change, steps: [], moved: [], deletions: [], unknown: 'no <git> history' });
  assert.match(unknown, /<h3>This change<\/h3><p class="summary">Not known: no &#60;git&#62; history<\/p>/);
  // In the page, before the timeline.
  const page = renderPlan(plan, '', { change });
  assert.ok(page.indexOf('id="change"') > 0);
});

/** A folded group as the page's script sees it: its class, its section and its summary's text. */
function group(section: string, className: string, summary: string, bold?: string): GroupElement {
  const b = bold === undefined ? null : { textContent: bold, querySelector: () => null };
  return {
    className,
    closest: (sel) => (sel === 'section' ? { id: section } : null),
    querySelector: (sel) => (sel === ':scope>summary' ? { textContent: summary, querySelector: (x) => (x === 'b' ? b : null) } : null),
  };
}

test('an opened group is known across refreshes by its step and label, never by its position or counts', () => {
  const before = groupKey(group('step-2', 'wave', 'wave 3 45 Applications (cluster: prod-03 45)', 'wave 3'));
  const after = groupKey(group('step-2', 'wave', 'wave 3 44 Applications (cluster: prod-03 44)', 'wave 3'));
  assert.equal(before, after, 'the same wave after its counts changed');
  assert.notEqual(before, groupKey(group('step-3', 'wave', 'wave 3 45 Applications', 'wave 3')), 'the same label in another step');
  // A step's fold of many waves: the same fold when the number of waves it holds changes.
  assert.equal(
    groupKey(group('step-2', 'more', 'waves 4-45: 42 more waves, 42 Applications')),
    groupKey(group('step-2', 'more', 'waves 4-46: 43 more waves, 43 Applications')),
  );
});

test("the filter counts Applications, each once: a chip's filter text starts with its name", () => {
  assert.equal(chipApp('prod-01-svc-01 prod-01 tier=canary'), 'prod-01-svc-01');
  assert.equal(chipApp('a-2 '), 'a-2');
});
