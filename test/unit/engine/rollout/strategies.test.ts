/** The RollingSync strategies a quick fix proposes (rollout/strategies.ts), over the story's 540 Applications. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proposeStrategies } from '../../../../server/src/engine/rollout/strategies';
import { storyContext } from '../../rollout-helpers';
import { storyAppSet } from '../../../helpers/story';

// The story's 45 services on 12 clusters, selected by a team label: nothing looks like production.
const story = () => storyAppSet('fast').replace('env: prod', 'team: web');

test('label choice: the cluster label with tiers, batches that grow with confidence', () => {
  const ctx = storyContext(story());
  const [careful, faster] = proposeStrategies(ctx.expansion().apps, 10);
  assert.equal(careful.key, 'tier');
  assert.equal(careful.from, 'cluster');
  // Batches grow with confidence, and the careful pace never syncs more than maxWaveSize (10) at once.
  assert.equal(careful.summary, 'canary 1 → low-traffic 10 → high-traffic 10');
  assert.equal(careful.largestWave, 10);
  assert.equal(faster.summary, 'canary 1 → low-traffic 25% → high-traffic 50%');
  assert.equal(faster.largestWave, 157);
  // What a quick fix's title says: each step's count at once, not its percentage (issue 41).
  assert.equal(careful.atOnce, 'canary 1 → low-traffic 10 → high-traffic 10');
  assert.equal(faster.atOnce, 'canary 1 → low-traffic 45 → high-traffic 157');
});
