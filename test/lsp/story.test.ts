/**
 * Issue 5's story through the language server, as an editor lives it: a 12-cluster × 45-service
 * matrix with tier labels on the cluster Secrets syncs 540 Applications at once; the quick fix
 * inserts a RollingSync strategy by tier; the controller has progressive syncs disabled, so the
 * strategy would be ignored; the second quick fix edits argocd-cmd-params-cm on disk (the client
 * writes it and its watcher reports the change); the plan is canary → low-traffic → high-traffic.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CodeActionRequest,
  CodeLensRequest,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type CodeAction,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { applyTextEdits, messageOf, startServer, type TestServer } from './client';
import { cmdParamsCm } from '../helpers/clusters';
import { storyAppSet, storySecrets } from '../helpers/story';
import { until } from '../helpers/guard';

const APPSET = storyAppSet('go');

let s: TestServer;
before(async () => {
  s = await startServer({ 'clusters/secrets.yaml': storySecrets(), 'argocd/argocd-cmd-params-cm.yaml': cmdParamsCm('false') });
});
after(async () => s?.shutdown());

const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code));
const actionsFor = async (d: Diagnostic) =>
  ((await s.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: s.uriOf('apps/services.yaml') },
    range: d.range,
    context: { diagnostics: [d] },
  })) ?? []) as CodeAction[];

test('540 Applications at once → RollingSync by tier → progressive syncs enabled', async () => {
  // 1. The blast radius of AllAtOnce.
  let ds = await s.open('apps/services.yaml', APPSET);
  assert.deepEqual(
    ds.filter((d) => d.severity === 1),
    [],
    'no errors',
  );
  const blast = ds.find((d) => d.code === 'rollout/blast-radius');
  assert.ok(blast, JSON.stringify(codes(ds)));
  assert.match(messageOf(blast), /540 Applications on 12 production clusters/);
  assert.equal(blast.severity, 2, 'production destinations make the blast radius a warning');
  let lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('apps/services.yaml') } })) ?? [];
  assert.ok(
    lenses.some((l) => l.command?.title === 'All at once: 540 apps on 12 clusters'),
    JSON.stringify(lenses.map((l) => l.command?.title)),
  );

  // 2. The quick fix inserts a strategy; the client applies its WorkspaceEdit to the open document.
  const fix = (await actionsFor(blast)).find((a) => a.title.startsWith('Roll out by tier: canary 1 → low-traffic 10 → high-traffic 10'));
  assert.ok(fix?.edit?.changes, 'a "Roll out by tier" quick fix with an edit');
  assert.equal(fix.kind, 'quickfix');
  assert.deepEqual(
    fix.diagnostics?.map((d) => d.code),
    ['rollout/blast-radius'],
  );
  const text = applyTextEdits(APPSET, fix.edit.changes[s.uriOf('apps/services.yaml')]);
  assert.match(
    text,
    /tier: '\{\{ index \.metadata\.labels "tier" \}\}'|tier: '\{\{index \.metadata\.labels "tier"\}\}'/,
    'the tier label is copied from the clusters',
  );
  ds = await s.change('apps/services.yaml', text);
  assert.deepEqual(
    ds.filter((d) => d.severity === 1),
    [],
    'the inserted strategy validates cleanly',
  );

  // 3. Disabled on the controller: a warning on `strategy`, linked to the ConfigMap.
  const warn = ds.find((d) => d.code === 'rollout/progressive-syncs-disabled');
  assert.ok(warn, JSON.stringify(codes(ds)));
  assert.equal(text.split('\n')[warn.range.start.line].slice(warn.range.start.character, warn.range.end.character), 'strategy');
  assert.match(messageOf(warn), /all 540 Applications sync at once/);
  assert.equal(warn.relatedInformation?.[0].location.uri, s.uriOf('argocd/argocd-cmd-params-cm.yaml'));

  // 4. Enable them in the ConfigMap: the edit targets a file that is not open.
  const enable = (await actionsFor(warn)).find(
    (a) => a.title === 'Enable progressive syncs: in argocd/argocd-cmd-params-cm.yaml (then restart the ApplicationSet controller)',
  );
  const cmUri = s.uriOf('argocd/argocd-cmd-params-cm.yaml');
  const cmEdits = enable?.edit?.changes?.[cmUri];
  assert.ok(cmEdits?.length, JSON.stringify(enable));
  const cmPath = join(s.workspace, 'argocd/argocd-cmd-params-cm.yaml');
  writeFileSync(cmPath, applyTextEdits(readFileSync(cmPath, 'utf8'), cmEdits));
  const before = s.published('apps/services.yaml').length;
  await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: cmUri, type: FileChangeType.Changed }] });
  await until(
    () => s.published('apps/services.yaml').length,
    (n) => n > before,
    () => 'the watched-file change re-validates apps/services.yaml',
  );
  ds = s.published('apps/services.yaml').at(-1)!.diagnostics;
  assert.deepEqual(
    codes(ds).filter((c) => c.startsWith('rollout/progressive-syncs')),
    [],
  );

  // 5. The plan: canary → low-traffic → high-traffic.
  lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('apps/services.yaml') } })) ?? [];
  const titles = lenses.map((l) => l.command?.title ?? '');
  assert.ok(titles.includes('3 steps · 540 apps · 95 waves'), titles.join('\n'));
  assert.ok(titles.includes('Enabled by argocd-cmd-params-cm.yaml:6'), titles.join('\n'));
  assert.ok(titles.includes('Step 2 · 180 apps · 10 at a time, 18 waves'), titles.join('\n'));
  const step2 = lenses.find((l) => l.command?.title === 'Step 2 · 180 apps · 10 at a time, 18 waves');
  assert.equal(step2?.command?.tooltip, 'Step 2 · tier In (low-traffic) · 180 apps · maxUpdate 10 → 10 at a time, 18 waves');
  const plan = (await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: s.uriOf('apps/services.yaml') })) as {
    enablement: { state: string };
    steps: { selector: string; apps: string[]; waves: unknown[] }[];
    unselected: string[];
  };
  assert.equal(plan.enablement.state, 'enabled');
  assert.deepEqual(
    plan.steps.map((x) => [x.selector, x.apps.length, x.waves.length]),
    [
      ['tier In (canary)', 45, 45],
      ['tier In (low-traffic)', 180, 18],
      ['tier In (high-traffic)', 315, 32],
    ],
  );
  assert.deepEqual(plan.unselected, []);
});
