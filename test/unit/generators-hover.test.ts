/**
 * Hovers on parts of a generator say what that part produces: a list element its Applications, a
 * cluster selector the clusters it matches, a git pattern the paths found in the working tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { getLanguageService } from '@appset-tools/engine';
import { createNodeHost } from '../../server/src/host/nodeHost';
import { appset, secret, secrets, workspaceFor } from './generators-helpers';

function hoverAt(dir: string, text: string, needle: string, settings = {}): string {
  const service = getLanguageService({ host: createNodeHost([dir], settings) });
  const file = join(dir, 'appset.yaml');
  const a = service.analyze(file, text, file);
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  return service.hover(a, at + 1)?.markdown ?? '';
}

test('hover on a list element shows only the Applications rendered from it (also through a matrix)', (t) => {
  const ws = workspaceFor(t);
  const text = appset(
    `    - matrix:\n        generators:\n          - list:\n              elements:\n                - env: dev\n                - env: prod\n          - list:\n              elements: [{svc: a}, {svc: b}]`,
    { name: '{{svc}}-{{env}}' },
  );
  const md = hoverAt(ws.dir, text, 'env: prod');
  assert.match(md, /This element produces 2 Applications/);
  assert.match(md, /`a-prod`/);
  assert.match(md, /`b-prod`/);
  assert.doesNotMatch(md, /dev/);
});

test('hover on a cluster selector shows matched and unmatched clusters with the labels it reads', (t) => {
  const ws = workspaceFor(t, {
    'c.yaml': secrets(
      secret('east', 'https://east', { env: 'prod' }),
      secret('west', 'https://west', { env: 'prod' }),
      secret('lab', 'https://lab', { env: 'dev' }),
    ),
  });
  const text = appset(`    - clusters:\n        selector:\n          matchLabels:\n            env: prod`);
  const md = hoverAt(ws.dir, text, 'matchLabels');
  assert.match(md, /Cluster selector: matches 2 of 3 known clusters/);
  assert.match(md, /not a post-selector/);
  assert.match(md, /\| ✓ \| east \| prod \|\n\| ✓ \| west \| prod \|\n\| ✗ \| lab \| dev \|/);
  // The clusters, not the Applications of the generator.
  assert.doesNotMatch(md, /\| Application \|/);
});

test('hover on git directories lists what the working tree holds', (t) => {
  const ws = workspaceFor(t, { 'repo/apps/a/f.yaml': 'x', 'repo/apps/b/f.yaml': 'x' });
  const text = appset(
    '    - git:\n        repoURL: https://example.com/r.git\n        revision: HEAD\n        directories:\n          - path: apps/*',
    {
      name: '{{path.basename}}',
    },
  );
  const md = hoverAt(ws.dir, text, 'path: apps/*', { repoMappings: { 'https://example.com/r.git': 'repo' } });
  assert.match(md, /The git generator found 2 directories/);
  assert.match(md, /`apps\/a`, `apps\/b`/);
});
