/** The rollout view's HTML (client/src/rolloutHtml.ts): what it shows, and that it shows it safely. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planBody, renderPlan } from '../../client/src/rolloutHtml';
import type { RolloutPlan as Plan } from '@appset-tools/protocol';
import { verdictOf } from '@appset-tools/engine';

/** A plan as the server sends it: its verdict is the engine's, worded from its enablement (every front's words). */
const withVerdict = (p: Omit<Plan, 'verdict'>): Plan => ({ ...p, verdict: verdictOf(p.enablement, p.totalApps) });
const plan = (over: Partial<Plan> = {}): Plan =>
  withVerdict({
    appset: 'shop',
    strategy: 'RollingSync',
    totalApps: 5,
    steps: [
      {
        step: 1,
        selector: 'tier In (canary)',
        apps: ['a-1', 'a-2'],
        maxUpdate: 1,
        concurrency: 1,
        manual: false,
        waves: [
          { wave: 1, apps: ['a-1'] },
          { wave: 2, apps: ['a-2'] },
        ],
      },
      { step: 2, selector: 'tier In (qa)', apps: ['b-1'], maxUpdate: 0, concurrency: 0, manual: true, waves: [] },
      {
        step: 3,
        selector: 'tier In (prod)',
        apps: ['c-1'],
        maxUpdate: '3',
        concurrency: 1,
        manual: false,
        waves: [{ wave: 1, apps: ['c-1'] }],
        maxUpdateError: 'maxUpdate "3" is not an integer or a percentage',
        blockedBy: ['BAD_NAME'],
      },
      { step: 4, selector: 'tier In (nowhere)', apps: [], concurrency: null, manual: false, waves: [] },
    ],
    unselected: ['lost-1'],
    duplicates: { 'a-1': [1, 3] },
    totalWaves: 3,
    enablement: { state: 'enabled', source: 'detected', evidence: [], searched: [] },
    ...over,
  });

test('steps, waves, manual gates and problems are drawn', () => {
  const html = renderPlan(plan());
  assert.match(html, /4 steps · 5 Applications · 3 waves · 1 unselected/);
  assert.match(html, /Step 1 · tier In \(canary\)<\/h3>/);
  assert.match(html, /<b>wave 2<\/b><span class="c" data-f="a-2 "><span class="app">a-2<\/span><\/span>/);
  assert.match(html, /manual gate \(maxUpdate 0\)/);
  assert.match(html, /<b>by hand<\/b><span class="c" data-f="b-1 "><span class="app">b-1<\/span><\/span>/);
  assert.match(html, /maxUpdate &#34;3&#34; is not an integer/);
  assert.match(html, /class="app blocked">BAD_NAME/);
  assert.match(html, /This step selects no Application/);
  assert.match(html, /Selected by no step[^]*lost-1/);
  assert.match(html, /a-1: steps 1, 3/);
  assert.doesNotMatch(html, /Progressive syncs are/);
});

test('a disabled or undetected controller setting is called out with its evidence', () => {
  const disabled = renderPlan(
    plan({
      enablement: {
        state: 'disabled',
        source: 'detected',
        searched: [],
        evidence: [{ file: '/ws/cm.yaml', description: 'argocd-cmd-params-cm sets it to "false"', effect: 'disables' }],
      },
    }),
  );
  assert.match(
    disabled,
    /Ignored: progressive syncs are off, so all 5 Applications sync at once\. The configuration turns them off for this workspace\./,
  );
  assert.match(disabled, /argocd-cmd-params-cm sets it to &#34;false&#34;/);
  const missing = renderPlan(
    plan({ enablement: { state: 'not-found', source: 'detected', evidence: [], searched: ['argocd-cmd-params-cm', 'Helm values'] } }),
  );
  assert.match(
    missing,
    /Ignored: progressive syncs are off, so all 5 Applications sync at once\. Nothing in this repository configures the Argo CD that runs it/,
  );
  // Written but not deployed: the banner says what the lens and the warning say, never "Ignored".
  const undeployed = renderPlan(
    plan({
      enablement: { state: 'not-found', source: 'detected', evidence: [], searched: [], undeployed: 'cm.yaml is written but not deployed' },
    }),
  );
  assert.match(
    undeployed,
    /<p class="warn">Not deployed yet: cm\.yaml is written but not deployed\. Until then, progressive syncs are off, so all 5 Applications sync at once\./,
  );
  assert.doesNotMatch(undeployed, /Ignored/);
  assert.match(missing, /Looked for: argocd-cmd-params-cm, Helm values/);
  const allAtOnce = renderPlan(plan({ strategy: 'AllAtOnce', steps: [], clusters: 3 }));
  assert.match(allAtOnce, /one commit syncs all 5 Applications at once on 3 clusters/);
  assert.match(renderPlan(plan({ strategy: 'AllAtOnce', steps: [], clusters: 1 })), /at once on 1 cluster\./);
});

test('everything from the plan is escaped and the page runs no script', () => {
  const evil = '<img src=x onerror=alert(1)>';
  const html = renderPlan(
    plan({
      appset: `<script>alert(1)</script>`,
      unselected: [evil],
      steps: [{ step: 1, selector: `"'&<>`, apps: [evil], concurrency: 1, manual: false, waves: [{ wave: 1, apps: [evil] }] }],
    }),
  );
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<img/i);
  assert.match(html, /&#60;script&#62;alert\(1\)&#60;\/script&#62;/);
  assert.match(html, /&#34;&#39;&#38;&#60;&#62;/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';"/);
  assert.match(renderPlan(null, '<b>boom</b>'), /could not be computed: &#60;b&#62;boom/);
  assert.match(renderPlan(null), /No ApplicationSet in this file/);
});

test('Applications link to their preview entry and source, destinations are shown, evidence links its file and line', () => {
  const html = renderPlan(
    plan({
      clusters: 1,
      apps: {
        'a-1': { destination: 'https://10.0.0.1:6443 / shop', source: { file: '/ws/clusters.yaml', offset: 40, label: 'cluster prod-01' } },
        'a-2': { destination: 'https://10.0.0.1:6443 / cart' },
      },
      enablement: {
        state: 'enabled',
        source: 'detected',
        searched: [],
        evidence: [],
        decidedBy: {
          file: '/ws/argocd/cm.yaml',
          where: 'argocd/cm.yaml:9',
          span: { start: 120, end: 126 },
          description: 'x',
          effect: 'enables',
        },
        instance: { name: 'argocd', why: 'installed beside it in argocd/' },
      },
    }),
    '',
    { source: 'file:///ws/shop.yaml', offset: 0 },
  );
  const href = (id: string, args: unknown[]) => `command:${id}?${encodeURIComponent(JSON.stringify(args))}`.replace(/&/g, '&#38;');
  assert.ok(
    html.includes(
      `<a class="app" href="${href('appsetTools.showPreview', ['file:///ws/shop.yaml', 0, 'a-1'])}" title="→ https://10.0.0.1:6443 / shop · from cluster prod-01">a-1</a>`,
    ),
    html,
  );
  assert.ok(html.includes(`href="${href('appsetTools.openLocation', ['/ws/clusters.yaml', 40])}"`));
  assert.match(html, /to 1 cluster: https:\/\/10\.0\.0\.1:6443</);
  assert.match(html, /· 1 cluster<\/p>/);
  assert.ok(
    html.includes(
      `Progressive syncs enabled by <a href="${href('appsetTools.openLocation', ['/ws/argocd/cm.yaml', 120])}">argocd/cm.yaml:9</a>`,
    ),
    html,
  );
  assert.doesNotMatch(html, /<script/);
});

test('the step whose lens was clicked is marked and scrolled to, by the only (nonce) script', () => {
  const html = renderPlan(plan({ focusStep: 3 }), '', { nonce: 'abc123' });
  assert.match(html, /<section class="step focus" id="step-3">/);
  assert.match(html, /script-src 'nonce-abc123'/);
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.match(html, /<script nonce="abc123">[^<]*document\.getElementById\("step-3"\)\?\.scrollIntoView\(\);<\/script>/);
  assert.match(html, /<input id="filter" type="search"/, 'the filter box comes with the script');
  assert.doesNotMatch(
    renderPlan(plan({ focusStep: 3 }), '', { nonce: 'a"b' }),
    /<script/,
    'a nonce that is not alphanumeric gives no script',
  );
});

test('a sync window that can park a step is shown on the step, with the AppProject line linked', () => {
  const p = plan();
  p.steps[0].syncWindows = [
    {
      project: 'shop',
      kind: 'deny',
      schedule: '0 22 * * *',
      duration: '8h',
      file: '/ws/projects/shop.yaml',
      span: { start: 200, end: 260 },
      where: 'projects/shop.yaml:11',
      apps: ['a-2'],
    },
  ];
  p.steps[2].syncWindows = [
    {
      project: 'shop',
      kind: 'deny',
      schedule: '<x>',
      duration: '1d',
      file: '/ws/p.yaml',
      where: 'p.yaml:3',
      apps: ['c-1'],
      problem: 'bad "1d"',
    },
  ];
  const html = renderPlan(p);
  const href = (args: unknown[]) => `command:appsetTools.openLocation?${encodeURIComponent(JSON.stringify(args))}`.replace(/&/g, '&#38;');
  const step1 = html.slice(html.indexOf('id="step-1"'), html.indexOf('id="step-2"'));
  assert.ok(
    step1.includes(
      `The deny window "0 22 * * *" for 8h of AppProject shop can park these; each parked one holds a maxUpdate slot and the step waits (<a href="${href(['/ws/projects/shop.yaml', 200])}">projects/shop.yaml:11</a>): <span class="c" data-f="a-2 "><span class="app blocked">a-2</span></span>`,
    ),
    step1,
  );
  const step3 = html.slice(html.indexOf('id="step-3"'), html.indexOf('id="step-4"'));
  assert.match(
    step3,
    /An unreadable sync window of AppProject shop \(bad &#34;1d&#34;\) blocks every sync of these, so the step never completes/,
  );
  assert.doesNotMatch(html, /&lt;x&gt;|<x>/, 'escaped (the schedule of an unreadable window is not shown)');
});

test('a refresh replaces only the plan (#plan): the filter box and the script stay, and the page reads the update message', () => {
  const html = renderPlan(plan(), '', { nonce: 'abc123', source: 'file:///a.yaml' });
  const body = planBody(html);
  assert.ok(body?.startsWith('<h2>'), body?.slice(0, 80));
  assert.ok(
    body && !body.includes('id="filter"') && !body.includes('<script'),
    'the filter box and the script are outside the replaced part',
  );
  assert.ok(html.indexOf('id="filter"') < html.indexOf('<main id="plan">'));
  assert.match(html, /addEventListener\('message'/);
  assert.equal(planBody(renderPlan(null, 'boom')), undefined, 'a page without a plan is replaced whole');
});

test('the Applications the controller skips are named with their reason, escaped', () => {
  const html = renderPlan({
    appset: 's',
    strategy: 'AllAtOnce',
    totalApps: 1,
    steps: [],
    unselected: [],
    duplicates: {},
    totalWaves: 1,
    enablement: { state: 'not-found', source: 'detected', evidence: [], searched: [] },
    skipped: [{ name: 'jobs', reason: 'the Application references an AppProject that does not exist: <batch>' }],
  } as Omit<Plan, 'verdict'> as Plan);
  assert.match(html, /Skipped by the controller, never created \(1\)/);
  assert.match(html, /<li>jobs: the Application references an AppProject that does not exist: &#60;batch&#62;<\/li>/);
});
