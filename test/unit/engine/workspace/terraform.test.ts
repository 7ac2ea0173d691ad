/**
 * The index lists Terraform files apart from the YAML files (engine/workspace/index.ts `terraformFiles`):
 * an argo-cd helm_release is an Argo CD install (install/terraform.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkspaceIndex } from '../../../../server/src/engine/workspace/index';
import { memHost } from '../../../helpers/memHost';

test('the index lists Terraform files apart from YAML; in deferred mode an answer from the files listed so far is settled', () => {
  const tf = 'resource "helm_release" "argo" {\n  chart = "argo-cd"\n  version = "8.1.2"\n}\n';
  const files = new Map<string, string>([['/ws/a/appset.yaml', 'kind: ApplicationSet\n']]);
  for (let i = 0; i < 30; i++) files.set(`/ws/b${String(i).padStart(2, '0')}/x.yaml`, 'a: 1\n');
  files.set('/ws/z/argocd.tf', tf);
  const index = new WorkspaceIndex(memHost(files), { defer: true });
  index.scan(5);
  assert.deepEqual(
    index.terraformFiles().map((f) => f.path),
    [],
    'not listed yet',
  );
  while (!index.warm(50));
  assert.equal(index.settle(), true, 'the Terraform answer given before the listing changed');
  assert.equal(index.paths().includes('/ws/z/argocd.tf'), false, 'paths() stays the YAML files');
  assert.deepEqual(
    index.terraformFiles().map((f) => f.path),
    ['/ws/z/argocd.tf'],
  );
  assert.equal(new WorkspaceIndex(memHost(files)).terraformFiles()[0]?.text, tf);
});
