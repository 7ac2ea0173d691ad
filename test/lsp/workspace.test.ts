/**
 * The server and the workspace around a document: cluster Secrets on disk (file watching), cluster
 * Secrets open in the editor (overlays), Argo CD configuration, settings pulled through
 * workspace/configuration, and the document kinds a client may send (multi-document, untitled).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CodeLensRequest, DidChangeTextDocumentNotification, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { messageOf, startServer, type TestServer } from './client';
import { clusterSecret, cmdParamsCm } from '../helpers/clusters';
import { appsetHead, flowTemplate, rollingSyncBy, TIER_LABEL } from '../helpers/appsets';

const secret = (name: string, tier: string) => clusterSecret({ name, secretName: name, labels: { tier } });

const APPSET = `${appsetHead('fleet', { namespace: null })}  generators:
    - clusters: {}
${rollingSyncBy('tier', [{ values: ['canary'] }, { values: ['prod'] }])}${flowTemplate(
  "'guestbook-{{ .name }}'",
  'repoURL: https://example.com/gb.git, targetRevision: main, path: guestbook',
  "server: '{{ .server }}', namespace: guestbook",
  TIER_LABEL,
)}`;

const CM = (value: string) => cmdParamsCm(value, 'argocd');

let s: TestServer;
before(async () => {
  s = await startServer({ 'clusters/c1.yaml': secret('c1', 'canary'), 'clusters/c2.yaml': secret('c2', 'prod') });
  await s.open('fleet.yaml', APPSET);
});
after(async () => s?.shutdown());

const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code));
const preview = async (rel: string) =>
  (await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf(rel) })) as { yaml: string; apps: number };
const names = (yaml: string) => [...yaml.matchAll(/^  name: (.+)$/gm)].map((m) => m[1]);

test('the server asks other editors to watch files and for lens refreshes', () => {
  const reg = s.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
  assert.ok(reg, JSON.stringify(s.registrations));
  assert.deepEqual(
    (reg.registerOptions as { watchers: { globPattern: string }[] }).watchers.map((w) => w.globPattern),
    ['**/*'],
  );
});

test('a cluster Secret written on disk reaches the preview and the diagnostics of open documents', async () => {
  assert.deepEqual(names((await preview('fleet.yaml')).yaml), ['guestbook-c1', 'guestbook-c2']);
  const before = s.published('fleet.yaml').length;
  const refreshes = s.lensRefreshes();
  await s.writeFile('clusters/c3.yaml', secret('c3', 'prod'));
  await s.eventually('fleet.yaml', () => s.published('fleet.yaml').length > before, 'a watched-file change re-validates open documents');
  assert.deepEqual(names((await preview('fleet.yaml')).yaml), ['guestbook-c1', 'guestbook-c2', 'guestbook-c3']);
  const lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('fleet.yaml') } })) ?? [];
  assert.ok(
    lenses.some((l) => /3 apps/.test(l.command?.title ?? '')),
    JSON.stringify(lenses.map((l) => l.command?.title)),
  );
  await new Promise((r) => setTimeout(r, 120));
  assert.ok(s.lensRefreshes() > refreshes, 'the client is told to re-request code lenses');
});

test('an unsaved edit of a cluster Secret counts until the editor closes it', async () => {
  await s.open('clusters/c2.yaml', secret('c2', 'prod'));
  // Renaming the cluster in the editor (not on disk) renames its Application.
  await s.change('clusters/c2.yaml', secret('c2', 'prod').replace(/c2/g, 'c9'));
  assert.deepEqual(names((await preview('fleet.yaml')).yaml), ['guestbook-c1', 'guestbook-c3', 'guestbook-c9']);
  await s.close('clusters/c2.yaml');
  assert.deepEqual(names((await preview('fleet.yaml')).yaml), ['guestbook-c1', 'guestbook-c2', 'guestbook-c3']);
});

test('a preview asked right after an edit elsewhere sees that edit (before its debounced run)', async () => {
  await s.setSettings({ validate: { debounceMs: 2000 } });
  await s.open('clusters/c1.yaml', secret('c1', 'canary'));
  await s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: s.uriOf('clusters/c1.yaml'), version: 2 },
    contentChanges: [{ text: secret('c1', 'canary').replace(/c1/g, 'c0') }],
  });
  assert.deepEqual(names((await preview('fleet.yaml')).yaml), ['guestbook-c0', 'guestbook-c2', 'guestbook-c3']);
  await s.close('clusters/c1.yaml');
  await s.setSettings({});
  assert.deepEqual(names((await preview('fleet.yaml')).yaml), ['guestbook-c1', 'guestbook-c2', 'guestbook-c3']);
});

test('progressive-sync detection follows the workspace, with related information', async () => {
  const notFound = await s.eventually(
    'fleet.yaml',
    (ds) => codes(ds).includes('rollout/progressive-syncs-not-found'),
    'no Argo CD configuration: not found',
  );
  assert.ok(!codes(notFound).includes('rollout/progressive-syncs-disabled'));

  await s.writeFile('argocd/argocd-cmd-params-cm.yaml', CM('false'));
  const disabled = await s.eventually(
    'fleet.yaml',
    (ds) => codes(ds).includes('rollout/progressive-syncs-disabled'),
    'the ConfigMap disables them',
  );
  const d = disabled.find((x) => x.code === 'rollout/progressive-syncs-disabled')!;
  assert.equal(d.severity, 2);
  const line = APPSET.split('\n').findIndex((l) => l === '  strategy:');
  assert.deepEqual(d.range, { start: { line, character: 2 }, end: { line, character: 10 } });
  assert.match(messageOf(d), /3 Applications/);
  const rel = d.relatedInformation?.[0];
  assert.ok(rel, 'the warning links to the ConfigMap');
  assert.equal(rel.location.uri, s.uriOf('argocd/argocd-cmd-params-cm.yaml'));
  assert.equal(rel.location.range.start.line, 6, 'at the key that disables them');

  await s.writeFile('argocd/argocd-cmd-params-cm.yaml', CM('true'));
  await s.eventually('fleet.yaml', (ds) => !codes(ds).some((c) => c.startsWith('rollout/progressive-syncs')), 'enabled: no warning');
});

test('settings come from workspace/configuration and override detection', async () => {
  await s.setSettings({ progressiveSyncs: 'disabled' });
  await s.eventually('fleet.yaml', (ds) => codes(ds).includes('rollout/progressive-syncs-disabled'), 'the setting disables them');
  await s.setSettings({ progressiveSyncs: 'auto', validate: { enable: false } });
  await s.eventually('fleet.yaml', (ds) => ds.length === 0, 'validation can be turned off');
  const count = s.published('fleet.yaml').length;
  await s.setSettings({ maxApplications: 2 });
  const capped = await s.eventually(
    'fleet.yaml',
    (ds) => s.published('fleet.yaml').length > count && ds.length > 0,
    'validation is back, with the new cap',
  );
  assert.ok(
    capped.some((d) => /\b2\b/.test(messageOf(d)) && /cap|limit|maxApplications/i.test(messageOf(d))),
    JSON.stringify(capped.map((d) => [d.code, d.message])),
  );
  await s.setSettings({});
});

test('an Argo CD configuration file gets its own findings, other YAML none', async () => {
  const ds = await s.open(
    'argocd/old-cm.yaml',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\ndata:\n  applicationsetcontroller.enable.progressive.rollouts: "true"\n',
  );
  const d = ds.find((x) => x.code === 'rollout/ignored-setting');
  assert.ok(d, JSON.stringify(codes(ds)));
  assert.equal(d.range.start.line, 5);
  // A syntax error in an unrelated YAML file is the YAML extension's business, not ours.
  assert.deepEqual(await s.open('values.yaml', 'a: [1, 2\nb: {'), []);
});

test('multi-document files: only the ApplicationSet is validated, and its Secret neighbour is a cluster', async () => {
  // `bogus` is a key of the template's spec beside the flow-style source, in YAML that parses: a document
  // with YAML errors gets only its YAML findings (docs/diagnostics.md), never the schema's.
  const text = `${secret('c7', 'canary')}---\n${APPSET.replace('name: fleet', 'name: fleet2').replace('      destination:', '      bogus: 1\n      destination:')}`;
  const ds = await s.open('mixed.yaml', text);
  const unknown = ds.filter((d) => d.code === 'appset/unknown-field');
  assert.equal(unknown.length, 1, JSON.stringify(codes(ds)));
  assert.equal(
    unknown[0].range.start.line,
    text.split('\n').findIndex((l) => l.includes('bogus: 1')),
  );
  assert.ok(
    ds.every((d) => d.range.start.line > 12),
    'nothing in the Secret',
  );
  const r = await preview('mixed.yaml');
  assert.ok(names(r.yaml).includes('guestbook-c7'), names(r.yaml).join(', '));
});

test('an ApplicationSet file that gains, then loses, a cluster Secret updates the other documents', async () => {
  const own = APPSET.replace('name: fleet', 'name: other');
  await s.open('other.yaml', own);
  for (let i = 0; i < 3; i++) await s.change('other.yaml', own + `# typing ${i}\n`);
  await s.change('other.yaml', `${own}---\n${secret('c5', 'prod')}`);
  assert.ok(names((await preview('fleet.yaml')).yaml).includes('guestbook-c5'));
  await s.change('other.yaml', own);
  assert.ok(!names((await preview('fleet.yaml')).yaml).includes('guestbook-c5'));
  await s.close('other.yaml');
});

test('untitled documents are validated too', async () => {
  const ds = await s.open('untitled:Untitled-1', APPSET.replace('goTemplate: true', 'goTemplate: yes'));
  assert.ok(
    ds.some((d) => String(d.code).startsWith('appset/')),
    JSON.stringify(codes(ds)),
  );
});
