/**
 * "This change" counts edits in the generators' inputs (issue 41): a git files generator's config file
 * (the repository mapped to a folder of the workspace with `repoMappings`) changed on disk changes the
 * one Application it feeds, against the same file at HEAD; back as committed, no lens. (The git
 * generator reads its files from disk: an unsaved edit of one counts once saved.)
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CodeLensRequest, type CodeLens } from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: shop
spec:
  goTemplate: true
  generators:
  - git:
      repoURL: https://example.com/config.git
      revision: HEAD
      files:
      - path: 'clusters/*/config.yaml'
  template:
    metadata:
      name: 'shop-{{.cluster.name}}'
    spec:
      project: default
      source:
        repoURL: https://example.com/shop.git
        targetRevision: '{{.image.tag}}'
        path: deploy
      destination:
        server: '{{.cluster.server}}'
        namespace: shop
`;
const config = (name: string, tag: string) =>
  JSON.stringify({ cluster: { name, server: `https://${name}.example.com` }, image: { tag } }, null, 2) + '\n';

let s: TestServer;
before(async () => {
  s = await startServer(
    {
      'apps/shop.yaml': APPSET,
      'config-repo/clusters/eu/config.yaml': config('eu', '1.0.0'),
      'config-repo/clusters/us/config.yaml': config('us', '1.0.0'),
    },
    { repoMappings: { 'https://example.com/config.git': 'config-repo' } },
  );
  const git = (...args: string[]) => execFileSync('git', args, { cwd: s.workspace, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
});
after(async () => s?.shutdown());

const changeTitles = async () =>
  (((await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('apps/shop.yaml') } })) ?? []) as CodeLens[])
    .map((l) => l.command?.title ?? '')
    .filter((t) => t.startsWith('This change'));

test("a git generator's config file changed on disk: the one Application it feeds syncs", async () => {
  await s.open('apps/shop.yaml', APPSET);
  assert.deepEqual(await changeTitles(), []);
  // As an editor saves it (its watcher reports the change).
  await s.writeFile('config-repo/clusters/eu/config.yaml', config('eu', '1.1.0'));
  let t: string[] = [];
  for (let i = 0; i < 60 && !t.length; i++) {
    t = await changeTitles();
    if (!t.length) await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(t, ['This change: 1 Application syncs, on 1 cluster']);
  // Back as committed: no lens.
  await s.writeFile('config-repo/clusters/eu/config.yaml', config('eu', '1.0.0'));
  for (let i = 0; i < 60 && t.length; i++) {
    t = await changeTitles();
    if (t.length) await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(t, []);
});
