/**
 * Rollout diagnostics, lenses, hover and quick fixes, each called on the context the real facade
 * builds (storyContext: the story's Secrets in an in-memory workspace), so every expansion is the
 * engine's own. The end-to-end story through the language service's API is in rollout-story.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rolloutDiagnostics } from '../../../../../server/src/engine/features/rollout/diagnostics';
import { rolloutLenses } from '../../../../../server/src/engine/features/rollout/lenses';
import { rolloutHover } from '../../../../../server/src/engine/features/rollout/hover';
import { rolloutCodeActions, orderValues } from '../../../../../server/src/engine/features/rollout/quickfix';
import { syncWaves } from '../../../../../server/src/engine/features/rollout/waves';
import { getRolloutPlan } from '../../../../../server/src/engine/features/rollout/plan';
import { codeInfo, getLanguageService } from '@appset-tools/engine';
import { parseFile } from '../../../../../server/src/engine/kinds';
import { applyEdits, fixtureFiles, storyContext, storyService } from '../../../rollout-helpers';
import { memHost } from '../../../../helpers/memHost';
import { storyAppSet, TIERS } from '../../../../helpers/story';
import type { EngineDiagnostic } from '@appset-tools/engine';
import { rollingSyncBy } from '../../../../helpers/appsets';

// The story's 45 services, selected by a team label (same length as the fixture's env: prod): nothing looks
// like production unless a test says so (storyContext's Secrets carry team: web).
const story = (mode: 'fast' | 'go') => storyAppSet(mode).replace('env: prod', 'team: web');

function withStrategy(strategy: string, extraTemplateLabels = "        tier: '{{metadata.labels.tier}}'\n"): string {
  return story('fast')
    .replace("        app: '{{service}}'\n", `        app: '{{service}}'\n${extraTemplateLabels}`)
    .replace('  template:\n', strategy + '  template:\n');
}

const ROLLING = rollingSyncBy(
  'tier',
  [{ values: ['canary'] }, { values: ['low-traffic'], maxUpdate: '50%' }, { values: ['high-traffic'], maxUpdate: '25%' }],
  { block: true },
);

/** Codes, without the large-wave policy note (its own test below; the 540-Application story has big waves by design). */
function codes(ds: EngineDiagnostic[]) {
  return ds
    .map((d) => d.code)
    .filter((c) => c !== 'rollout/large-wave')
    .sort();
}

/** The errors of the (edited) text, every check's (the schema's and the semantic checks' among them). */
function validationErrors(text: string): EngineDiagnostic[] {
  const ls = getLanguageService({ host: memHost(new Map()) });
  return ls.diagnostics(ls.analyze('file:///ws/x.yaml', text)).filter((d) => d.severity === 'error');
}

/** What the rollout plan says of progressive syncs in the workspace `files` (through the engine's door). */
function enablementIn(files: Map<string, string>) {
  const { service, analysis } = storyService(withStrategy(ROLLING), files);
  return service.rolloutPlan(analysis)?.enablement.state;
}

test('every emitted rollout code is registered', () => {
  const ctx = storyContext(withStrategy(ROLLING), fixtureFiles('cm-false'));
  for (const d of rolloutDiagnostics(ctx)) assert.ok(codeInfo(d.code), d.code);
});

// The rollout findings' codes, places and words (disabled, not found, enabled, the blast radius, empty and
// overlapping steps, no steps) are rule fixtures with the story's cluster Secrets and install:
// test/fixtures/rules/rollout/*/. What a fixture cannot state stays here: related information, lenses, fixes, plans.

test('disabled: the evidence file is the related information', () => {
  const ctx = storyContext(withStrategy(ROLLING), fixtureFiles('cm-false'));
  const d = rolloutDiagnostics(ctx).find((x) => x.code === 'rollout/progressive-syncs-disabled');
  assert.ok(d);
  assert.equal(d.related?.[0].location.file, '/ws/install/params.yaml');
  assert.ok(d.related?.[0].location.span);
});

test('not found: where detection looked goes to the related information, the message stays short', () => {
  const ctx = storyContext(withStrategy(ROLLING), fixtureFiles('none'));
  const d = rolloutDiagnostics(ctx).find((x) => x.code === 'rollout/progressive-syncs-not-found');
  assert.ok(d);
  assert.ok(d.message.length < 300, d.message);
  assert.ok(
    d.related?.some((r) => /argocd-cmd-params-cm/.test(r.message) && r.location.file === '/ws/appset.yaml'),
    JSON.stringify(d.related),
  );
});

test('enabled: the plan is canary → low-traffic → high-traffic', () => {
  const ctx = storyContext(withStrategy(ROLLING), fixtureFiles('cm-true'));
  const plan = getRolloutPlan(ctx);
  assert.equal(plan.enablement.state, 'enabled');
  assert.deepEqual(
    plan.steps.map((s) => [s.apps.length, s.concurrency, s.waves.length]),
    [
      [45, null, 1],
      [180, 90, 2],
      [315, 78, 5],
    ],
  );
  assert.equal(plan.totalWaves, 8);
  assert.deepEqual(plan.unselected, []);
});

test('AllAtOnce blast radius: the lens over spec:, and nothing below the threshold', () => {
  const text = story('fast');
  const ctx = storyContext(text);
  const lenses = rolloutLenses(ctx);
  assert.equal(lenses.length, 1);
  assert.equal(lenses[0].title, 'All at once: 540 apps on 12 clusters');
  assert.equal(text.slice(lenses[0].span.start, lenses[0].span.end), 'spec');
  assert.deepEqual(lenses[0].command?.args, ['file:///ws/appset.yaml', lenses[0].span.start]);
  // below the threshold: nothing
  assert.deepEqual(rolloutDiagnostics(storyContext(text, new Map(), { blastRadiusThreshold: 1000 })), []);
});

test('code lenses: whether it runs over strategy:, the plan over rollingSync:, one per step', () => {
  const text = withStrategy(ROLLING);
  const ctx = storyContext(text, fixtureFiles('cm-true'));
  const lineOf = (l: { span: { start: number } }) => text.slice(0, l.span.start).split('\n').length - 1;
  const lineText = (l: { span: { start: number } }) => text.split('\n')[lineOf(l)].trim();
  const lenses = rolloutLenses(ctx);
  assert.deepEqual(
    lenses.map((l) => [lineText(l), l.title]),
    [
      ['strategy:', 'Enabled by argocd-cmd-params-cm.yaml:9'],
      ['rollingSync:', '3 steps · 540 apps · 8 waves'],
      ['- matchExpressions:', 'Step 1 · 45 apps · all at once, 1 wave'],
      ['- matchExpressions:', 'Step 2 · 180 apps · 90 at a time, 2 waves'],
      ['- matchExpressions:', 'Step 3 · 315 apps · 78 at a time, 5 waves'],
    ],
  );
  // One lens a line: a second lens on a line is out of sight in a split editor.
  assert.equal(new Set(lenses.map(lineOf)).size, lenses.length);
  // Within 40 characters (split editors cut lenses); the whole description is the tooltip.
  assert.deepEqual(
    lenses.slice(2).map((l) => l.tooltip),
    [
      'Step 1 · tier In (canary) · 45 apps · all at once, 1 wave',
      'Step 2 · tier In (low-traffic) · 180 apps · maxUpdate 50% → 90 at a time, 2 waves',
      'Step 3 · tier In (high-traffic) · 315 apps · maxUpdate 25% → 78 at a time, 5 waves',
    ],
  );
  assert.match(
    lenses[0].tooltip ?? '',
    /^Progressive syncs enabled by argocd-cmd-params-cm\.yaml:9\nprogressive syncs: enabled — installed beside it in the workspace root, decided by argocd-cmd-params-cm\.yaml:9/,
  );
  assert.equal(
    lenses[1].tooltip,
    lenses
      .slice(2)
      .map((l) => l.tooltip)
      .join('\n'),
  );
  const disabled = rolloutLenses(storyContext(text, fixtureFiles('cm-false')));
  assert.deepEqual(
    disabled.slice(0, 2).map((l) => [lineText(l), l.title]),
    [
      ['strategy:', 'Ignored · all 540 apps sync at once'],
      ['rollingSync:', 'If enabled: 3 steps · 540 apps · 8 waves'],
    ],
  );
  // The reason, cut from the lens, is its tooltip.
  assert.match(disabled[0].tooltip ?? '', /^Ignored: progressive syncs are off, so all 540 Applications sync at once\. \S+ turns them off/);
  const none = rolloutLenses(storyContext(text, fixtureFiles('none')))[0].title;
  assert.equal(none, 'Ignored · all 540 apps sync at once');
});

test('hover on a step lists its waves and explains maxUpdate in plain words', () => {
  const text = withStrategy(ROLLING);
  const ctx = storyContext(text, fixtureFiles('cm-true'));
  const h = rolloutHover(ctx, text.indexOf('maxUpdate: 50%') + 3);
  assert.ok(h);
  assert.match(h.markdown, /Step 2 · tier In \(low-traffic\)/);
  assert.match(
    h.markdown,
    /At most 90 \(50% of 180\) of this step's 180 Applications sync at the same time; the next step starts when all 180 are Healthy; percentages round down, minimum 1; 0 = manual\./,
  );
  assert.match(h.markdown, /- wave 1: `prod-02-svc-01`/);
  assert.match(h.markdown, /- wave 2: /);
  const s = rolloutHover(ctx, text.indexOf('strategy:') + 2);
  assert.match(s!.markdown, /RollingSync: 3 steps · 540 apps/);
});

test('empty step because the label lives on clusters only; quick fix copies it into the template', () => {
  const text = withStrategy(ROLLING, '');
  const ctx = storyContext(text, fixtureFiles('cm-true'));
  const empties = rolloutDiagnostics(ctx).filter((d) => d.code === 'rollout/empty-step');
  const fix = rolloutCodeActions(ctx, empties[0].span, [empties[0]]).find((a) => /Copy the cluster label/.test(a.title));
  assert.ok(fix?.edits);
  const edited = applyEdits(text, fix.edits);
  assert.match(edited, /\n {8}app: '\{\{service\}\}'\n {8}tier: '\{\{metadata\.labels\.tier\}\}'\n/);
  const after = storyContext(edited, fixtureFiles('cm-true'));
  assert.deepEqual(codes(rolloutDiagnostics(after)), ['rollout/automated-disabled']);
});

test('a step with an invalid Application blocks the rollout', () => {
  const ctx = storyContext(withStrategy(ROLLING), fixtureFiles('cm-true'));
  ctx.expansion().apps[0].invalid = [{ kind: 'destination-missing', message: 'application destination spec is invalid' }];
  const d = rolloutDiagnostics(ctx).find((x) => x.code === 'rollout/blocked-step');
  assert.match(d!.message, /Step 1 contains 1 Application the controller refuses to create \(prod-01-svc-01\)/);
});

test('value order of the proposed steps', () => {
  assert.deepEqual(orderValues(['prod', 'staging', 'dev', 'qa', 'canary']), ['canary', 'dev', 'qa', 'staging', 'prod']);
  assert.deepEqual(orderValues(['high-traffic', 'low-traffic', 'canary']), ['canary', 'low-traffic', 'high-traffic']);
  assert.deepEqual(orderValues(['b', 'c', 'a']), ['a', 'b', 'c']);
});

for (const mode of ['fast', 'go'] as const) {
  test(`quick fix inserts a RollingSync strategy that propagates the cluster label (${mode === 'fast' ? 'fasttemplate' : 'goTemplate'})`, () => {
    const text = story(mode);
    const ctx = storyContext(text, fixtureFiles('cm-true'));
    const blast = rolloutDiagnostics(ctx).find((d) => d.code === 'rollout/blast-radius');
    assert.ok(blast);
    const action = rolloutCodeActions(ctx, blast.span, [blast]).find((a) =>
      a.title.startsWith('Roll out by tier: canary 1 → low-traffic 10 → high-traffic 10 (copies'),
    );
    assert.ok(action?.edits, 'strategy action');
    assert.equal(action.isPreferred, true);
    const edited = applyEdits(text, action.edits);
    // only insertions: the original text is preserved around them
    assert.equal(edited.length > text.length, true);
    assert.deepEqual(parseFile(edited).diagnostics, []);
    assert.deepEqual(validationErrors(edited), []);
    if (mode === 'go') assert.match(edited, /\n {6}labels:\n {8}tier: '\{\{ index \.metadata\.labels "tier" \}\}'\n/);
    else assert.match(edited, /\n {8}tier: '\{\{metadata\.labels\.tier\}\}'\n/);
    const after = storyContext(edited, fixtureFiles('cm-true'));
    const plan = getRolloutPlan(after);
    assert.equal(plan.strategy, 'RollingSync');
    assert.deepEqual(plan.unselected, []);
    assert.deepEqual(plan.duplicates, {});
    assert.deepEqual(
      plan.steps.map((s) => [s.selector, s.apps.length]),
      [
        ['tier In (canary)', 45],
        ['tier In (low-traffic)', 45 * TIERS.filter((t) => t === 'low-traffic').length],
        ['tier In (high-traffic)', 45 * TIERS.filter((t) => t === 'high-traffic').length],
      ],
    );
    assert.equal(
      plan.steps.reduce((n, s) => n + s.apps.length, 0),
      540,
    );
    const left = codes(rolloutDiagnostics(after)).filter((c) => c !== 'rollout/automated-disabled');
    assert.deepEqual(left, []);
  });
}

test('enable quick fix edits the ConfigMap that disables it, and detection then says enabled', () => {
  const files = fixtureFiles('cm-false');
  const ctx = storyContext(withStrategy(ROLLING), files);
  const d = rolloutDiagnostics(ctx).find((x) => x.code === 'rollout/progressive-syncs-disabled')!;
  const actions = rolloutCodeActions(ctx, d.span, [d]);
  const fix = actions.find((a) =>
    a.title.startsWith('Enable progressive syncs: in install/params.yaml (then restart the ApplicationSet controller)'),
  );
  assert.ok(fix?.edits, actions.map((a) => a.title).join('\n'));
  assert.equal(fix.edits[0].file, '/ws/install/params.yaml');
  const edited = applyEdits(files.get('/ws/install/params.yaml')!, fix.edits);
  assert.match(edited, /applicationsetcontroller\.enable\.progressive\.syncs: "true"\n/);
  files.set('/ws/install/params.yaml', edited);
  assert.equal(enablementIn(files), 'enabled');
  assert.ok(actions.some((a) => a.command?.id === 'appsetTools.setProgressiveSyncs' && (a.command.args as string[])[0] === 'enabled'));
});

for (const [name, fixture, file, expect] of [
  [
    'ArgoCD CR (cmdParams ignored)',
    'operator-cmdparams',
    '/ws/argocd.yaml',
    /applicationSet:\n {4}resources:\n {6}limits:\n {8}cpu: "2"\n {4}extraCommandArgs:\n {6}- --enable-progressive-syncs\n/,
  ],
  [
    'ConfigMap without the key',
    'none-cm',
    '/ws/params.yaml',
    /data:\n {2}server\.insecure: "true"\n {2}applicationsetcontroller\.enable\.progressive\.syncs: "true"\n/,
  ],
  [
    'Helm values without params',
    'none-helm',
    '/ws/values.yaml',
    /configs:\n {2}cm:\n {4}url: x\n {2}params:\n {4}applicationsetcontroller\.enable\.progressive\.syncs: "true"\n/,
  ],
  ['old flag (renamed in place)', 'old-names', '/ws/config.yaml', /args:\n {12}- --enable-progressive-syncs\n$/],
] as const) {
  test(`enable quick fix when not found: inserts into the ${name}`, () => {
    const files =
      fixture === 'none-cm'
        ? new Map([
            [
              '/ws/params.yaml',
              'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\ndata:\n  server.insecure: "true"\n',
            ],
          ])
        : fixture === 'none-helm'
          ? new Map([['/ws/values.yaml', 'applicationSet:\n  extraArgs: []\nconfigs:\n  cm:\n    url: x\n']])
          : fixtureFiles(fixture);
    const ctx = storyContext(withStrategy(ROLLING), files);
    const d = rolloutDiagnostics(ctx).find((x) => x.code === 'rollout/progressive-syncs-not-found')!;
    assert.ok(d);
    const fix = rolloutCodeActions(ctx, d.span, [d]).find((a) => a.title.startsWith('Enable progressive syncs: in '));
    assert.ok(fix?.edits);
    const edited = applyEdits(files.get(file)!, fix.edits);
    assert.match(edited, expect);
    files.set(file, edited);
    assert.equal(enablementIn(files), 'enabled');
  });
}

test('operator, maxUpdate and automated quick fixes', () => {
  const strategy = `${rollingSyncBy('tier', [{ operator: 'in', values: ['canary'], maxUpdate: '"3"' }], { block: true })}        - matchExpressions: []
`;
  const text = withStrategy(strategy);
  const ctx = storyContext(text, fixtureFiles('cm-true'));
  const opSpan = { start: text.indexOf('operator: in') + 10, end: text.indexOf('operator: in') + 12 };
  const opDiag: EngineDiagnostic = {
    code: 'appset/step-operator',
    severity: 'warning',
    message: '',
    span: opSpan,
    data: { replacement: 'In' },
  };
  const ops = rolloutCodeActions(ctx, opSpan, [opDiag]);
  assert.deepEqual(
    ops.map((a) => [a.title, a.isPreferred]),
    [
      ['Use operator In', true],
      ['Use operator NotIn', false],
    ],
  );
  assert.match(applyEdits(text, ops[0].edits!), /operator: In\n/);

  const muStart = text.indexOf('"3"');
  const muDiag: EngineDiagnostic = {
    code: 'appset/max-update',
    severity: 'warning',
    message: '',
    span: { start: muStart, end: muStart + 3 },
    data: { replacement: '3' },
  };
  const mus = rolloutCodeActions(ctx, muDiag.span, [muDiag]);
  assert.match(applyEdits(text, mus[0].edits!), /maxUpdate: 3\n/);
  assert.match(applyEdits(text, mus[1].edits!), /maxUpdate: "3%"\n/);

  const auto = rolloutDiagnostics(ctx).find((d) => d.code === 'rollout/automated-disabled')!;
  assert.equal(text.slice(auto.span.start, auto.span.end), 'automated');
  const rm = rolloutCodeActions(ctx, auto.span, [auto])[0];
  const edited = applyEdits(text, rm.edits!);
  assert.ok(edited.endsWith('      syncPolicy:\n'), JSON.stringify(edited.slice(-80)));
  assert.deepEqual(validationErrors(edited), []);
});

test('broken and hostile documents never throw', () => {
  const texts = [
    'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nspec:\n  strategy: 5\n',
    'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nspec:\n  strategy: {type: RollingSync, rollingSync: {steps: [null, 5, {matchExpressions: [null, {key: 5, operator: [], values: 7}], maxUpdate: {a: 1}}]}}\n',
    'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nspec:\n  strategy: {type: RollingSync, rollingSync: {steps: [{matchExpressions: [{key: __proto__, operator: In, values: [x]}]}]}}\n  template: {metadata: {labels: {__proto__: x}}}\n',
  ];
  for (const t of texts) {
    // One parameter set, so the rollout code has an Application to read.
    const ctx = storyContext(t.replace('spec:\n', 'spec:\n  generators: [{list: {elements: [{name: a, server: s}]}}]\n'));
    rolloutDiagnostics(ctx);
    rolloutLenses(ctx);
    for (let i = 0; i < t.length; i += 7) rolloutHover(ctx, i);
    rolloutCodeActions(ctx, { start: 0, end: t.length }, []);
  }
});

test('policy note: a wave larger than appsetTools.maxWaveSize, on the maxUpdate that allows it', () => {
  const text = withStrategy(ROLLING);
  const ctx = storyContext(text, fixtureFiles('cm-true'), { maxWaveSize: 80 });
  const notes = rolloutDiagnostics(ctx).filter((d) => d.code === 'rollout/large-wave');
  // canary 45 at once ≤ 80; low-traffic 90 (50% of 180) > 80; high-traffic 78 (25% of 315) ≤ 80.
  assert.deepEqual(
    notes.map((d) => d.message),
    [
      'Step 2 syncs 90 Applications at once (more than maxWaveSize, 80): a bad change reaches all 90 before any of them can fail. maxUpdate: 80 keeps each wave at 80.',
    ],
  );
  assert.equal(text.slice(notes[0].span.start, notes[0].span.end), '50%');
  assert.equal(notes[0].severity, 'information');
});

test('syncWaves: the largest number of Applications one commit syncs, as the controller runs it', () => {
  const text = withStrategy(ROLLING);
  const enabled = syncWaves(storyContext(text, fixtureFiles('cm-true')));
  assert.equal(enabled.mode, 'rolling');
  assert.equal(enabled.waves.length, 8);
  assert.deepEqual([enabled.largest?.step, enabled.largest?.wave, enabled.largest?.apps.length], [2, 1, 90]);
  // Progressive syncs off: the strategy is ignored, so everything is one wave.
  const off = syncWaves(storyContext(text, fixtureFiles('cm-false')));
  assert.equal(off.mode, 'all-at-once');
  assert.equal(off.largest?.apps.length, 540);
  assert.equal(off.plan.steps.length, 3, 'the plan as written is still there');
});

test('hover on strategy: the plan and the enablement facts, never the warning VS Code shows beside it', () => {
  const text = withStrategy(ROLLING);
  const ctx = storyContext(text, fixtureFiles('none'));
  const off = rolloutHover(ctx, text.indexOf('strategy:') + 2)!.markdown;
  // The plan first, said as what would happen.
  assert.match(off, /^\*\*RollingSync, if enabled: 3 steps · 540 apps · 8 waves\*\*\n\n- Step 1 · tier In \(canary\)/);
  assert.match(off, /\n\nProgressive syncs: not enabled \(nothing found; the controller's default is off\) — /);
  assert.match(off, /Searched: ConfigMap argocd-cmd-params-cm/);
  // The warning on the same key is shown by the editor in the same hover: none of its sentences is repeated.
  const warning = rolloutDiagnostics(ctx).find((d) => d.code === 'rollout/progressive-syncs-not-found')!;
  for (const sentence of warning.message.split(/(?<=\.) |; /).filter((x) => x.length > 20))
    assert.ok(!off.includes(sentence.replace(/\.$/, '')), `the hover repeats the warning: "${sentence}"\n${off}`);
  const on = rolloutHover(storyContext(text, fixtureFiles('cm-true')), text.indexOf('strategy:') + 2)!.markdown;
  assert.match(on, /^\*\*RollingSync: 3 steps · 540 apps · 8 waves\*\*/);
  // The root install is not called ".": the reason names the place; the deciding file is a link to its line.
  assert.match(
    on,
    /\n\nProgressive syncs: enabled — installed beside it in the workspace root, decided by \[argocd-cmd-params-cm\.yaml:9\]\(file:\/\/\/ws\/argocd-cmd-params-cm\.yaml#L9\)\./,
  );
});
