/**
 * The incident path through the language server: a RollingSync for an Argo CD whose configuration
 * is not in the repository (the one in argocd/ runs another namespace). The quick fix creates the
 * ConfigMap (a CreateFile WorkspaceEdit); once the file exists the server says it is written but not
 * deployed, and once a kustomization deploys it, enabled (resultsChanged, appsetTools/fileInfo, lenses), the preview shows automated.enabled: false as the controller writes it,
 * and the rollout view's plan carries destinations, sources and the step under the cursor.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  CodeActionRequest,
  CodeLensRequest,
  ExecuteCommandRequest,
  type CodeAction,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { messageOf, startServer, type TestServer } from './client';
import { cmdParamsCm } from '../helpers/clusters';
import { appsetHead, flowTemplate, rollingSyncBy } from '../helpers/appsets';
import { until } from '../helpers/guard';

const CM = cmdParamsCm('true', 'argocd');
const APPSET = `${appsetHead('shop', { namespace: 'argocd-prod' })}  generators:
  - list:
      elements:
      - {cluster: c1, tier: canary}
      - {cluster: c2, tier: high}
      - {cluster: c3, tier: high}
${rollingSyncBy('tier', [{ values: ['canary'] }, { values: ['high'] }], { compact: true })}${flowTemplate(
  "'shop-{{.cluster}}'",
  'repoURL: https://example.com/shop.git, path: deploy',
  "server: 'https://{{.cluster}}.example.com', namespace: shop",
  "      labels: {tier: '{{.tier}}'}\n",
)}      syncPolicy: {automated: {prune: true}}
`;

let s: TestServer;
const resultsChanged: number[] = [];
const logs: string[] = [];
const shown: { uri: string }[] = [];
before(async () => {
  s = await startServer({ 'argocd/argocd-cmd-params-cm.yaml': CM });
  s.conn.onNotification('appsetTools/resultsChanged', () => void resultsChanged.push(Date.now()));
  s.conn.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
  s.conn.onRequest('window/showDocument', (p: { uri: string }) => {
    shown.push(p);
    return { success: true };
  });
});
after(async () => s?.shutdown());

type FileInfo = {
  appsets: {
    name: string;
    rollingSync: boolean;
    enablement: { state: string; text: string; file?: string; offset?: number; instance?: string };
  }[];
};
const fileInfo = () => s.conn.sendRequest('appsetTools/fileInfo', { uri: s.uriOf('prod/shop.yaml') }) as Promise<FileInfo>;

test('not found → the fix creates the ConfigMap → enabled, by which file', async () => {
  const ds = await s.open('prod/shop.yaml', APPSET);
  const warn = ds.find((d) => d.code === 'rollout/progressive-syncs-not-found') as Diagnostic;
  assert.ok(warn, JSON.stringify(ds.map((d) => d.code)));
  assert.match(messageOf(warn), /^Ignored: progressive syncs are off, so all 3 Applications sync at once/);
  assert.ok(
    warn.relatedInformation?.some((r) => /^searched for this ApplicationSet: ConfigMap argocd-cmd-params-cm/.test(r.message)),
    JSON.stringify(warn.relatedInformation),
  );
  let info = await fileInfo();
  assert.deepEqual(
    info.appsets.map((a) => [a.name, a.rollingSync, a.enablement.state]),
    [['shop', true, 'not-found']],
  );
  assert.match(info.appsets[0].enablement.text, /^Ignored: progressive syncs are off, so all 3 Applications sync at once/);
  const before = (await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('prod/shop.yaml') })) as { yaml: string };
  assert.doesNotMatch(before.yaml, /enabled: false/, 'progressive syncs off: auto-sync stays as written');

  const actions = ((await s.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: s.uriOf('prod/shop.yaml') },
    range: warn.range,
    context: { diagnostics: [warn] },
  })) ?? []) as CodeAction[];
  const create = actions.find(
    (a) => a.title === 'Enable progressive syncs: create prod/argocd-cmd-params-cm.yaml (then restart the ApplicationSet controller)',
  );
  assert.ok(create?.edit?.documentChanges, JSON.stringify(actions.map((a) => a.title)));
  const [op, edit] = create.edit.documentChanges as [
    { kind: string; uri: string },
    { textDocument: { uri: string }; edits: { newText: string }[] },
  ];
  assert.deepEqual([op.kind, op.uri], ['create', s.uriOf('prod/argocd-cmd-params-cm.yaml')]);
  assert.equal(edit.textDocument.uri, s.uriOf('prod/argocd-cmd-params-cm.yaml'));
  const text = edit.edits[0].newText;
  assert.match(text, /namespace: argocd-prod\n/);
  assert.ok(actions.some((a) => a.title === 'I have enabled it outside this repository (sets appsetTools.progressiveSyncs to "enabled")'));

  // The editor applies it: the file appears on disk and the watcher reports it.
  const seen = resultsChanged.length;
  await s.writeFile('prod/argocd-cmd-params-cm.yaml', text);
  await until(
    () => resultsChanged.length,
    (n) => n > seen,
    () => 'the server tells the views to refresh',
  );
  // Written, but nothing deploys prod/ (no kustomization, Application or Flux Kustomization): not
  // "enabled" yet — the status bar and the lens say what is missing and that a restart follows.
  const notDeployed =
    /^Not deployed yet: prod\/argocd-cmd-params-cm\.yaml is written but not deployed: no kustomization lists it and no Application or Flux Kustomization deploys prod\/ .*restart it after the change\)\. Until then, progressive syncs are off, so all 3 Applications sync at once/;
  let last: FileInfo | undefined;
  info = await until(
    fileInfo,
    (i) => ((last = i), notDeployed.test(i.appsets[0].enablement.text)),
    () => `enablement: ${JSON.stringify(last?.appsets[0].enablement)}`,
  );
  assert.equal(info.appsets[0].enablement.state, 'not-found');
  const pending = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('prod/shop.yaml') } })) ?? [];
  // The lens says it within 40 characters; the whole sentence is its tooltip.
  assert.ok(
    pending.some((l) => l.command?.title === 'Not deployed yet · 3 apps at once' && notDeployed.test(l.command?.tooltip ?? '')),
    JSON.stringify(pending.map((l) => l.command)),
  );
  // The user deploys it with the ApplicationSet's folder: now the install reads it.
  await s.writeFile('prod/kustomization.yaml', 'resources:\n  - shop.yaml\n  - argocd-cmd-params-cm.yaml\n');
  info = await until(
    fileInfo,
    (i) => ((last = i), i.appsets[0].enablement.state === 'enabled'),
    () => `enablement: ${JSON.stringify(last?.appsets[0].enablement)}`,
  );
  const en = info.appsets[0].enablement;
  assert.equal(en.state, 'enabled');
  assert.equal(en.text, 'Progressive syncs enabled by prod/argocd-cmd-params-cm.yaml:13');
  assert.equal(en.instance, 'prod (installed beside it in prod/ for namespace argocd-prod)');
  const lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('prod/shop.yaml') } })) ?? [];
  const enabledLens = lenses.find((l) => l.command?.title === 'Enabled by argocd-cmd-params-cm.yaml:13');
  assert.ok(enabledLens, JSON.stringify(lenses.map((l) => l.command?.title)));
  assert.equal(enabledLens.command?.command, 'appsetTools.openLocation');

  // The lens opens the file at that line through window/showDocument.
  const opened = await s.conn.sendRequest(ExecuteCommandRequest.type, {
    command: 'appsetTools.openLocation',
    arguments: enabledLens.command?.arguments,
  });
  assert.equal(opened, s.uriOf('prod/argocd-cmd-params-cm.yaml'));
  await until(
    () => shown.length,
    (n) => n > 0,
    () => 'window/showDocument was sent',
  );
  assert.equal(shown[0]?.uri, s.uriOf('prod/argocd-cmd-params-cm.yaml'));

  // What the controller writes under an active RollingSync: auto-sync off, prune kept.
  const preview = (await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('prod/shop.yaml') })) as { yaml: string };
  assert.match(preview.yaml, /# RollingSync is active: the controller writes syncPolicy\.automated\.enabled: false on every Application/);
  assert.match(preview.yaml, /automated:\n\s+prune: true\n\s+enabled: false\n/);
  const ds2 = s.published('prod/shop.yaml').at(-1)!.diagnostics;
  const note = ds2.find((d) => d.code === 'rollout/automated-disabled');
  assert.match(messageOf(note!), /writes automated\.enabled: false on every generated Application \(the preview shows it\)/);
});

test('the rollout view plan: destinations, sources and the step under the cursor', async () => {
  const offset = APPSET.indexOf('values: [high]');
  const plan = (await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: s.uriOf('prod/shop.yaml'), offset })) as {
    focusStep?: number;
    apps: Record<string, { destination: string; source?: { file: string; offset: number; label: string } }>;
  };
  assert.equal(plan.focusStep, 2);
  assert.equal(plan.apps['shop-c2'].destination, 'https://c2.example.com / shop');
  assert.equal(plan.apps['shop-c2'].source?.label, 'list element 1');
  assert.equal(APPSET.slice(plan.apps['shop-c2'].source!.offset).startsWith('{cluster: c2'), true);
});

test('an AppProject deny window on the high tier: rollout/sync-window on step 2, pointing at the window; the plan carries it', async () => {
  const seen = resultsChanged.length;
  const project = `apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata:
  name: default
  namespace: argocd-prod
spec:
  syncWindows:
  - kind: deny
    schedule: "0 22 * * *"
    duration: 8h
    applications: ["shop-c3"]
`;
  await s.writeFile('prod/project.yaml', project);
  await until(
    () => resultsChanged.length,
    (n) => n > seen,
    () => 'the server tells the views to refresh',
  );
  const win = (
    await s.eventually(
      'prod/shop.yaml',
      (ds) => ds.some((d) => d.code === 'rollout/sync-window'),
      'the server re-checks the open ApplicationSet when the AppProject appears on disk',
    )
  ).find((d) => d.code === 'rollout/sync-window')!;
  assert.equal(win.severity, 2);
  assert.equal(
    win.range.start.line,
    APPSET.slice(0, APPSET.indexOf('- matchExpressions: [{key: tier, operator: In, values: [high]')).split('\n').length - 1,
  );
  assert.match(
    messageOf(win),
    /^Step 2 can stall in a sync window: AppProject default's deny window "0 22 \* \* \*" for 8h \(prod\/project\.yaml:8\) keeps 1 of its 2 Applications \(shop-c3\) from syncing while it is active\. .*each parked one stays Progressing, so the step cannot complete until the window lets them run\./,
  );
  assert.equal(win.relatedInformation?.[0].location.uri, s.uriOf('prod/project.yaml'));
  assert.equal(win.relatedInformation?.[0].location.range.start.line, 7);
  const plan = (await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: s.uriOf('prod/shop.yaml') })) as {
    steps: { syncWindows?: { project: string; apps: string[]; where: string }[] }[];
  };
  assert.deepEqual(
    plan.steps.map((st) => st.syncWindows?.map((w) => `${w.project} ${w.where} ${w.apps.join(',')}`)),
    [undefined, ['default prod/project.yaml:8 shop-c3']],
  );
});

test('.appset-tools.yaml instances: a mapping to another configuration decides for the server too', async () => {
  await s.writeFile('elsewhere/params.yaml', CM.replace('"true"', '"false"'));
  await s.writeFile('.appset-tools.yaml', 'instances:\n  shop-prod:\n    applicationSets: [prod/]\n    config: [elsewhere]\n');
  const info = await until(
    fileInfo,
    (i) => i.appsets[0].enablement.state === 'disabled',
    () => 'the mapped configuration disables them',
  );
  assert.equal(info.appsets[0].enablement.state, 'disabled');
  assert.equal(info.appsets[0].enablement.instance, 'shop-prod (mapped in .appset-tools.yaml instances ("shop-prod"))');
  assert.match(
    info.appsets[0].enablement.text,
    /^Ignored: progressive syncs are off, so all 3 Applications sync at once \(elsewhere\/params\.yaml:7\)/,
  );
});
