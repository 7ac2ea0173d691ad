/**
 * Issue 41's gate in the editor: with `policy.maxChangeAtOnce` in .appset-tools.yaml, an uncommitted
 * change that syncs more Applications at once than allowed is a `policy/change-at-once` error on the
 * ApplicationSet (judged against HEAD by the engine `appset diff` uses), and it offers the existing
 * quick fixes: a RollingSync by tier when there is no strategy, progressive syncs enabled when the
 * strategy is ignored. The built server over stdio, in a temporary git repository.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CodeActionRequest, type CodeAction, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { messageOf, type TestServer } from './client';
import { startGateRepo } from './gateRepo';
import { cmdParamsCm } from '../helpers/clusters';
import { SERVICES, storyAppSet, storyRollout } from '../helpers/story';

const FILE = 'apps/services.yaml';
const TWO = SERVICES.slice(0, 2);
const PLAIN = storyAppSet('go', TWO);
const STEPS = [{ values: ['canary'] }, { values: ['low-traffic'], maxUpdate: 2 }, { values: ['high-traffic'], maxUpdate: 3 }];
const bump = (t: string) => t.replace('targetRevision: HEAD', 'targetRevision: v2');

let s: TestServer;
before(async () => {
  s = await startGateRepo(FILE, PLAIN);
});
after(async () => s?.shutdown());

const gate = (ds: Diagnostic[]) => ds.find((d) => d.code === 'policy/change-at-once');
const actionsFor = async (d: Diagnostic) =>
  ((await s.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: s.uriOf(FILE) },
    range: d.range,
    context: { diagnostics: [d] },
  })) ?? []) as CodeAction[];

test('no change: no gate finding; the revision bumped with no strategy: an error with the RollingSync quick fix', async () => {
  const ds = await s.open(FILE, PLAIN);
  assert.equal(gate(ds), undefined, JSON.stringify(ds.map((d) => d.code)));
  const after = await s.change(FILE, bump(PLAIN));
  const g = gate(after);
  assert.ok(g, JSON.stringify(after.map((d) => d.code)));
  assert.equal(g.severity, 1, 'an error');
  assert.equal(
    messageOf(g),
    'This change syncs 24 Applications on 12 clusters at the same time because the ApplicationSet has no RollingSync strategy, more than policy.maxChangeAtOnce (5) allows',
  );
  const titles = (await actionsFor(g)).map((a) => a.title);
  assert.ok(
    titles.some((t) => t.startsWith('Roll out by tier')),
    JSON.stringify(titles),
  );
});

test('the strategy ignored: the gate offers to enable progressive syncs; enabled and in small waves: no finding', async () => {
  const ds = await s.change(FILE, bump(storyRollout(STEPS, {}, TWO)));
  const g = gate(ds);
  assert.ok(g, JSON.stringify(ds.map((d) => d.code)));
  assert.match(messageOf(g), /because the RollingSync strategy is ignored \(progressive syncs are not enabled\)/);
  const titles = (await actionsFor(g)).map((a) => a.title);
  assert.ok(
    titles.some((t) => t.startsWith('Enable progressive syncs')),
    JSON.stringify(titles),
  );
  // The ConfigMap edited (unsaved): the largest wave is 3 Applications, within the policy.
  await s.open('argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('false'));
  await s.change('argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('true'));
  await s.eventually(FILE, (d) => !gate(d), 'the gate finding gone once progressive syncs are enabled');
});
