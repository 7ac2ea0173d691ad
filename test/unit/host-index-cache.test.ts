// The workspace index's memory between runs (host/indexCache.ts): what `passing` answers from the list the
// file keeps of its entries that pass some interest, and from a file written before that list existed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openIndexCache } from '../../server/src/host/indexCache';
import { tempFolder } from '../helpers/cli';

const ROOTS = ['/ws'];

/** A cache written by one run: `files` path → mask, each with its own key. */
function written(dir: string, files: [string, number][]): string {
  const cache = openIndexCache(ROOTS, dir)!;
  for (const [p, mask] of files) cache.set(p, `d:1:${p.length}`, mask);
  cache.save();
  const [name] = fs.readdirSync(dir).filter((n) => /^index-[0-9a-f]{8}\.json$/.test(n));
  return path.join(dir, name);
}

const FILES: [string, number][] = [
  ['/ws/a.yaml', 0],
  ['/ws/argocd/kustomization.yaml', 6],
  ['/ws/b.yaml', 0],
  ['/ws/appsets/x.yaml', 32],
  ['/ws/clusters/c.yaml', 1],
  ['/ws/argocd/params.yaml', 2],
];

test('passing answers from the list of entries that pass some interest, as the walk over every entry did', () => {
  const dir = tempFolder('index-cache-');
  const file = written(dir, FILES);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { passing?: string[]; entries: Record<string, unknown> };
  assert.deepEqual(stored.passing, [
    '/ws/argocd/kustomization.yaml',
    '/ws/appsets/x.yaml',
    '/ws/clusters/c.yaml',
    '/ws/argocd/params.yaml',
  ]);
  const next = openIndexCache(ROOTS, dir)!;
  for (const mask of [1, 2, 4, 6, 32, 60, 63, 8]) {
    const walk = FILES.filter(([, m]) => (m & mask) !== 0).map(([p]) => p);
    assert.deepEqual(next.passing!(mask), walk, `mask ${mask}`);
  }
  assert.equal(next.known!(), FILES.length, 'every entry is still known');
  assert.deepEqual(next.peek!('/ws/b.yaml'), { key: 'd:1:10', mask: 0 });
});

test('a file written before the list (no `passing`) is walked whole; a list naming no entry adds nothing', () => {
  const dir = tempFolder('index-cache-');
  const file = written(dir, FILES);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { passing?: unknown };
  delete stored.passing;
  fs.writeFileSync(file, JSON.stringify(stored));
  assert.deepEqual(openIndexCache(ROOTS, dir)!.passing!(60), ['/ws/argocd/kustomization.yaml', '/ws/appsets/x.yaml']);
  stored.passing = ['/ws/elsewhere.yaml', 7, '/ws/appsets/x.yaml'];
  fs.writeFileSync(file, JSON.stringify(stored));
  assert.deepEqual(openIndexCache(ROOTS, dir)!.passing!(60), ['/ws/appsets/x.yaml'], 'only entries of the file, and only those passing');
});

test('a file written before the list is written again with it, even when nothing changed; one with it is not', () => {
  const dir = tempFolder('index-cache-');
  const file = written(dir, FILES);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { passing?: unknown; entries: Record<string, [string, number]> };
  delete stored.passing;
  fs.writeFileSync(file, JSON.stringify(stored));
  const again = openIndexCache(ROOTS, dir)!;
  for (const [p] of FILES) again.get(p);
  again.save();
  const rewritten = JSON.parse(fs.readFileSync(file, 'utf8')) as { passing?: string[] };
  assert.deepEqual(rewritten.passing, [
    '/ws/argocd/kustomization.yaml',
    '/ws/appsets/x.yaml',
    '/ws/clusters/c.yaml',
    '/ws/argocd/params.yaml',
  ]);
  const before = fs.statSync(file).mtimeMs;
  fs.utimesSync(file, new Date(1000), new Date(1000));
  const third = openIndexCache(ROOTS, dir)!;
  for (const [p] of FILES) third.get(p);
  third.save();
  assert.equal(fs.statSync(file).mtimeMs, 1000, `unchanged and listed: not written again (was ${before})`);
});

test('a workspace with no YAML file writes no cache file', () => {
  const dir = tempFolder('index-cache-');
  openIndexCache(ROOTS, dir)!.save();
  assert.deepEqual(fs.readdirSync(dir), []);
});
