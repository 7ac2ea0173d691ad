// AppProject sync windows that park a RollingSync step (rollout/syncWindows.ts): which windows apply to
// an Application (types.go SyncWindows.Matches), which can forbid its sync (CanSync), what the
// controller cannot parse, and the rollout/sync-window finding through the real language service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  blockingWindows,
  cronProblem,
  durationMs,
  durationProblem,
  globMatch,
  windowMatches,
  type SyncWindowSpec,
} from '../../../../server/src/engine/rollout/syncWindows';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../../../helpers/memHost';

const win = (w: Partial<SyncWindowSpec>): SyncWindowSpec => ({
  kind: 'deny',
  schedule: '0 22 * * *',
  duration: '8h',
  applications: [],
  namespaces: [],
  clusters: [],
  manualSync: false,
  andOperator: false,
  syncOverrun: false,
  index: 0,
  where: 'p.yaml:1',
  ...w,
});
const app = { name: 'cart-us-east', destName: '', destServer: 'https://10.0.0.3', destNamespace: 'cart' };

test('globs as gobwas/glob reads them without separators', () => {
  assert.equal(globMatch('*', ''), true);
  assert.equal(globMatch('cart-*', 'cart-us-east'), true);
  assert.equal(globMatch('cart-*-east', 'cart-us/x-east'), true, 'no separators: * crosses "/"');
  assert.equal(globMatch('https://10.0.0.?', 'https://10.0.0.3'), true);
  assert.equal(globMatch('https://10.0.0.[12]', 'https://10.0.0.3'), false);
  assert.equal(globMatch('https://10.0.0.[!12]', 'https://10.0.0.3'), true);
  assert.equal(globMatch('{cart,checkout}-*', 'checkout-eu'), true);
  assert.equal(globMatch('cart', 'cart-eu'), false);
  assert.equal(globMatch('[unclosed', '[unclosed'), false, 'a pattern that does not compile matches nothing');
});

test('which windows apply: any of applications / clusters / namespaces, or all set ones with andOperator', () => {
  assert.equal(windowMatches(win({ applications: ['cart-*'] }), app), true);
  assert.equal(windowMatches(win({ clusters: ['https://10.0.0.3'] }), app), true, 'clusters match the destination server');
  assert.equal(windowMatches(win({ clusters: ['us-east'] }), { ...app, destName: 'us-east', destServer: '' }), true);
  assert.equal(windowMatches(win({ namespaces: ['cart'] }), app), true);
  assert.equal(windowMatches(win({ applications: ['checkout-*'], namespaces: ['cart'] }), app), true, 'OR by default');
  assert.equal(windowMatches(win({ applications: ['checkout-*'], namespaces: ['cart'], andOperator: true }), app), false);
  assert.equal(windowMatches(win({ applications: ['cart-*'], namespaces: ['cart'], andOperator: true }), app), true);
  assert.equal(windowMatches(win({ applications: ['cart-*'], clusters: ['other'], andOperator: true }), app), false);
  assert.equal(windowMatches(win({}), app), false, 'a window that names nothing applies to nothing');
});

test('which windows can forbid the sync: deny, allow windows (not always open), any unreadable window', () => {
  const all = { clusters: ['*'] };
  assert.deepEqual(
    blockingWindows([win({ ...all, kind: 'deny' })], app).map((w) => w.kind),
    ['deny'],
  );
  assert.deepEqual(
    blockingWindows([win({ ...all, kind: 'allow', schedule: '0 6 * * 1-5', duration: '2h' })], app).map((w) => w.kind),
    ['allow'],
  );
  assert.deepEqual(blockingWindows([win({ ...all, kind: 'allow', schedule: '* * * * *', duration: '1h' })], app), [], 'always open');
  assert.deepEqual(blockingWindows([win({ namespaces: ['other'] })], app), [], 'not matching');
  const broken = win({ ...all, kind: 'allow', schedule: '* * * * *', duration: '1d', problem: durationProblem('1d') });
  assert.equal(blockingWindows([broken, win({ ...all, kind: 'deny' })], app)[0], broken);
});

test('what the controller can parse: robfig/cron five fields, Go durations', () => {
  for (const ok of ['0 22 * * *', '*/15 * * * *', '0 6 * * MON-FRI', '0 0 1 jan,jul *', 'TZ=Europe/Berlin 0 22 * * *', '5-10/2 * * * ?'])
    assert.equal(cronProblem(ok), undefined, ok);
  assert.match(cronProblem('@daily')!, /descriptor/);
  assert.match(cronProblem('0 22 * *')!, /4 fields; Argo CD expects exactly 5/);
  assert.match(cronProblem('0 0 22 * * *')!, /6 fields/);
  assert.match(cronProblem('0 24 * * *')!, /hour field "24": 24 is above 23/);
  assert.match(cronProblem('0 6 * * 1-7')!, /day of week field "1-7": 7 is above 6/);
  assert.match(cronProblem('')!, /empty/);
  assert.equal(durationMs('1h30m'), 5_400_000);
  assert.equal(durationMs('90s'), 90_000);
  assert.equal(durationMs('0'), 0);
  assert.ok(Number.isNaN(durationMs('1d')));
  assert.ok(Number.isNaN(durationMs('')));
  assert.ok(Number.isNaN(durationMs('8')));
  assert.equal(durationProblem('2h'), undefined);
  assert.equal(durationProblem('1d'), 'the duration "1d" is not a Go duration (no "d" unit: write 24h)');
});

const EXAMPLE = path.resolve(__dirname, '..', '..', '..', '..', 'examples', 'team-rollout');

function workspace(project: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const n of fs.readdirSync(EXAMPLE)) files.set(`/ws/${n}`, fs.readFileSync(path.join(EXAMPLE, n), 'utf8'));
  files.set('/ws/projects/shop.yaml', project);
  return files;
}

const PROJECT = (windows: string) => `apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata:
  name: shop
  namespace: argocd
spec:
  destinations:
  - server: '*'
    namespace: '*'
  syncWindows:
${windows}`;

function analyze(files: Map<string, string>) {
  const host = memHost(files);
  const ls = getLanguageService({ host });
  const p = '/ws/applicationset.yaml';
  const a = ls.analyze('file://' + p, files.get(p)!, p);
  return { ls, a, text: files.get(p)! };
}

test('a deny window on one low-traffic cluster stalls step 2 and holds its maxUpdate slots (finding, plan, related window)', () => {
  const files = workspace(
    PROJECT(`  - kind: deny
    schedule: "0 22 * * *"
    duration: 8h
    clusters: ["https://10.0.0.3"]
    manualSync: true
`),
  );
  const { ls, a, text } = analyze(files);
  const ds = ls.diagnostics(a).filter((d) => d.code === 'rollout/sync-window');
  assert.equal(ds.length, 1, JSON.stringify(ls.diagnostics(a).map((d) => d.code)));
  const d = ds[0];
  assert.equal(d.severity, 'warning');
  assert.equal(
    d.message,
    'Step 2 can stall in a sync window: AppProject shop\'s deny window "0 22 * * *" for 8h (projects/shop.yaml:11) keeps 3 of its 6 Applications (cart-us-east, catalog-us-east, checkout-us-east) from syncing while it is active. The rollout still starts their syncs and the controller parks them ("Sync operation blocked by sync window"); they can take all 2 of the step\'s maxUpdate slots, so nothing else in the step syncs until the window lets them run, and step 3 waits. manualSync does not help: the rollout\'s syncs count as automated.',
  );
  // On the step it is about (its `- matchExpressions` key), pointing at the window.
  assert.equal(text.slice(d.span.start, d.span.end), 'matchExpressions');
  assert.ok(text.slice(0, d.span.start).includes('values: [canary]') && !text.slice(0, d.span.start).includes('low-traffic]'));
  assert.equal(d.related?.length, 1);
  assert.equal(d.related![0].location.file, '/ws/projects/shop.yaml');
  const proj = files.get('/ws/projects/shop.yaml')!;
  assert.ok(proj.slice(d.related![0].location.span!.start).startsWith('kind: deny'));
  // The plan carries the window on the step (CLI JSON, rollout view).
  const plan = ls.rolloutPlan(a, ls.appsets(a)[0].span.start)!;
  assert.deepEqual(
    plan.steps.map((s) => (s.syncWindows ?? []).map((w) => `${w.project}:${w.kind}:${w.where}:${w.apps.join(',')}`)),
    [[], ['shop:deny:projects/shop.yaml:11:cart-us-east,catalog-us-east,checkout-us-east'], []],
  );
});

test('an allow window for the high-traffic cluster, an unreadable window, and windows that cannot block', () => {
  const allow = analyze(
    workspace(
      PROJECT(`  - kind: allow
    schedule: "0 6 * * 1-5"
    duration: 2h
    applications: ["*-us-west"]
`),
    ),
  );
  const d = allow.ls.diagnostics(allow.a).find((x) => x.code === 'rollout/sync-window')!;
  assert.match(
    d.message,
    /^Step 3 can stall in a sync window: AppProject shop's allow window "0 6 \* \* 1-5" for 2h .* keeps 3 of its 3 Applications .* outside it\./,
  );
  assert.match(d.message, /each parked one holds one of the step's 1 maxUpdate slots|they can take all 1 of the step's maxUpdate slots/);
  assert.doesNotMatch(d.message, /wait\b/, 'the last step has no later steps');

  const broken = analyze(
    workspace(
      PROJECT(`  - kind: deny
    schedule: "0 22 * * *"
    duration: 1d
    namespaces: [cart]
`),
    ),
  );
  const b = broken.ls.diagnostics(broken.a).filter((x) => x.code === 'rollout/sync-window');
  assert.deepEqual(
    b.map((x) => x.message.split(':')[0]),
    ['Step 1 never completes', 'Step 2 never completes', 'Step 3 never completes'],
  );
  assert.match(b[0].message, /the duration "1d" is not a Go duration \(no "d" unit: write 24h\)/);
  assert.match(b[0].message, /and steps 2–3 never run/);

  const none = analyze(
    workspace(
      PROJECT(`  - kind: allow
    schedule: "* * * * *"
    duration: 1h
    clusters: ["*"]
  - kind: deny
    schedule: "0 22 * * *"
    duration: 1h
    namespaces: [other]
`),
    ),
  );
  assert.deepEqual(
    none.ls.diagnostics(none.a).filter((x) => x.code === 'rollout/sync-window'),
    [],
  );
  // Another project's windows never apply.
  const other = workspace(
    PROJECT(`  - kind: deny\n    schedule: "0 22 * * *"\n    duration: 8h\n    clusters: ["*"]\n`).replace('name: shop', 'name: other'),
  );
  const o = analyze(other);
  assert.deepEqual(
    o.ls.diagnostics(o.a).filter((x) => x.code === 'rollout/sync-window'),
    [],
  );
});

// A window written with a cluster name where the Applications write the server, or a cluster under
// applications, never applies (issue 29): the findings' place and words are the rule fixture
// test/fixtures/rules/rollout/sync-window-no-match/; its related information stays here.
test('a window that never applies names the AppProject as related information', () => {
  const { ls, a } = analyze(
    workspace(
      PROJECT(`  - kind: deny
    schedule: "0 22 * * *"
    duration: 8h
    clusters: [us-east]
`),
    ),
  );
  const ds = ls.diagnostics(a).filter((d) => d.code === 'rollout/sync-window-no-match');
  assert.equal(ds.length, 1);
  assert.equal(ds[0].related?.[0].location.file, '/ws/projects/shop.yaml');
});

test("issue 38: a duration past Go's largest blocks every sync (Argo CD cannot parse it); a time zone Go cannot load is read in UTC, and said", () => {
  const overflow = analyze(
    workspace(
      PROJECT(`  - kind: deny
    schedule: "0 22 * * *"
    duration: 3000000h
    namespaces: [cart]
`),
    ),
  );
  const o = overflow.ls.diagnostics(overflow.a).filter((x) => x.code === 'rollout/sync-window');
  assert.equal(o[0]?.message.split(':')[0], 'Step 1 never completes', JSON.stringify(o.map((x) => x.message)));
  assert.match(o[0].message, /the duration "3000000h" is longer than Go's largest duration \(2562047h47m16\.854775807s, about 292 years\)/);
  assert.equal(durationProblem('2562047h'), undefined);
  assert.ok(Number.isNaN(durationMs('2562048h')));

  const zone = analyze(
    workspace(
      PROJECT(`  - kind: deny
    schedule: "0 22 * * *"
    duration: 8h
    clusters: ["https://10.0.0.3"]
    timeZone: "Europe/../Paris"
`),
    ),
  );
  const z = zone.ls.diagnostics(zone.a).filter((x) => x.code === 'rollout/sync-window');
  assert.equal(z.length, 1);
  assert.match(
    z[0].message,
    /deny window "0 22 \* \* \*" for 8h \(the time zone "Europe\/\.\.\/Paris" is not a time zone name \(Go refuses a name with "\.\." or a leading slash\): Argo CD reads this window in UTC\)/,
  );
  const plan = zone.ls.rolloutPlan(zone.a, zone.ls.appsets(zone.a)[0].span.start)!;
  assert.match(plan.steps[1].syncWindows![0].timeZoneProblem!, /not a time zone name/);
});
