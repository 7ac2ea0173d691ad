/**
 * The end-to-end story of issue 5 through the real language service (generators, templates,
 * validation, rollout): a 12-cluster × 45-service matrix with tier labels on the cluster Secrets,
 * AllAtOnce → quick fix inserts a RollingSync strategy that copies the tier label into the template →
 * the "progressive syncs disabled" warning → quick fix enables them in argocd-cmd-params-cm →
 * canary → low-traffic → high-traffic plan.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { applyEdits } from './rollout-helpers';
import { memHost } from '../helpers/memHost';
import { cmdParamsCm } from '../helpers/clusters';
import { storyAppSet, storySecrets } from '../helpers/story';

function workspace(mode: 'fast' | 'go') {
  const files = new Map<string, string>();
  files.set('/ws/clusters/secrets.yaml', storySecrets());
  files.set('/ws/argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('false'));
  files.set('/ws/apps/services.yaml', storyAppSet(mode));
  return files;
}

for (const mode of ['fast', 'go'] as const) {
  test(`story (${mode === 'fast' ? 'fasttemplate' : 'goTemplate'}): 540 Applications at once → RollingSync by tier → enabled`, () => {
    const files = workspace(mode);
    const host = memHost(files);
    const ls = getLanguageService({ host });
    const uri = 'file:///ws/apps/services.yaml';
    const p = '/ws/apps/services.yaml';
    let text = files.get(p)!;

    // 1. AllAtOnce: the blast radius.
    let a = ls.analyze(uri, text, p);
    const exp = ls.applications(a)!;
    assert.equal(exp.apps.length, 540, `the generators should produce 12 × 45 Applications (notes: ${exp.notes.join('; ')})`);
    let ds = ls.diagnostics(a);
    assert.deepEqual(
      ds.filter((d) => d.severity === 'error'),
      [],
    );
    const blast = ds.find((d) => d.code === 'rollout/blast-radius');
    assert.ok(blast, ds.map((d) => d.code).join(', '));
    assert.match(blast.message, /540 Applications on 12 production clusters/);
    assert.equal(blast.severity, 'warning');
    assert.ok(ls.codeLenses(a).some((l) => l.title === 'All at once: 540 apps on 12 clusters'));

    // 2. The quick fix inserts a RollingSync strategy by the clusters' tier label. Each title says its
    // waves and total time; at 540 the careful pace is 95 waves (45 canary Applications one at a time),
    // so a steady pace of maxWaveSize a wave is offered too.
    const titles = ls.codeActions(a, blast.span, [blast]).map((x) => x.title);
    assert.ok(
      titles.includes(
        'Roll out by tier: canary 1 → low-traffic 10 → high-traffic 10 (copies the cluster label into template.metadata.labels) — 95 waves, about 4 h 45 min at 3 min a sync',
      ),
      titles.join('\n'),
    );
    assert.ok(
      titles.includes(
        'Roll out by tier, 10 at a time: canary 10 → low-traffic 10 → high-traffic 10 (copies the cluster label into template.metadata.labels) — 55 waves, about 2 h 45 min at 3 min a sync',
      ),
      titles.join('\n'),
    );
    const fix = ls
      .codeActions(a, blast.span, [blast])
      .find((x) => x.title.startsWith('Roll out by tier: canary 1 → low-traffic 10 → high-traffic 10'));
    assert.ok(fix?.edits);
    text = applyEdits(text, fix.edits);
    files.set(p, text);
    ls.workspace.invalidate(p);
    a = ls.analyze(uri, text, p);
    ds = ls.diagnostics(a);
    assert.deepEqual(
      ds.filter((d) => d.severity === 'error'),
      [],
      'the inserted strategy validates cleanly',
    );

    // 3. The controller has progressive syncs disabled: warning on strategy:.
    const warn = ds.find((d) => d.code === 'rollout/progressive-syncs-disabled');
    assert.ok(warn, ds.map((d) => d.code).join(', '));
    assert.equal(text.slice(warn.span.start, warn.span.end), 'strategy');
    assert.match(warn.message, /all 540 Applications sync at once/);
    assert.equal(warn.related?.[0].location.file, '/ws/argocd/argocd-cmd-params-cm.yaml');

    const plan = ls.rolloutPlan(a, undefined, { view: false })!;
    assert.deepEqual(
      plan.steps.map((s) => [s.selector, s.apps.length, s.maxUpdate, s.waves.length]),
      [
        ['tier In (canary)', 45, 1, 45],
        ['tier In (low-traffic)', 180, 10, 18],
        ['tier In (high-traffic)', 315, 10, 32],
      ],
    );
    assert.deepEqual(plan.unselected, []);
    assert.equal(plan.steps[0].waves[0].apps[0], 'prod-01-svc-01');

    // 4. Enable progressive syncs where the workspace configures Argo CD.
    const enable = ls.codeActions(a, warn.span, [warn]).find((x) => x.title.startsWith('Enable progressive syncs: in '));
    assert.ok(enable?.edits);
    for (const e of enable.edits) files.set(e.file, applyEdits(files.get(e.file)!, [e]));
    ls.workspace.invalidate();
    a = ls.analyze(uri, text, p);
    ds = ls.diagnostics(a);
    assert.deepEqual(
      ds.filter((d) => d.code.startsWith('rollout/progressive-syncs')),
      [],
    );
    const lenses = ls.codeLenses(a).map((l) => l.title);
    assert.ok(lenses.includes('3 steps · 540 apps · 95 waves'), lenses.join('\n'));
    assert.ok(lenses.includes('Step 2 · 180 apps · 10 at a time, 18 waves'), lenses.join('\n'));
  });
}
