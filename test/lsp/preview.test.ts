/**
 * The preview over LSP: code lens over generators, hover on a generator and on a template string,
 * the appsetTools/preview request, and the RollingSync plan of a cluster × list matrix whose tier
 * labels live on cluster Secrets in the workspace.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { HoverRequest, CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';
import { renderPlan } from '../../client/src/rolloutHtml';
import type { RolloutPlan } from '@appset-tools/protocol';
import { clusterSecrets } from '../helpers/clusters';
import { appsetHead, clusterListMatrix, flowTemplate, rollingSyncBy, serviceElements, TIER_LABEL } from '../helpers/appsets';

const secret = (name: string, tier: string) => ({ name, secretName: name, labels: { env: 'prod', tier } });

const APPSET = `${appsetHead('shop')}  generators:
${clusterListMatrix({ env: 'prod' }, serviceElements(['cart', 'checkout']))}${rollingSyncBy('tier', [
  { values: ['canary'], maxUpdate: 1 },
  { values: ['prod'], maxUpdate: '50%' },
])}${flowTemplate(
  "'{{ .service }}-{{ .name }}'",
  "repoURL: https://example.com/shop.git, targetRevision: main, path: 'services/{{ .service }}'",
  "server: '{{ .server }}', namespace: '{{ .service }}'",
  TIER_LABEL,
)}`;

let s: TestServer;
before(async () => {
  s = await startServer({
    'clusters/secrets.yaml': clusterSecrets([secret('c1', 'canary'), secret('c2', 'prod'), secret('c3', 'prod')]),
    'argocd/argocd-cmd-params-cm.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cmd-params-cm, namespace: argocd}\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n',
  });
  await s.open('shop.yaml', APPSET);
});
after(async () => s?.shutdown());

const lineOf = (needle: string) => APPSET.slice(0, APPSET.indexOf(needle)).split('\n').length - 1;

test('code lens over generators counts Applications per cluster × element', async () => {
  const lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('shop.yaml') } })) ?? [];
  const gen = lenses.find((l) => l.range.start.line === lineOf('  generators:'));
  assert.ok(gen, JSON.stringify(lenses.map((l) => [l.range.start.line, l.command?.title])));
  assert.equal(gen.command?.title, '6 Applications · 3 clusters × 2 services');
  assert.equal(gen.command?.command, 'appsetTools.showPreview');
  assert.deepEqual(gen.command?.arguments?.[0], s.uriOf('shop.yaml'));
  // The plan over rollingSync: (the strategy: line says whether the controller runs it; one lens a line).
  const plan = lenses.find((l) => l.range.start.line === lineOf('    rollingSync:'));
  assert.match(plan?.command?.title ?? '', /2 steps · 6 apps/);
});

test('hover on a template string shows its value in each Application', async () => {
  const line = lineOf("path: 'services/");
  const character = APPSET.split('\n')[line].indexOf('services/') + 2;
  const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: s.uriOf('shop.yaml') }, position: { line, character } });
  const md = h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  // Each name links to where its parameter set came from (features/hoverTable.ts keeps the table narrow).
  assert.match(md, /\[`cart-c1`\]\([^ )]* "[^"]*"\) \| `services\/cart`/);
  assert.match(md, /\[`checkout-c3`\]\([^ )]* "[^"]*"\) \| `services\/checkout`/);
});

test('hover on the generator lists its Applications', async () => {
  const h = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('shop.yaml') },
    position: { line: lineOf('- matrix:'), character: 8 },
  });
  const md = h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  assert.match(md, /Generator 1 produces 6 Applications/);
  assert.match(md, /https:\/\/c2\.example\.com/);
});

test('the preview request returns every Application, sorted by name', async () => {
  const r = (await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('shop.yaml') })) as { yaml: string; apps: number };
  assert.equal(r.apps, 6);
  const names = [...r.yaml.matchAll(/^  name: (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(names, ['cart-c1', 'cart-c2', 'cart-c3', 'checkout-c1', 'checkout-c2', 'checkout-c3']);
  assert.match(r.yaml, /tier: canary/);
});

test('the rollout plan follows the tier labels copied from the clusters', async () => {
  const plan = (await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: s.uriOf('shop.yaml') })) as {
    steps: { apps: string[]; waves: { apps: string[] }[] }[];
    enablement: { state: string };
  };
  assert.equal(plan.enablement.state, 'enabled');
  assert.deepEqual(plan.steps[0].apps, ['cart-c1', 'checkout-c1']);
  assert.deepEqual(
    plan.steps[0].waves.map((w) => w.apps),
    [['cart-c1'], ['checkout-c1']],
  );
  assert.deepEqual(
    plan.steps[1].waves.map((w) => w.apps.length),
    [2, 2],
  );
});

test('the rollout plan carries the timeline the server computed, and the rollout view shows it as it is', async () => {
  const plan = (await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: s.uriOf('shop.yaml') })) as RolloutPlan;
  const tl = plan.timeline!;
  // canary: 2 Applications one at a time (2 waves); prod: 4 at 50% → 2 at a time (2 waves); 3 min a sync.
  assert.equal(tl.summary, '4 waves, about 12 min of syncing at 3 min a sync');
  assert.deepEqual(
    tl.steps.map((x) => [x.step, x.at, x.takes]),
    [
      [1, '+0:00', '2 waves, about 6 min'],
      [2, '+0:06', '2 waves, about 6 min'],
    ],
  );
  const html = renderPlan(plan);
  assert.match(html, /<h3>Timeline<\/h3><p class="summary">4 waves, about 12 min of syncing at 3 min a sync<\/p>/);
  // Each row says what the step syncs at once (issue 41), then when it starts and how long it syncs.
  assert.match(
    html,
    /<tr><td><a href="#step-2">2<\/a><\/td><td>tier In \(prod\) · 4 Applications on 2 clusters · 2 at a time<\/td><td>\+0:06<\/td><td>2 waves, about 6 min<\/td><td><\/td><\/tr>/,
  );
  assert.match(html, /<p class="summary assumes">Assumes every sync takes 3 min/);
});

test('a preview request naming a newer version of its document answers that version, not the one before the edit', async () => {
  // A client may ask right after an edit, before its didChange arrives (the VS Code preview asks at once).
  const text = APPSET.replace('targetRevision: main', 'targetRevision: v1');
  await s.open('ahead.yaml', text);
  const uri = s.uriOf('ahead.yaml');
  const asked = s.conn.sendRequest<{ yaml: string } | null>('appsetTools/preview', { uri, version: 2 });
  await s.change('ahead.yaml', text.replace('targetRevision: v1', 'targetRevision: v2'));
  const answer = await asked;
  assert.match(answer?.yaml ?? '', /targetRevision: v2/);
  assert.doesNotMatch(answer?.yaml ?? '', /targetRevision: v1/);
  // A version that never comes: the request still answers, with what is there.
  const later = await s.conn.sendRequest<{ yaml: string } | null>('appsetTools/preview', { uri, version: 9 });
  assert.match(later?.yaml ?? '', /targetRevision: v2/);
});
