// A file deleted on disk while its tab stays open (issue 37): the tab's text is not the repository. The
// enabling ConfigMap deleted with its tab open turns "enabled" off at once, everywhere the server answers
// (diagnostics, lenses, the status bar's fileInfo); written again, it counts again; the tab still open all along.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CodeLensRequest } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';
import { clusterSecret, cmdParamsCm } from '../helpers/clusters';
import { appsetHead, flowTemplate, rollingSyncBy, TIER_LABEL } from '../helpers/appsets';

const APPSET = `${appsetHead('fleet', { namespace: 'argocd' })}  generators:
    - clusters: {}
${rollingSyncBy('tier', [{ values: ['canary'] }, { values: ['prod'] }])}${flowTemplate(
  "'guestbook-{{ .name }}'",
  'repoURL: https://example.com/gb.git, targetRevision: main, path: guestbook',
  "server: '{{ .server }}', namespace: guestbook",
  TIER_LABEL,
)}`;
const CM_FILE = 'argocd/argocd-cmd-params-cm.yaml';

let s: TestServer;
before(async () => {
  s = await startServer({
    'clusters/c1.yaml': clusterSecret({ name: 'c1', secretName: 'c1', labels: { tier: 'canary' } }),
    [CM_FILE]: cmdParamsCm('true', 'argocd'),
  });
  await s.open('fleet.yaml', APPSET);
});
after(async () => s?.shutdown());

const progressive = (ds: { code?: unknown }[]) => ds.filter((d) => String(d.code).startsWith('rollout/progressive-syncs'));
async function verdict() {
  const lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('fleet.yaml') } })) ?? [];
  const info = (await s.conn.sendRequest('appsetTools/fileInfo', { uri: s.uriOf('fleet.yaml') })) as {
    appsets: { enablement: { state: string; label: string; text: string } }[];
  };
  return {
    lens: lenses.map((l) => l.command?.title ?? '').find((t) => /^(Enabled|Ignored|Not deployed)/.test(t)),
    info: info.appsets[0].enablement,
  };
}

test('an enabling ConfigMap deleted on disk while its tab is open is no longer "enabled"; written again, it is', async () => {
  await s.eventually('fleet.yaml', (ds) => progressive(ds).length === 0, 'enabled by the ConfigMap on disk');
  // The user opens the ConfigMap, then a git checkout deletes it; the tab stays open with its text.
  await s.open(CM_FILE, cmdParamsCm('true', 'argocd'));
  assert.match((await verdict()).lens ?? '', /^Enabled by argocd-cmd-params-cm\.yaml:\d+$/);
  await s.removeFile(CM_FILE);
  await s.eventually(
    'fleet.yaml',
    (ds) => progressive(ds).some((d) => d.code === 'rollout/progressive-syncs-not-found'),
    'off once the file is gone',
  );
  const off = await verdict();
  assert.match(off.lens ?? '', /^Ignored · /);
  assert.equal(off.info.state, 'not-found');
  assert.equal(off.info.label, 'off');
  assert.doesNotMatch(off.info.text, /argocd-cmd-params-cm/);
  // An edit in the tab of the deleted file changes nothing: it is not on disk.
  await s.change(CM_FILE, cmdParamsCm('true', 'argocd') + '# still here\n');
  assert.match((await verdict()).lens ?? '', /^Ignored · /);

  // Saved again (the file is back on disk): the tab's text counts again.
  await s.writeFile(CM_FILE, cmdParamsCm('true', 'argocd'));
  await s.eventually('fleet.yaml', (ds) => progressive(ds).length === 0, 'enabled again once the file is back');
  assert.match((await verdict()).lens ?? '', /^Enabled by argocd-cmd-params-cm\.yaml:\d+$/);
  // While it is on disk, an unsaved edit in its tab counts, as before.
  await s.change(CM_FILE, cmdParamsCm('false', 'argocd'));
  await s.eventually(
    'fleet.yaml',
    (ds) => progressive(ds).some((d) => d.code === 'rollout/progressive-syncs-disabled'),
    'the unsaved "false" counts',
  );
});
