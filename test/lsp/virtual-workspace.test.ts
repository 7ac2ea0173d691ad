/**
 * The Node language server (dist/server.js, desktop VS Code) in a virtual workspace: every folder is of
 * another scheme than `file` (Remote Repositories' `vscode-vfs://github/<owner>/<repo>`), which the VS
 * Code client names by server paths (client/src/web/uris.ts) and reads for the server with VS Code's
 * file system API (client/src/web/files.ts). The server reads it through the client as the web worker
 * does (lsp/nodeMain.ts `nodePlatforms`) and answers as it does on disk: the same diagnostics,
 * the same lenses, the verdict decided by a file read on demand; the change lens says once that there
 * is no git history here. This test plays that client over stdio, its files from a folder on disk
 * under the virtual path; the disk server over the same folder is the reference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CodeLensRequest,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { messageOf, serverPath, spawnStdioServer, startServer, stopStdio } from './client';
import { until } from '../helpers/guard';
import { OTHER_REPOSITORY_APPSET as ELSEWHERE } from '../helpers/appsets';
import { ClientRequests, fileUriOfPath, webPathOf, type WebDirectoryEntry, type WebFileResult } from '@appset-tools/protocol';
import { VIRTUAL_NO_GIT_HISTORY, VIRTUAL_ONLY_OPENED_REPOSITORY } from '../../server/src/lsp/nodeMain';

const SHOP = readFileSync(join(__dirname, '..', 'fixtures', 'installs', 'kustomize-overlay', 'appsets', 'shop.yaml'), 'utf8');
const FILES = {
  'appsets/shop.yaml': SHOP,
  'appsets/elsewhere.yaml': ELSEWHERE,
  'argocd/kustomization.yaml': [
    'namespace: argocd',
    'resources:',
    '  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.14.11',
    'configMapGenerator:',
    '  - name: argocd-cmd-params-cm',
    '    behavior: merge',
    '    envs:',
    '      - params.env',
    '',
  ].join('\n'),
  'argocd/params.env': 'applicationsetcontroller.enable.progressive.syncs=true\n',
};

const shape = (ds: Diagnostic[]) => ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`).sort();
/** The server path the VS Code client names `vscode-vfs://github/acme/gitops` by. */
const ROOT = webPathOf('vscode-vfs', 'github', '/acme/gitops');

test(
  'the Node server in a virtual workspace reads it through the client and answers as on disk',
  { skip: !existsSync(serverPath) && 'build first (node esbuild.js)' },
  async (t) => {
    const disk = await startServer(FILES);
    t.after(() => disk.shutdown());
    const diskShop = await disk.open('appsets/shop.yaml', SHOP);
    const diskLenses = await until(
      () => disk.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: disk.uriOf('appsets/shop.yaml') } }),
      (ls) => !!ls?.some((l) => /kustomization\.yaml/.test(l.command?.title ?? '')),
      () => 'the disk server never said argocd/kustomization.yaml (its envs file) enables progressive syncs',
    );

    // The client of a virtual workspace: the files under ROOT are the disk server's folder.
    const real = (p: string) => (p === ROOT || p.startsWith(ROOT + '/') ? disk.workspace + p.slice(ROOT.length) : undefined);
    const { proc, conn } = spawnStdioServer();
    t.after(() => stopStdio(conn, proc));
    const reads: string[] = [];
    const listings: string[] = [];
    conn.onRequest(ClientRequests.readDirectory, (p: { path: string }): WebDirectoryEntry[] | null => {
      listings.push(p.path);
      const dir = real(p.path);
      if (!dir) return null;
      try {
        return readdirSync(dir, { withFileTypes: true }).map((d) => ({ name: d.name, kind: d.isDirectory() ? 'directory' : 'file' }));
      } catch {
        return null;
      }
    });
    conn.onRequest(ClientRequests.readFile, (p: { path: string; maxBytes: number }): WebFileResult => {
      reads.push(p.path);
      const file = real(p.path);
      if (!file || !existsSync(file)) return { skipped: 'missing' };
      const size = statSync(file).size;
      return size > p.maxBytes ? { skipped: 'too-large', size } : { text: readFileSync(file, 'utf8'), size };
    });
    const published = new Map<string, Diagnostic[]>();
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => void published.set(p.uri, p.diagnostics));
    conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({ validate: { debounceMs: 0 } })));
    conn.onRequest('client/registerCapability', () => null);
    conn.listen();
    const rootUri = fileUriOfPath(ROOT);
    await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'gitops' }],
      capabilities: { workspace: { configuration: true } },
      initializationOptions: { settings: { validate: { debounceMs: 0 } }, clientWatchesFiles: true },
    });
    await conn.sendNotification(InitializedNotification.type, {});
    const open = (rel: string, text: string) =>
      conn.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: fileUriOfPath(`${ROOT}/${rel}`), languageId: 'yaml', version: 1, text },
      });

    const shop = fileUriOfPath(`${ROOT}/appsets/shop.yaml`);
    await open('appsets/shop.yaml', SHOP);
    await until(
      () => published.get(shop),
      (d) => !!d && JSON.stringify(shape(d)) === JSON.stringify(shape(diskShop)),
      () =>
        `the virtual workspace's diagnostics differ: ${JSON.stringify(shape(published.get(shop) ?? []))} vs ${JSON.stringify(shape(diskShop))}`,
    );
    const lenses = await until(
      () => conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: shop } }),
      (ls) => !!ls?.some((l) => /kustomization\.yaml/.test(l.command?.title ?? '')),
      () => `the virtual workspace never said argocd/kustomization.yaml enables progressive syncs; it read ${reads.join(', ')}`,
    );
    // The disk server's lenses, and the change lens saying why it is not known (the disk folder is no
    // git work tree, so the disk server shows none).
    const change = (title?: string) => !!title?.startsWith('This change');
    assert.deepEqual(
      lenses?.map((l) => l.command?.title).filter((title) => !change(title)),
      diskLenses?.map((l) => l.command?.title),
    );
    assert.equal(lenses?.filter((l) => change(l.command?.title)).length, 1);
    assert.match(lenses?.find((l) => change(l.command?.title))?.command?.title ?? '', new RegExp(VIRTUAL_NO_GIT_HISTORY.slice(0, 40)));
    // The rollout view's "This change" section gives the same reason as the lens, not an empty section.
    const summary = (await conn.sendRequest('appsetTools/changeSummary', { uri: shop })) as { unknown?: string; summary: string } | null;
    assert.ok(summary?.unknown?.startsWith(VIRTUAL_NO_GIT_HISTORY.slice(0, 40)), JSON.stringify(summary));
    assert.equal(summary?.summary, lenses?.find((l) => change(l.command?.title))?.command?.title);
    // Read through the client: the folder listed, the YAML at once, the envs file when the install model asked.
    assert.ok(listings.includes(ROOT), `the workspace folder was listed: ${listings.join(', ')}`);
    assert.ok(reads.includes(`${ROOT}/argocd/params.env`), `params.env was read: ${reads.join(', ')}`);

    // Another repository: said once where the git generator is, in the virtual workspace's words.
    const elsewhere = fileUriOfPath(`${ROOT}/appsets/elsewhere.yaml`);
    await open('appsets/elsewhere.yaml', ELSEWHERE);
    const said = await until(
      () => published.get(elsewhere),
      (d) => !!d?.some((x) => x.code === 'generator/no-git-checkout'),
      () => `no generator/no-git-checkout finding: ${JSON.stringify(shape(published.get(elsewhere) ?? []))}`,
    );
    const found = said!.filter((d) => d.code === 'generator/no-git-checkout');
    assert.equal(found.length, 1);
    assert.ok(messageOf(found[0]).includes(VIRTUAL_ONLY_OPENED_REPOSITORY), messageOf(found[0]));
  },
);
