/** Which folder an install's configuration governs (install/instances.ts `installOf`). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installOf } from '../../../../server/src/engine/install/instances';

test('install scopes: an install folder governs its parent, a plain folder itself, overlays are installs of their own', () => {
  assert.deepEqual(installOf('/ws/argocd/argocd-cmd-params-cm.yaml'), { key: '/ws/argocd', scope: '/ws', base: undefined });
  assert.deepEqual(installOf('/ws/examples/team-rollout/cm.yaml'), {
    key: '/ws/examples/team-rollout',
    scope: '/ws/examples/team-rollout',
    base: undefined,
  });
  assert.deepEqual(installOf('/ws/argocd/base/cm.yaml'), { key: '/ws/argocd', scope: '/ws', base: undefined });
  assert.deepEqual(installOf('/ws/argocd/overlays/prod/patch.yaml'), { key: '/ws/argocd/overlays/prod', scope: '/ws', base: '/ws/argocd' });
  assert.deepEqual(installOf('/ws/clusters/prod/argocd/cm.yaml'), {
    key: '/ws/clusters/prod/argocd',
    scope: '/ws/clusters/prod',
    base: undefined,
  });
});
