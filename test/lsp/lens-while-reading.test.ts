/**
 * The lenses count Applications and waves, as the preview and the plan do, so they are answered from
 * the whole workspace: new settings reset the server, which reads the workspace again in the background,
 * and a lens asked meanwhile must not count the Applications of cluster Secrets not read yet ("0 apps").
 * Seen in a real VS Code (test/vscode/suite/9zzz-impact.test.js) under a loaded full run.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { CodeLensRequest } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';
import { appsetHead, flowTemplate, LOCAL, rollingSyncBy } from '../helpers/appsets';
import { clusterSecrets } from '../helpers/clusters';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.shutdown();
});

const TIERS = ['canary', 'low', 'high'];
const APPSET = `${appsetHead('fleet')}  generators:
    - clusters:
        selector:
          matchLabels: {fleet: web}
${rollingSyncBy(
  'tier',
  TIERS.map((t) => ({ values: [t] })),
)}${flowTemplate("'web-{{ .name }}'", 'repoURL: https://example.com/r.git, targetRevision: main, path: apps', `${LOCAL}, namespace: web`, '      labels: {tier: \'{{ index .metadata.labels "tier" }}\'}\n')}`;

/** 300 other YAML files read before the cluster Secrets (the folder `zz/` comes last). */
function workspace(): Record<string, string> {
  const files: Record<string, string> = { 'appsets/fleet.yaml': APPSET };
  for (let i = 0; i < 300; i++)
    files[`config/part-${String(i).padStart(3, '0')}.yaml`] =
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: part-${i}\ndata:\n  key: "${i}"\n`;
  files['zz/clusters.yaml'] = clusterSecrets(
    Array.from({ length: 6 }, (_, i) => ({ name: `c${i}`, labels: { fleet: 'web', tier: TIERS[i % 3] } })),
  );
  return files;
}

test('a lens asked while new settings make the server read the workspace again counts every Application, never "0 apps"', async () => {
  const s = await startServer(workspace(), { progressiveSyncs: 'enabled' });
  servers.push(s);
  await s.open('appsets/fleet.yaml', APPSET);
  const lensTitles = async () =>
    ((await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('appsets/fleet.yaml') } })) ?? []).map(
      (l) => l.command?.title ?? '',
    );
  const plan = (titles: string[]) => titles.find((t) => /^3 steps · /.test(t));
  assert.equal(plan(await lensTitles()), '3 steps · 6 apps · 3 waves');
  for (let round = 0; round < 3; round++) {
    // New settings (another debounce each round): the server resets and reads the workspace again.
    await s.setSettings({ progressiveSyncs: 'enabled', validate: { debounceMs: round + 1 } });
    assert.equal(plan(await lensTitles()), '3 steps · 6 apps · 3 waves', `round ${round}`);
  }
});
