import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assignSteps,
  compareNames,
  computePlan,
  progressStatuses,
  resolveMaxUpdate,
  type StatusEntry,
} from '../../../../server/src/engine/rollout/plan';
import { readStrategy, type RolloutStepSpec } from '../../../../server/src/engine/rollout/spec';
import type { GeneratedApp } from '@appset-tools/engine';
import type { Enablement } from '@appset-tools/protocol';
import * as YAML from 'yaml';
import { DOC_EXAMPLE_STEPS, rollingSyncBy } from '../../../helpers/appsets';

type Expr = [key: string, operator: string, values: string[]];
function step(exprs: Expr[], maxUpdate?: number | string, index = 0): RolloutStepSpec {
  return {
    index,
    matchExpressions: exprs.map(([key, operator, values], i) => ({ key, operator, values, path: [i] })),
    maxUpdate,
    maxUpdateBadType: false,
    path: ['spec', 'strategy', 'rollingSync', 'steps', index],
  };
}
const app = (name: string, labels: Record<string, string> = {}) => ({ name, labels });
const gen = (name: string, labels: Record<string, string> = {}, invalid?: GeneratedApp['invalid']): GeneratedApp => ({
  app: {},
  name,
  labels,
  generatorIndex: 0,
  params: {},
  ...(invalid ? { invalid } : {}),
});
const ENABLED: Enablement = { state: 'enabled', source: 'setting', evidence: [], searched: [] };

// Cases of TestBuildAppDependencyList (argo-cd applicationset/progressivesync/progressive_sync_test.go).
const CASES: {
  name: string;
  steps: RolloutStepSpec[];
  apps: { name: string; labels: Record<string, string> }[];
  list: string[][];
  stepMap: Record<string, number>;
  empty?: number[];
  dups?: Record<string, number[]>;
  invalidOps?: { step: number; operator: string }[];
}[] = [
  {
    name: "handles an empty set of applications with good 'In' selectors",
    steps: [step([['env', 'In', ['dev']]])],
    apps: [],
    list: [[]],
    stepMap: {},
    empty: [0],
  },
  {
    name: "handles selecting 1 application with 1 'In' selector",
    steps: [step([['env', 'In', ['dev']]])],
    apps: [app('app-dev', { env: 'dev' })],
    list: [['app-dev']],
    stepMap: { 'app-dev': 0 },
  },
  {
    name: "handles 'In' selectors that select no applications",
    steps: [step([['env', 'In', ['dev']]]), step([['env', 'In', ['qa']]]), step([['env', 'In', ['prod']]])],
    apps: [app('app-qa', { env: 'qa' }), app('app-prod', { env: 'prod' })],
    list: [[], ['app-qa'], ['app-prod']],
    stepMap: { 'app-qa': 1, 'app-prod': 2 },
    empty: [0],
  },
  {
    name: "multiple 'In' selectors in the same matchExpression only select Applications that match all selectors",
    steps: [
      step([
        ['region', 'In', ['us-east-2']],
        ['env', 'In', ['qa']],
      ]),
    ],
    apps: [app('app-qa1', { env: 'qa' }), app('app-qa2', { env: 'qa', region: 'us-east-2' })],
    list: [['app-qa2']],
    stepMap: { 'app-qa2': 0 },
  },
  {
    name: "multiple values in the same 'In' matchExpression can match on any value",
    steps: [step([['env', 'In', ['qa', 'prod']]])],
    apps: [app('app-dev', { env: 'dev' }), app('app-qa', { env: 'qa' }), app('app-prod', { env: 'prod', region: 'us-east-2' })],
    list: [['app-qa', 'app-prod']],
    stepMap: { 'app-qa': 0, 'app-prod': 0 },
  },
  {
    name: "handles an empty set of applications with good 'NotIn' selectors",
    steps: [step([['env', 'NotIn', ['dev']]])],
    apps: [],
    list: [[]],
    stepMap: {},
    empty: [0],
  },
  {
    name: "selects 1 application with 1 'NotIn' selector",
    steps: [step([['env', 'NotIn', ['qa']]])],
    apps: [app('app-dev', { env: 'dev' })],
    list: [['app-dev']],
    stepMap: { 'app-dev': 0 },
  },
  {
    name: "'NotIn' selectors that select no applications",
    steps: [step([['env', 'NotIn', ['qa', 'prod']]])],
    apps: [app('app-qa', { env: 'qa' }), app('app-prod', { env: 'prod' })],
    list: [[]],
    stepMap: {},
    empty: [0],
  },
  {
    name: "multiple 'NotIn' selectors remove Applications with mising labels on any match",
    steps: [
      step([
        ['region', 'NotIn', ['us-east-2']],
        ['env', 'NotIn', ['qa']],
      ]),
    ],
    apps: [app('app-qa1', { env: 'qa' }), app('app-qa2', { env: 'qa', region: 'us-east-2' })],
    list: [[]],
    stepMap: {},
    empty: [0],
  },
  {
    name: "multiple 'NotIn' selectors filter all matching Applications",
    steps: [
      step([
        ['region', 'NotIn', ['us-east-2']],
        ['env', 'NotIn', ['qa']],
      ]),
    ],
    apps: [
      app('app-qa1', { env: 'qa', region: 'us-east-1' }),
      app('app-qa2', { env: 'qa', region: 'us-east-2' }),
      app('app-prod1', { env: 'prod', region: 'us-east-1' }),
      app('app-prod2', { env: 'prod', region: 'us-east-2' }),
    ],
    list: [['app-prod1']],
    stepMap: { 'app-prod1': 0 },
  },
  {
    name: "multiple values in the same 'NotIn' matchExpression exclude a match from any value",
    steps: [step([['env', 'NotIn', ['qa', 'prod']]])],
    apps: [app('app-dev', { env: 'dev' }), app('app-qa', { env: 'qa' }), app('app-prod', { env: 'prod', region: 'us-east-2' })],
    list: [['app-dev']],
    stepMap: { 'app-dev': 0 },
  },
  {
    name: "in a mix of 'In' and 'NotIn' selectors, 'NotIn' takes precedence",
    steps: [
      step([
        ['env', 'In', ['qa', 'prod']],
        ['region', 'NotIn', ['us-west-2']],
      ]),
    ],
    apps: [
      app('app-dev', { env: 'dev' }),
      app('app-qa1', { env: 'qa', region: 'us-west-2' }),
      app('app-qa2', { env: 'qa', region: 'us-east-2' }),
    ],
    list: [['app-qa2']],
    stepMap: { 'app-qa2': 0 },
  },
  {
    name: 'app selected in multiple steps is captured as validation issue',
    steps: [step([['env', 'In', ['dev']]]), step([['region', 'In', ['us-west-2']]])],
    apps: [app('app-dev', { env: 'dev', region: 'us-west-2' }), app('app-qa', { region: 'us-west-2' })],
    list: [['app-dev'], ['app-dev', 'app-qa']],
    stepMap: { 'app-dev': 0, 'app-qa': 1 },
    dups: { 'app-dev': [0, 1] },
  },
  {
    name: 'Invalid Operator in MatchExpression is captured as validationIssue',
    steps: [step([['env', 'Invalid', ['dev']]]), step([['env', 'In', ['dev']]])],
    apps: [app('app-dev', { env: 'dev' })],
    list: [[], ['app-dev']],
    stepMap: { 'app-dev': 1 },
    empty: [0],
    invalidOps: [{ step: 0, operator: 'Invalid' }],
  },
];

for (const c of CASES) {
  test(`TestBuildAppDependencyList: ${c.name}`, () => {
    const a = assignSteps(c.steps, c.apps);
    assert.deepEqual(a.lists, c.list);
    assert.deepEqual(Object.fromEntries(a.stepOf), c.stepMap);
    assert.deepEqual(a.emptySteps, c.empty ?? []);
    assert.deepEqual(Object.fromEntries(a.duplicates), c.dups ?? {});
    assert.deepEqual(a.invalidOperators, c.invalidOps ?? []);
  });
}

test('quirk (progressive_sync.go buildAppDependencyList): an invalid operator passes when the label key is missing', () => {
  const a = assignSteps([step([['tier', 'Exists', []]])], [app('a'), app('b', { tier: 'x' })]);
  assert.deepEqual(a.lists, [['a']]);
  assert.deepEqual(a.invalidOperators, [{ step: 0, operator: 'Exists' }]);
});

test('empty matchExpressions select every Application; In with no values never matches a present key', () => {
  const a = assignSteps([step([['env', 'In', []]]), step([])], [app('a', { env: 'x' }), app('b')]);
  assert.deepEqual(a.lists, [[], ['a', 'b']]);
});

test('hostile label keys are plain keys', () => {
  const labels = JSON.parse('{"__proto__": "x", "constructor": "y"}') as Record<string, string>;
  const a = assignSteps([step([['__proto__', 'In', ['x']]]), step([['toString', 'In', ['x']]])], [app('a', labels)]);
  assert.deepEqual(a.lists, [['a'], []]);
});

// maxUpdate arithmetic of UpdateApplicationSetApplicationStatusProgress
// (argo-cd applicationset/controllers/progressive_sync_dependencies_test.go).
function progress(maxUpdate: number | string | undefined, statuses: ProgressiveStatusTuple[], extraSteps = 0): string[] {
  const steps = [step([], maxUpdate), ...Array.from({ length: extraSteps }, (_, i) => step([], undefined, i + 1))];
  const entries: StatusEntry[] = statuses.map(([app, status]) => ({ app, status }));
  const stepOf = new Map(entries.map((e) => [e.app, 0]));
  return progressStatuses(steps, entries, new Set(entries.map((e) => e.app)), stepOf).map((e) => e.status);
}
type ProgressiveStatusTuple = [string, StatusEntry['status']];
const waiting3: ProgressiveStatusTuple[] = [
  ['app1', 'Waiting'],
  ['app2', 'Waiting'],
  ['app3', 'Waiting'],
];

test('TestUpdateApplicationSetApplicationStatusProgress: does not update a status if maxUpdate has already been reached with RollingSync', () => {
  assert.deepEqual(
    progress(
      3,
      [
        ['app1', 'Progressing'],
        ['app2', 'Waiting'],
        ['app3', 'Waiting'],
        ['app4', 'Pending'],
      ],
      1,
    ),
    ['Progressing', 'Pending', 'Waiting', 'Pending'],
  );
});
test('TestUpdateApplicationSetApplicationStatusProgress: rounds down for maxUpdate set to percentage string', () => {
  assert.deepEqual(progress('50%', waiting3), ['Pending', 'Waiting', 'Waiting']);
});
test('TestUpdateApplicationSetApplicationStatusProgress: does not update any applications with maxUpdate set to 0', () => {
  assert.deepEqual(progress(0, waiting3), ['Waiting', 'Waiting', 'Waiting']);
});
test('TestUpdateApplicationSetApplicationStatusProgress: updates all applications with maxUpdate set to 100%', () => {
  assert.deepEqual(progress('100%', waiting3), ['Pending', 'Pending', 'Pending']);
});
test('TestUpdateApplicationSetApplicationStatusProgress: updates at least 1 application with maxUpdate >0%', () => {
  assert.deepEqual(progress('1%', waiting3), ['Pending', 'Waiting', 'Waiting']);
});

test('resolveMaxUpdate: integers, percentages, "0%", invalid strings (intstr.GetScaledValueFromIntOrPercent, roundUp=false)', () => {
  assert.deepEqual(resolveMaxUpdate(undefined, 10), { value: null });
  assert.equal(resolveMaxUpdate(3, 10).value, 3);
  assert.equal(resolveMaxUpdate(0, 10).value, 0);
  assert.equal(resolveMaxUpdate(-2, 10).value, -2);
  assert.equal(resolveMaxUpdate('10%', 45).value, 4);
  assert.equal(resolveMaxUpdate('50%', 3).value, 1);
  assert.equal(resolveMaxUpdate('150%', 4).value, 6);
  assert.equal(resolveMaxUpdate('0%', 10).value, 0);
  assert.equal(resolveMaxUpdate('00%', 10).value, 1);
  assert.equal(resolveMaxUpdate('-10%', 10).value, 1);
  assert.equal(resolveMaxUpdate('+20%', 10).value, 2);
  for (const bad of ['3', 'abc', '10.5%', ' 10%', '', '%']) {
    const r = resolveMaxUpdate(bad, 10);
    assert.equal(r.value, 1, bad);
    assert.ok(r.error, bad);
  }
  assert.ok(resolveMaxUpdate(1.5, 10).error);
});

test('the wave model equals repeated controller passes (promote, then the promoted become Healthy)', () => {
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const mus: (number | string | undefined)[] = [undefined, 1, 2, 3, '10%', '25%', '50%', '100%', '0%', 0, 'x'];
  for (let round = 0; round < 60; round++) {
    const values = ['a', 'b', 'c'];
    const steps = values.map((v, i) => step([['tier', 'In', [v]]], mus[rnd(mus.length)], i));
    const apps = Array.from({ length: 1 + rnd(30) }, (_, i) =>
      gen(`app-${String(rnd(1000)).padStart(3, '0')}-${i}`, rnd(6) === 0 ? { tier: 'zz' } : { tier: values[rnd(3)] }),
    );
    const plan = computePlan({
      appset: 'x',
      strategy: { type: 'RollingSync', hasRollingSync: true, steps, deletionOrder: '', present: true },
      apps,
      enablement: ENABLED,
    });
    const a = assignSteps(steps, apps);
    let statuses: StatusEntry[] = apps.map((x) => ({ app: x.name, status: 'Waiting' as const })).sort((x, y) => compareNames(x.app, y.app));
    for (let k = 0; k < steps.length; k++) {
      const allowed = new Set(a.lists.slice(0, k + 1).flat());
      const waves: string[][] = [];
      for (let guard = 0; guard < 100; guard++) {
        const next = progressStatuses(steps, statuses, allowed, a.stepOf);
        const promoted = next.filter((s, i) => s.status === 'Pending' && statuses[i].status === 'Waiting').map((s) => s.app);
        if (!promoted.length) break;
        waves.push(promoted);
        statuses = next.map((s) => (s.status === 'Pending' ? { ...s, status: 'Healthy' as const } : s));
      }
      const st = plan.steps[k];
      if (st.manual) assert.deepEqual(waves, [], `round ${round} step ${k + 1}`);
      else
        assert.deepEqual(
          waves,
          st.waves.map((w) => w.apps),
          `round ${round} step ${k + 1}`,
        );
      // a manual gate: the user syncs them by hand
      statuses = statuses.map((s) => (a.stepOf.get(s.app) === k ? { ...s, status: 'Healthy' as const } : s));
    }
  }
});

test('quirk: unselected Applications count toward step 1 percentage base', () => {
  const steps = [step([['tier', 'In', ['a']]], '50%', 0), step([['tier', 'In', ['b']]], '50%', 1)];
  const apps = [
    gen('a1', { tier: 'a' }),
    gen('a2', { tier: 'a' }),
    gen('b1', { tier: 'b' }),
    gen('b2', { tier: 'b' }),
    gen('z1'),
    gen('z2'),
  ];
  const plan = computePlan({
    appset: 'x',
    strategy: { type: 'RollingSync', hasRollingSync: true, steps, deletionOrder: '', present: true },
    apps,
    enablement: ENABLED,
  });
  assert.equal(plan.steps[0].percentageBase, 4);
  assert.equal(plan.steps[0].concurrency, 2);
  assert.deepEqual(plan.steps[0].waves, [{ wave: 1, apps: ['a1', 'a2'] }]);
  assert.equal(plan.steps[1].concurrency, 1);
  assert.equal(plan.steps[1].waves.length, 2);
  assert.deepEqual(plan.unselected, ['z1', 'z2']);
  assert.equal(plan.totalWaves, 3);
});

test('invalid Applications block their step and do not count toward percentages; duplicates sync in their first step', () => {
  const steps = [step([['env', 'In', ['dev']]], undefined, 0), step([['region', 'In', ['w']]], 1, 1)];
  const apps = [
    gen('d1', { env: 'dev', region: 'w' }),
    gen('d2', { env: 'dev' }, [{ kind: 'destination-missing', message: 'bad destination' }]),
    gen('w1', { region: 'w' }),
  ];
  const plan = computePlan({
    appset: 'x',
    strategy: { type: 'RollingSync', hasRollingSync: true, steps, deletionOrder: '', present: true },
    apps,
    enablement: ENABLED,
  });
  assert.deepEqual(plan.steps[0].apps, ['d1', 'd2']);
  assert.deepEqual(plan.steps[0].blockedBy, ['d2']);
  assert.deepEqual(plan.steps[0].waves, [{ wave: 1, apps: ['d1'] }]);
  assert.deepEqual(plan.steps[1].syncedEarlier, ['d1']);
  assert.deepEqual(plan.steps[1].waves, [{ wave: 1, apps: ['w1'] }]);
  assert.deepEqual(plan.duplicates, { d1: [1, 2] });
});

test('AllAtOnce and RollingSync without steps give no steps (RollingSyncStrategyEnabled)', () => {
  for (const y of [
    '{}',
    '{strategy: {type: AllAtOnce}}',
    '{strategy: {type: RollingSync, rollingSync: {steps: []}}}',
    '{strategy: {type: RollingSync}}',
    '{strategy: {type: rollingsync, rollingSync: {steps: [{}]}}}',
  ]) {
    const s = readStrategy({ spec: YAML.parse(y) });
    const plan = computePlan({ appset: 'x', strategy: s, apps: [gen('a')], enablement: ENABLED });
    assert.equal(plan.strategy, 'AllAtOnce', y);
    assert.equal(plan.totalWaves, 1);
  }
});

test('compareNames is byte (code point) order', () => {
  assert.deepEqual(['b', 'B', 'a-2', 'a-10', 'é', 'z'].sort(compareNames), ['B', 'a-10', 'a-2', 'b', 'z', 'é']);
  assert.ok(compareNames('\u{1F600}', '\uFFFD') > 0);
});

// The Progressive-Syncs.md example: dev (no maxUpdate), qa (maxUpdate 0), prod (10%).
test('documented example (Progressive-Syncs.md): dev all at once, qa manual gate, prod 10% floored at 1', () => {
  const strategy = readStrategy(
    YAML.parse(`
spec:
${rollingSyncBy('envLabel', DOC_EXAMPLE_STEPS, { deletionOrder: 'Reverse' })}`),
  );
  const apps = [
    gen('engineering-dev-guestbook', { envLabel: 'env-dev' }),
    gen('engineering-qa-guestbook', { envLabel: 'env-qa' }),
    gen('engineering-prod-guestbook', { envLabel: 'env-prod' }),
  ];
  const plan = computePlan({ appset: 'guestbook', strategy, apps, enablement: ENABLED });
  assert.equal(plan.strategy, 'RollingSync');
  assert.deepEqual(
    plan.steps.map((s) => [s.selector, s.apps, s.concurrency, s.manual, s.waves.map((w) => w.apps)]),
    [
      ['envLabel In (env-dev)', ['engineering-dev-guestbook'], null, false, [['engineering-dev-guestbook']]],
      ['envLabel In (env-qa)', ['engineering-qa-guestbook'], 0, true, []],
      ['envLabel In (env-prod)', ['engineering-prod-guestbook'], 1, false, [['engineering-prod-guestbook']]],
    ],
  );
  assert.equal(plan.totalWaves, 2);
  assert.deepEqual(plan.unselected, []);
});
