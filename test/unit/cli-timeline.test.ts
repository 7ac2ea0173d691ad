// Issue 30: the rollout timeline — the order and expected duration of a RollingSync at an assumed time
// per sync, and where a sync window or a manual gate stops it — through `appset plan` as a process, in
// text, JSON and markdown, with the time per sync from --minutes-per-sync and from .appset-tools.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundledCli } from '../helpers/realworld';
import { writeFiles, tempFolder } from '../helpers/cli';

const cli = bundledCli('timeline-');
const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'team-rollout');

/** A deny window on one low-traffic cluster (https://10.0.0.3): it can park step 2. */
const PROJECT = `apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata:
  name: shop
  namespace: argocd
spec:
  sourceRepos: ['*']
  destinations: [{server: '*', namespace: '*'}]
  syncWindows:
  - kind: deny
    schedule: "0 22 * * *"
    duration: 8h
    clusters: ["https://10.0.0.3"]
    manualSync: true
`;

/** The bundled team-rollout example as a repository: steps canary (all at once), low (2 at a time), high (`high`). */
function repo(high: string, extra: Record<string, string> = {}): string {
  const dir = tempFolder('timeline-repo-');
  fs.cpSync(EXAMPLE, dir, { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'));
  const file = path.join(dir, 'applicationset.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('maxUpdate: 25%', `maxUpdate: ${high}`));
  writeFiles(dir, extra);
  return dir;
}

function plan(dir: string, args: string[]) {
  return cli.run(['plan', 'applicationset.yaml', '--no-fail', ...args], dir);
}

test('plan: steps in order with when each starts and how long it syncs, at the time per sync given', () => {
  const dir = repo('25%');
  // 3.5: before the refresh gate of 3.6 (its line is the test below).
  const r = plan(dir, ['--minutes-per-sync', '5', '--argocd-version', '3.5']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  const at = lines.findIndex((l) => l.startsWith('  timeline: '));
  assert.deepEqual(lines.slice(at, at + 5), [
    '  timeline: 7 waves, about 35 min of syncing at 5 min a sync',
    '    +0:00 step 1: 3 Applications, 1 wave, about 5 min',
    '    +0:05 step 2: 6 Applications, 3 waves, about 15 min',
    '    +0:20 step 3: 3 Applications, 3 waves, about 15 min',
    '    +0:35 done',
  ]);
  assert.match(
    lines[at + 5],
    /^ {4}assumes: every sync takes 5 min \(the minutesPerSync setting; measure yours\); .*Healthy.*no sync fails/,
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

test('plan: a sync window and a manual gate are where the rollout stops, in text, JSON and markdown', () => {
  const dir = repo('0', { 'projects/shop.yaml': PROJECT, '.appset-tools.yaml': 'minutesPerSync: 10\n' });
  const text = plan(dir, []).out;
  assert.match(
    text,
    /^ {2}timeline: 4 waves, about 40 min of syncing at 10 min a sync; can stop at step 2 \(sync window\) and 1 more stop$/m,
  );
  assert.match(
    text,
    /^ {6}stop: can wait up to 8h if AppProject shop's deny window "0 22 \* \* \*" is active when step 2 starts: it parks 3 Applications of step 2 \(its manualSync does not help: the rollout's syncs are automated\) \(projects\/shop\.yaml:10\)$/m,
  );
  assert.match(text, /^ {4}\+0:40 step 3: 3 Applications, synced by hand$/m);
  assert.match(text, /^ {6}stop: waits for someone to sync its 3 Applications by hand \(maxUpdate 0: a manual gate\)$/m);
  assert.match(text, /^ {4}\+0:40 done, plus the time spent at the stops$/m);

  const json = JSON.parse(plan(dir, ['--output', 'json']).out);
  const tl = json.plans[0].plan.timeline;
  assert.equal(tl.minutesPerSync, 10);
  assert.equal(tl.mode, 'rolling');
  assert.equal(tl.ends, 'can-stop');
  assert.deepEqual(
    tl.steps.map((s: { step: number; apps: number; waves: number; start: number; minutes: number }) => [
      s.step,
      s.apps,
      s.waves,
      s.start,
      s.minutes,
    ]),
    [
      [1, 3, 1, 0, 10],
      [2, 6, 3, 10, 30],
      [3, 3, 0, 40, 0],
    ],
  );
  assert.deepEqual(
    tl.stops.map((s: { step: number; kind: string; maxMinutes?: number }) => [s.step, s.kind, s.maxMinutes]),
    [
      [2, 'sync-window', 480],
      [3, 'manual-gate', undefined],
    ],
  );

  // The flag, set away from the default, wins over the file.
  assert.equal(JSON.parse(plan(dir, ['--output', 'json', '--minutes-per-sync', '2']).out).plans[0].plan.timeline.minutesPerSync, 2);

  const md = plan(dir, ['--output', 'markdown']).out;
  assert.match(md, /^### `shop-services` · applicationset\.yaml:5$/m);
  assert.match(md, /^\*\*Timeline:\*\* 4 waves, about 40 min of syncing at 10 min a sync; can stop at step 2/m);
  assert.match(
    md,
    /^\| 2 \| tier In \\\(low-traffic\\\) \(6 apps\) \| \+0:10 \| 3 waves, about 30 min \| can wait up to 8h .*"0 22 \\\* \\\* \\\*".*\|$/m,
  );
  assert.match(
    md,
    /^\| 3 \| tier In \\\(high-traffic\\\) \(3 apps\) \| \+0:40 \| synced by hand \| waits for someone to sync its 3 Applications by hand/m,
  );
  assert.match(md, /^<sub>Assumes every sync takes 10 min/m);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('plan: a strategy the controller ignores is all at once, and the timeline says so', () => {
  const dir = repo('25%');
  const r = plan(dir, ['--progressive-syncs', 'disabled', '--output', 'json']);
  const tl = JSON.parse(r.out).plans[0].plan.timeline;
  assert.equal(tl.mode, 'ignored');
  assert.equal(tl.waves, 1);
  assert.equal(tl.summary, 'all 12 Applications at once, about 3 min at 3 min a sync (the strategy is ignored)');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('plan: --minutes-per-sync must be a whole number of minutes (exit 2)', () => {
  const dir = repo('25%');
  const r = plan(dir, ['--minutes-per-sync', '0.5']);
  assert.equal(r.code, 2);
  assert.match(r.err, /--minutes-per-sync must be a whole number from 1 to 10000, got "0.5"/);
  assert.match(plan(dir, ['--minutes-per-sync', '10001']).err, /--minutes-per-sync must be a whole number from 1 to 10000, got "10001"/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("issue 38: minutesPerSync in .appset-tools.yaml follows the flag's rule: 1e300 and 10001 are refused there too", () => {
  for (const bad of ['1e300', '10001']) {
    const dir = repo('0', { 'projects/shop.yaml': PROJECT, '.appset-tools.yaml': `minutesPerSync: ${bad}\n` });
    const r = plan(dir, ['--output', 'json']);
    assert.equal(JSON.parse(r.out).plans[0].plan.timeline.minutesPerSync, 3, `${bad}: the default, not the refused value`);
    const lint = cli.run(['lint', '.appset-tools.yaml', '--format', 'json', '--no-fail'], dir);
    assert.match(lint.out, /minutesPerSync: expected a whole number from 1 to 10000/, `${bad}: ${lint.out}${lint.err}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("lint: the controller's --policy create-only (no override) blocks the rollout, said on the strategy with where it is set", () => {
  const cm = fs.readFileSync(path.join(EXAMPLE, 'argocd-cmd-params-cm.yaml'), 'utf8') + '  applicationsetcontroller.policy: create-only\n';
  const dir = repo('25%', { 'argocd-cmd-params-cm.yaml': cm });
  const r = cli.run(['lint', 'applicationset.yaml', '--no-fail'], dir);
  const line = r.out.split('\n').find((l) => l.includes('rollout/sync-policy-blocks-rollout'));
  assert.match(
    line ?? r.out,
    /^applicationset\.yaml:\d+:3 \w+ rollout\/sync-policy-blocks-rollout the controller's policy create-only \(argocd-cmd-params-cm\.yaml:\d+\): create-only never updates existing Applications/,
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

test('plan: from Argo CD 3.6 the timeline says the refresh gate holds the first step once per change (at least 30 s, no upper bound), not every step (PR #27467)', () => {
  const dir = repo('25%');
  const v36 = plan(dir, ['--minutes-per-sync', '5', '--argocd-version', '3.6']).out;
  assert.match(
    v36,
    /^ {4}before step 1, the refresh gate: on a change to Applications that exist \(not for a new ApplicationSet\), the controller first waits at least --refresh-grace-period-seconds \(30 s by default, a minimum\) after the latest change, then, with no upper bound, until every Application of the ApplicationSet has reconciled since it .*; once per change, not before each step/m,
  );
  assert.equal(v36.split('refresh gate').length, 3, 'said once, and once in what the clock assumes');
  assert.match(v36, /assumes: .*the clock starts when the refresh gate opens \(on a change: at least 30 s after it, no upper bound\)/);
  assert.doesNotMatch(v36, /before each step the controller|up to 30 s/);
  // The steps start as before: the gate is not a per-step delay.
  assert.match(v36, /^ {4}\+0:05 step 2: 6 Applications, 3 waves, about 15 min$/m);
  const json = JSON.parse(plan(dir, ['--argocd-version', '3.6', '--output', 'json']).out);
  assert.equal(json.plans[0].plan.timeline.refreshGate.minSeconds, 30);
  const v35 = plan(dir, ['--minutes-per-sync', '5', '--argocd-version', '3.5']).out;
  assert.doesNotMatch(v35, /refresh gate/);
  fs.rmSync(dir, { recursive: true, force: true });
});
