/**
 * The language server built for VS Code for the Web (dist/web/server.js, server/src/web/) gives the
 * answers the Node server gives, reading the workspace through its client: the same diagnostics and
 * lenses for the same repository, including what only a file the engine asks for later decides (a
 * kustomize `envs:` file, read when the install model first asks for it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import * as fc from 'fast-check';
import {
  CodeLensRequest,
  HoverRequest,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { initializeParams, messageOf, startServer } from './client';
import { startWorkerOn, startWorkerServer, WEB_SERVER } from '../helpers/webWorker';
import { until } from '../helpers/guard';
import { OTHER_REPOSITORY_APPSET as ELSEWHERE } from '../helpers/appsets';
import { fileUriOfPath, resourceOfWebPath, webPathOf } from '@appset-tools/protocol';

const SHOP = readFileSync(join(__dirname, '..', 'fixtures', 'installs', 'kustomize-overlay', 'appsets', 'shop.yaml'), 'utf8');
const FILES = {
  'appsets/shop.yaml': SHOP,
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

test(
  'the web worker answers as the Node server does, reading the workspace through its client',
  { skip: !existsSync(WEB_SERVER) && 'build first (node esbuild.js)' },
  async (t) => {
    const node = await startServer(FILES);
    t.after(() => node.shutdown());
    const uri = node.uriOf('appsets/shop.yaml');
    const nodeDiagnostics = await node.open('appsets/shop.yaml', SHOP);
    const nodeLenses = await until(
      () => node.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } }),
      (ls) => !!ls?.some((l) => /kustomization\.yaml/.test(l.command?.title ?? '')),
      () => 'the Node server never said argocd/kustomization.yaml (its envs file) enables progressive syncs',
    );

    const web = startWorkerServer();
    t.after(() => web.stop());
    const published: Diagnostic[][] = [];
    web.conn.onNotification(PublishDiagnosticsNotification.type, (p) => void (p.uri === uri && published.push(p.diagnostics)));
    web.conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({ validate: { debounceMs: 0 } })));
    web.conn.listen();
    await web.conn.sendRequest(InitializeRequest.type, {
      ...initializeParams(node.workspace, { workspace: { configuration: true } }),
      initializationOptions: { settings: { validate: { debounceMs: 0 } } },
    });
    await web.conn.sendNotification(InitializedNotification.type, {});
    await web.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text: SHOP },
    });
    const webLenses = await until(
      () => web.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } }),
      (ls) => !!ls?.some((l) => /kustomization\.yaml/.test(l.command?.title ?? '')),
      () =>
        `the web worker never said argocd/kustomization.yaml (its envs file) enables progressive syncs; it read ${web.reads.join(', ')}`,
    );
    await until(
      () => published.at(-1),
      (d) => !!d && JSON.stringify(shape(d)) === JSON.stringify(shape(nodeDiagnostics)),
      () =>
        `the web worker's diagnostics differ: ${JSON.stringify(shape(published.at(-1) ?? []))} vs ${JSON.stringify(shape(nodeDiagnostics))}`,
    );
    // The same lenses, and one more where the change's lens would be: the worker has no git history and says so
    // (the Node server's workspace here is no git work tree, so it shows no change lens at all).
    const change = (t?: string) => !!t?.startsWith('This change');
    assert.deepEqual(
      webLenses?.map((l) => l.command?.title).filter((t) => !change(t)),
      nodeLenses?.map((l) => l.command?.title),
    );
    assert.match(webLenses?.find((l) => change(l.command?.title))?.command?.title ?? '', /not known .*reads no git history/);
    // YAML was read at once, the envs file only when the install model asked for it.
    assert.ok(web.reads.includes(join(node.workspace, 'argocd', 'params.env')), 'params.env was read');
    assert.ok(web.listings.includes(node.workspace), 'the workspace folder was listed');
  },
);

test('a web path and its file URI are named alike on both sides (as Node encodes file URIs)', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => !s.includes('/') && s !== '.' && s !== '..'),
        { minLength: 1, maxLength: 4 },
      ),
      (segs) => {
        const p = '/' + segs.join('/');
        assert.equal(fileUriOfPath(p), pathToFileURL(p).href);
      },
    ),
  );
  for (const [scheme, authority, path] of [
    ['vscode-vfs', 'github', '/owner/repo/apps/a b.yaml'],
    ['vscode-remote', '127.0.0.1:8080', '/home/u/x#y.yaml'],
    ['vscode-test-web', '', '/w/a.yaml'],
  ]) {
    const p = webPathOf(scheme, authority, path);
    assert.deepEqual(resourceOfWebPath(p), { scheme, authority, path });
  }
});

// A template that builds too much (thirty doublings of a dict, printed: 2^30 nodes), beside `now`
// (the worker's clock is not Node's): the worker stops it with the Node server's limit and its words,
// answers the next request, and no finding differs.
const HEAVY = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: heavy
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - env: dev
  template:
    metadata:
      name: 'heavy-{{ .env }}'
      labels:
        year: '{{ now | date "2006" }}'
      annotations:
        blob: '{{- $d := dict "a" "x" }}{{- range until 30 }}{{- $d = dict "l" $d "r" $d }}{{- end }}{{ toJson $d }}'
    spec:
      project: default
      source:
        repoURL: https://example.com/heavy.git
        path: heavy
      destination:
        server: https://kubernetes.default.svc
        namespace: heavy
`;

test(
  'in the web worker a template that builds too much is stopped by the same limit, and another repository is said to be out of reach',
  { skip: !existsSync(WEB_SERVER) && 'build first (node esbuild.js)' },
  async () => {
    const node = await startServer({ 'heavy.yaml': HEAVY, 'elsewhere.yaml': ELSEWHERE });
    const heavy = node.uriOf('heavy.yaml');
    const elsewhere = node.uriOf('elsewhere.yaml');
    const nodeHeavy = await node.open('heavy.yaml', HEAVY);
    assert.ok(
      nodeHeavy.some((d) => /ApplicationSet Tools' limit/.test(messageOf(d))),
      `the Node server stops the template: ${JSON.stringify(shape(nodeHeavy))}`,
    );
    const nodeElsewhere = await node.open('elsewhere.yaml', ELSEWHERE);

    const web = await startWorkerOn(node.workspace, initializeParams(node.workspace, { workspace: { configuration: true } }));
    const t0 = Date.now();
    await web.open(heavy, HEAVY);
    const webHeavy = await until(
      () => web.diagnostics.get(heavy),
      (d) => !!d && JSON.stringify(shape(d)) === JSON.stringify(shape(nodeHeavy)),
      () =>
        `the web worker's diagnostics differ: ${JSON.stringify(shape(web.diagnostics.get(heavy) ?? []))} vs ${JSON.stringify(shape(nodeHeavy))}`,
    );
    // Still answering: a hover right after.
    const hover = await web.conn.sendRequest(HoverRequest.type, { textDocument: { uri: heavy }, position: { line: 5, character: 4 } });
    assert.ok(hover, 'the worker answers a hover after the heavy template');
    const ms = Date.now() - t0;
    assert.ok(ms < 20_000, `the worker took ${ms} ms over the heavy template`);
    assert.ok(webHeavy && webHeavy.length > 0);

    await web.open(elsewhere, ELSEWHERE);
    const webElsewhere = await until(
      () => web.diagnostics.get(elsewhere),
      (d) => !!d?.some((x) => x.code === 'generator/no-git-checkout'),
      () => `no generator/no-git-checkout from the web worker: ${JSON.stringify(shape(web.diagnostics.get(elsewhere) ?? []))}`,
    );
    const said = (webElsewhere ?? []).filter((d) => /VS Code for the Web reads only the opened repository/.test(messageOf(d)));
    assert.equal(said.length, 1, `said once: ${JSON.stringify(shape(webElsewhere ?? []))}`);
    assert.equal(said[0].code, 'generator/no-git-checkout');
    const nodeSaid = nodeElsewhere.find((d) => d.code === 'generator/no-git-checkout');
    assert.ok(
      nodeSaid && /repoMappings/.test(messageOf(nodeSaid)) && !/VS Code for the Web/.test(messageOf(nodeSaid)),
      'the Node server gives its own advice',
    );
    web.stop();
    await node.shutdown();
  },
);

test(
  'in the web worker a preview asked before the first diagnostics waits for the workspace to be read (never an empty one)',
  { skip: !existsSync(WEB_SERVER) && 'build first (node esbuild.js)' },
  async (t) => {
    const node = await startServer(FILES);
    t.after(() => node.shutdown());
    const uri = node.uriOf('appsets/shop.yaml');
    const web = await startWorkerOn(node.workspace, initializeParams(node.workspace, { workspace: { configuration: true } }));
    t.after(() => web.stop());
    await web.open(uri, SHOP);
    // Sent at once, before the open's diagnostics run: it must not read the worker's host before the client filled it.
    assert.ok(await web.conn.sendRequest('appsetTools/preview', { uri }), 'the preview answers');
    await until(
      () => web.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } }),
      (ls) => !!ls?.some((l) => /^Enabled by kustomization\.yaml/.test(l.command?.title ?? '')),
      () => 'the worker never found the install a preview asked before the first answer would have missed',
    );
  },
);

test(
  "in the web worker a workspace wider than 5,000 folders is still read to the engine's own cap (the Argo CD configuration after them counts)",
  { skip: !existsSync(WEB_SERVER) && 'build first (node esbuild.js)' },
  async (t) => {
    // 5,200 folders at the top, listed before `zz/argocd/` (the reader lists breadth-first): with a
    // reader cap below the engine's scan cap the ConfigMap's folder looked empty and the verdict said
    // "Ignored" where the repository enables progressive syncs.
    const files: Record<string, string> = {
      'appsets/shop.yaml': SHOP,
      'zz/argocd/argocd-cmd-params-cm.yaml': [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: argocd-cmd-params-cm',
        '  namespace: argocd',
        'data:',
        '  applicationsetcontroller.enable.progressive.syncs: "true"',
        '',
      ].join('\n'),
    };
    for (let i = 0; i < 5200; i++) files[`f${String(i).padStart(4, '0')}/a.txt`] = '';
    const node = await startServer(files);
    t.after(() => node.shutdown());
    const uri = node.uriOf('appsets/shop.yaml');
    const web = await startWorkerOn(node.workspace, initializeParams(node.workspace, { workspace: { configuration: true } }));
    t.after(() => web.stop());
    await web.open(uri, SHOP);
    await until(
      () => web.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } }),
      (ls) => !!ls?.some((l) => /^Enabled by argocd-cmd-params-cm\.yaml/.test(l.command?.title ?? '')),
      () => `the worker never found zz/argocd/argocd-cmd-params-cm.yaml; it listed ${web.listings.length} folders`,
    );
    assert.ok(web.listings.length > 5200, `listed ${web.listings.length} folders`);
  },
);
