// Issue 10: "why is this empty?" — a generator that yields 0 Applications says why, at the place to
// change, with the nearest miss (cluster labels, directory), or how to add the missing offline data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, secret, secrets, workspace, workspaceFor } from './generators-helpers';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../helpers/memHost';
import { applyEdits } from './rollout-helpers';

const empty = (ds: { code: string; message: string; severity: string; start: number; end: number }[]) =>
  ds.filter((d) => d.code === 'generator/empty');

// The findings of a selector that matches none of the known clusters (0 of N, the nearest cluster),
// of no cluster data at all, and of an empty matrix child are rule fixtures with their cluster Secrets:
// test/fixtures/rules/generator/empty-selector-clusters/, empty-no-cluster-data/, empty-matrix-child/.

test('a selector that matches none of the known clusters: the preview notes it too', (t) => {
  const ws = workspaceFor(t, {
    'clusters.yaml': secrets(
      secret('prod-1', 'https://p1', { env: 'prod', tier: 'canary' }),
      secret('stage-1', 'https://s1', { env: 'staging' }),
    ),
  });
  const text = appset('  - clusters:\n      selector:\n        matchLabels:\n          env: prod\n          tier: gold', {
    goTemplate: true,
  });
  assert.ok(ws.expand(text).notes.some((n) => n.includes('0 of the 2 known clusters')));
});

test('a git directory pattern that matches nothing names the nearest directory', (t) => {
  const ws = workspaceFor(t, { 'apps/guestbook/k.yaml': 'a: 1\n', 'apps/web/k.yaml': 'a: 1\n' });
  const gen = `  - git:\n      repoURL: https://example.com/repo.git\n      revision: HEAD\n      directories:\n      - path: app/*`;
  const mapped = workspace(
    { 'apps/guestbook/k.yaml': 'a: 1\n', 'apps/webapp/k.yaml': 'a: 1\n' },
    { repoMappings: { 'https://example.com/repo.git': '.' } },
  );
  try {
    const text = appset(gen, { goTemplate: true, name: '{{ .path.basename }}' });
    const ds = empty(mapped.diagnostics(text));
    assert.equal(ds.length, 1, JSON.stringify(mapped.diagnostics(text)));
    assert.equal(text.slice(ds[0].start, ds[0].end), 'directories');
    assert.match(
      ds[0].message,
      /^generator 1 \(git\) produces 0 Applications: the directory pattern "app\/\*" matches none of the 3 directories of .*; nearest: apps$/,
    );
  } finally {
    mapped.close();
  }
  // Without a checkout the existing generator/no-git-checkout finding says why; no second finding.
  const unmapped = ws.diagnostics(appset(gen, { goTemplate: true }));
  assert.deepEqual(empty(unmapped), []);
  assert.ok(unmapped.some((d) => d.code === 'generator/no-git-checkout'));
});

// A post-selector that keeps nothing, an empty list, and the misspelt value's range and message:
// test/fixtures/rules/generator/empty.yaml.

test('a post-selector with a misspelt value: the consequence, the values the parameter sets have, and two fixes (issue 29)', () => {
  const text = appset(
    '  - matrix:\n      generators:\n      - list:\n          elements: [{cluster: a}, {cluster: b}]\n      - list:\n          elements:\n          - service: cart\n          - service: checkout\n          - service: catalog\n        selector:\n          matchLabels:\n            service: carts',
    { goTemplate: true, name: '{{ .service }}-{{ .cluster }}' },
  );
  const ls = getLanguageService({ host: memHost(new Map([['/ws/a.yaml', text]])) });
  const a = ls.analyze('file:///ws/a.yaml', text, '/ws/a.yaml');
  const d = ls.diagnostics(a).find((x) => x.code === 'generator/empty');
  assert.ok(d);
  assert.ok(ls.codeLenses(a).some((l) => l.title.startsWith('0 Applications · its selector keeps none')));
  const fixes = ls.codeActions(a, d.span, [d]);
  assert.deepEqual(
    fixes.map((f) => [f.title, f.isPreferred]),
    [
      ['Use service: cart (keeps 1 of the 3 parameter sets)', true],
      ['Remove the selector (keeps all 3 parameter sets)', false],
    ],
  );
  // Each fix does what it says: the matrix then yields 2 (one service × 2 clusters) and 6 Applications.
  for (const [fix, apps] of [
    [fixes[0], 2],
    [fixes[1], 6],
  ] as const) {
    const fixed = applyEdits(text, fix.edits!);
    const b = ls.analyze('file:///ws/a.yaml', fixed, '/ws/a.yaml');
    assert.equal(ls.applications(b)!.apps.length, apps, fixed);
    assert.deepEqual(
      ls.diagnostics(b).filter((x) => x.severity === 'error' || x.code === 'generator/empty'),
      [],
    );
  }
});
