/**
 * "One cluster at a time" at 540 Applications (issue 29): beside the tier strategies, a RollingSync with a
 * step per destination cluster. Steps select Application labels, and the story's Applications carry no
 * label naming their cluster, so the fix writes one (`cluster: <the cluster generator's name>`) into the
 * template; the inserted strategy must then select every Application, canary cluster first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { clusterAtATime } from '../../../../server/src/engine/rollout/clusterStrategy';
import { applyEdits } from '../../rollout-helpers';
import { memHost } from '../../../helpers/memHost';
import { cmdParamsCm } from '../../../helpers/clusters';
import { storyAppSet, storySecrets } from '../../../helpers/story';

const P = '/ws/apps/services.yaml';
const URI = 'file:///ws/apps/services.yaml';

for (const mode of ['fast', 'go'] as const) {
  test(`one cluster at a time (${mode}): 12 steps of 45, a label the template writes, canary cluster first`, () => {
    const files = new Map<string, string>([
      ['/ws/clusters/secrets.yaml', storySecrets()],
      ['/ws/argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('true')],
      [P, storyAppSet(mode)],
    ]);
    const ls = getLanguageService({ host: memHost(files) });
    let text = files.get(P)!;
    let a = ls.analyze(URI, text, P);
    const blast = ls.diagnostics(a).find((d) => d.code === 'rollout/blast-radius');
    assert.ok(blast);
    const expr = mode === 'go' ? '{{ .name }}' : '{{name}}';
    const title = `Roll out by cluster, one cluster at a time: 12 steps, prod-01 → prod-02 → … → prod-12, up to 10 at a time (adds the label cluster: '${expr}' to template.metadata.labels) — 60 waves, about 3 h at 3 min a sync`;
    const actions = ls.codeActions(a, blast.span, [blast]);
    const fix = actions.find((x) => x.title === title);
    assert.ok(fix?.edits, actions.map((x) => x.title).join('\n'));
    text = applyEdits(text, fix.edits);
    assert.match(text, new RegExp(`\\n *labels:\\n(?: +.*\\n)*? +cluster: '${expr.replace(/[{}.]/g, '\\$&')}'\\n`));
    files.set(P, text);
    a = ls.analyze(URI, text, P);
    const ds = ls.diagnostics(a);
    assert.deepEqual(
      ds.filter((d) => d.severity === 'error' || (d.code.startsWith('rollout/') && d.severity !== 'information')),
      [],
      'the inserted strategy validates and its steps select every Application',
    );
    const plan = ls.rolloutPlan(a, undefined, { view: false })!;
    assert.equal(plan.steps.length, 12);
    assert.deepEqual(plan.unselected, []);
    assert.deepEqual(
      plan.steps.map((s) => [s.apps.length, s.waves.length]),
      Array.from({ length: 12 }, () => [45, 5]),
    );
    // The canary cluster (prod-01, tier canary) goes first; the rest follow by tier, then name.
    assert.equal(plan.steps[0].selector, 'cluster In (prod-01)');
    assert.ok(plan.steps[0].apps.every((n) => n.startsWith('prod-01-')));
    assert.equal(plan.steps[1].selector, 'cluster In (prod-02)');
  });
}

test('one cluster at a time uses an Application label that already names the cluster, and needs two clusters', () => {
  const app = (name: string, cluster: string, labels: Record<string, string>) => ({
    app: { spec: { destination: { name: cluster, namespace: 'x' } } },
    name,
    labels,
    generatorIndex: 0,
    params: { name: cluster, other: 'same' },
  });
  const apps = [
    app('a-1', 'one', { region: 'eu', dc: 'one' }),
    app('b-1', 'one', { region: 'eu', dc: 'one' }),
    app('a-2', 'two', { region: 'eu', dc: 'two' }),
  ];
  const p = clusterAtATime(apps, 10);
  assert.equal(p?.key, 'dc');
  assert.equal(p?.from, 'app');
  assert.deepEqual(
    p?.steps.map((s) => [s.values, s.apps, s.maxUpdate]),
    [
      [['one'], 2, 2],
      [['two'], 1, 1],
    ],
  );
  assert.equal(p?.waves, 2);
  assert.equal(clusterAtATime(apps.slice(0, 2), 10), undefined, 'one cluster: nothing to stage');
  // A parameter that is not one to one with the destination is never used.
  const noName = apps.map((x) => ({ ...x, labels: {}, params: { other: 'same' } }));
  assert.equal(clusterAtATime(noName, 10), undefined);
});
