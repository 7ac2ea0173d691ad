/**
 * "This change" counts edits in the generators' inputs (issue 41): a git files generator's config file
 * (the repository mapped to a folder of the workspace with `repoMappings`) changed on disk changes the
 * one Application it feeds, against the same file at HEAD; back as committed, no lens. An unsaved edit
 * of the config file in an open tab counts the same (the git generator reads an open document's text,
 * as the workspace index does), in the lens and in the preview; a tab whose file was deleted on disk
 * counts as the disk does (the file is gone). A `config.json` tab, which the VS Code client sends as text
 * only (`appsetTools/inputDocument`), counts the same, until it closes.
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
/** The same over `config.json` files, which the VS Code client sends as text only (`appsetTools/inputDocument`). */
const JSON_APPSET = APPSET.replace('name: shop\n', 'name: shop-json\n').replace("'clusters/*/config.yaml'", "'json/*/config.json'");
const config = (name: string, tag: string) =>
  JSON.stringify({ cluster: { name, server: `https://${name}.example.com` }, image: { tag } }, null, 2) + '\n';

let s: TestServer;
before(async () => {
  s = await startServer(
    {
      'apps/shop.yaml': APPSET,
      'config-repo/clusters/eu/config.yaml': config('eu', '1.0.0'),
      'config-repo/clusters/us/config.yaml': config('us', '1.0.0'),
      'apps/json.yaml': JSON_APPSET,
      'config-repo/json/eu/config.json': config('eu', '1.0.0'),
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

/** Waits until `get` passes `ok` (the server answers from the latest text once its runs settle). */
async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await get();
  for (let i = 0; i < 60 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await get();
  }
  return v;
}

const preview = async () =>
  ((await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('apps/shop.yaml') })) as { yaml: string } | null)?.yaml ?? '';

test("a git generator's config file edited and not saved: the lens and the preview follow the editor's text", async () => {
  await s.open('apps/shop.yaml', APPSET);
  assert.deepEqual(await until(changeTitles, (t) => !t.length), []);
  // Opened in a tab and edited, never saved: the disk still holds 1.0.0.
  await s.open('config-repo/clusters/us/config.yaml', config('us', '1.0.0'));
  await s.change('config-repo/clusters/us/config.yaml', config('us', '2.0.0'));
  assert.deepEqual(await until(changeTitles, (t) => t.length > 0), ['This change: 1 Application syncs, on 1 cluster']);
  const yaml = await until(preview, (y) => y.includes('2.0.0'));
  assert.match(yaml, /name: shop-us[\s\S]*targetRevision: 2\.0\.0/);
  assert.match(yaml, /name: shop-eu[\s\S]*targetRevision: 1\.0\.0/);
  // A cluster that only the unsaved text names: its Application appears in the preview.
  await s.change('config-repo/clusters/us/config.yaml', config('us-west', '1.0.0'));
  const renamed = await until(preview, (y) => y.includes('shop-us-west'));
  assert.match(renamed, /name: shop-us-west/);
  assert.doesNotMatch(renamed, /name: shop-us\n/);
  assert.deepEqual(await until(changeTitles, (t) => t[0] !== 'This change: 1 Application syncs, on 1 cluster'), [
    'This change: 1 Application syncs, on 1 cluster · 1 deleted with their resources',
  ]);
  // Typed back to the committed text: nothing changes.
  await s.change('config-repo/clusters/us/config.yaml', config('us', '1.0.0'));
  assert.deepEqual(await until(changeTitles, (t) => !t.length), []);
  // Edited again, then deleted on disk while its tab stays open: the file is gone, its Application with it.
  await s.change('config-repo/clusters/us/config.yaml', config('us', '3.0.0'));
  assert.match(await until(preview, (y) => y.includes('3.0.0')), /targetRevision: 3\.0\.0/);
  await s.removeFile('config-repo/clusters/us/config.yaml');
  const gone = await until(preview, (y) => !y.includes('shop-us'));
  assert.doesNotMatch(gone, /shop-us/);
  assert.match(gone, /name: shop-eu/);
  await s.close('config-repo/clusters/us/config.yaml');
});

test("a git generator's config.json in a tab sent as text only: its unsaved text counts until the tab closes", async () => {
  const uri = s.uriOf('config-repo/json/eu/config.json');
  const titles = async () =>
    (((await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('apps/json.yaml') } })) ?? []) as CodeLens[])
      .map((l) => l.command?.title ?? '')
      .filter((t) => t.startsWith('This change'));
  const jsonPreview = async () =>
    ((await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('apps/json.yaml') })) as { yaml: string } | null)?.yaml ?? '';
  await s.open('apps/json.yaml', JSON_APPSET);
  assert.deepEqual(await until(titles, (t) => !t.length), []);
  await s.conn.sendNotification('appsetTools/inputDocument', { uri, text: config('eu', '4.0.0') });
  assert.deepEqual(await until(titles, (t) => t.length > 0), ['This change: 1 Application syncs, on 1 cluster']);
  assert.match(await until(jsonPreview, (y) => y.includes('4.0.0')), /targetRevision: 4\.0\.0/);
  // Broken while typed: the generator's error, said (never the saved file's answer).
  await s.conn.sendNotification('appsetTools/inputDocument', { uri, text: '{ "cluster": ' });
  const broken = await until(
    () => s.diagnostics('apps/json.yaml').catch(() => []),
    (ds) => ds.some((d) => /config\.json/.test(String(d.message))),
  );
  assert.ok(
    broken.some((d) => /unable to process file 'json\/eu\/config\.json'/.test(String(d.message))),
    JSON.stringify(broken.map((d) => d.message)),
  );
  // The tab closes: the saved file counts again, and nothing changed.
  await s.conn.sendNotification('appsetTools/inputDocument', { uri });
  assert.deepEqual(await until(titles, (t) => !t.length), []);
  assert.match(await until(jsonPreview, (y) => y.includes('1.0.0')), /targetRevision: 1\.0\.0/);
});
