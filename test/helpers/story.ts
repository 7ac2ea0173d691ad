/**
 * Issue 5's story as test data: a team's matrix ApplicationSet (cluster generator × list of services)
 * over 12 production clusters whose Secrets carry a tier label (1 canary, 4 low-traffic, 7
 * high-traffic) and 45 services, i.e. 540 Applications. The ApplicationSet itself is
 * test/fixtures/rollout/story/appset-{fast,go}.yaml (one service; `storyAppSet` lists them all).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clusterSecrets } from './clusters';
import { rollingSyncBy, TIER_LABEL, type RollingSyncStyle, type Step } from './appsets';

export const STORY_FIXTURES = resolve(__dirname, '..', 'fixtures', 'rollout', 'story');

/** The clusters' tiers, in cluster order. */
export const TIERS = [
  'canary',
  'low-traffic',
  'low-traffic',
  'low-traffic',
  'low-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
];

export interface StoryCluster {
  name: string;
  server: string;
  tier: string;
}

/** prod-01 … prod-12 with their servers and tiers. */
export const CLUSTERS: readonly StoryCluster[] = TIERS.map((tier, i) => ({
  name: `prod-${String(i + 1).padStart(2, '0')}`,
  server: `https://10.0.0.${i + 1}:6443`,
  tier,
}));

/** svc-01 … svc-45. */
export const SERVICES = Array.from({ length: 45 }, (_, i) => `svc-${String(i + 1).padStart(2, '0')}`);

/** The story's cluster Secrets (labels env: prod and the tier), one multi-document file. */
export function storySecrets(clusters: readonly StoryCluster[] = CLUSTERS): string {
  return clusterSecrets(clusters.map((c) => ({ name: c.name, server: c.server, labels: { env: 'prod', tier: c.tier }, opaque: true })));
}

/** The story's ApplicationSet in fasttemplate or goTemplate mode, listing `services`. */
export function storyAppSet(mode: 'fast' | 'go', services: readonly string[] = SERVICES): string {
  return readFileSync(join(STORY_FIXTURES, `appset-${mode}.yaml`), 'utf8').replace(/( *)- service: svc-01\n/, (_, ind: string) =>
    services.map((s) => `${ind}- service: ${s}\n`).join(''),
  );
}

/**
 * The story's goTemplate ApplicationSet rolled out by tier: every Application labelled with its
 * cluster's tier (`TIER_LABEL`) and a RollingSync strategy whose steps select tiers (`rollingSyncBy`).
 */
export function storyRollout(steps: readonly Step[], style: RollingSyncStyle = {}, services: readonly string[] = SERVICES): string {
  const name = "      name: '{{.name}}-{{.service}}'\n";
  return storyAppSet('go', services)
    .replace(name, () => name + TIER_LABEL)
    .replace('  template:\n', () => rollingSyncBy('tier', steps, style) + '  template:\n');
}
