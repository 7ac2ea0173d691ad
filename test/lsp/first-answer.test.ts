/**
 * The first answer on a very long file (engine/service/firstPass.ts): the documents that can hold
 * more than YAML syntax findings answer first, and the whole file's answer follows for the same
 * version, so a syntax error in a ConfigMap thousands of lines down is never lost. A large
 * ApplicationSet just opened is answered once, whole: its first publish holds the expansion's findings
 * (an error deep in a list is never hidden behind an empty first answer).
 * Assertions are about what is published and in which order, never about time.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { HANG_GUARD_MS, startServer, type TestServer } from './client';
import { appsetHead, flowTemplate, LOCAL, longListAppSet } from '../helpers/appsets';
import { clusterSecret } from '../helpers/clusters';
import { until } from '../helpers/guard';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRST_PASS_MIN_CHARS } from '@appset-tools/engine';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.shutdown();
});

/** An ApplicationSet whose template has an unknown field (one finding), then `n` ConfigMaps. */
function bundle(n: number, brokenAt: number): string {
  const appset = `${appsetHead('web', { namespace: null })}  generators:
    - list:
        elements: [{env: dev}, {env: prod}]
${flowTemplate("'web-{{ .env }}'", 'repoURL: https://example.com/r.git, targetRevision: main, path: apps', `${LOCAL}, namespace: web`).replace('      project: default\n', '      project: default\n      projct: typo\n')}`;
  const maps = Array.from({ length: n }, (_, i) =>
    i === brokenAt
      ? `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${i}\ndata: {key: "unterminated}\n  other: [1, 2\n`
      : `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${i}\n  namespace: platform\ndata:\n${Array.from({ length: 8 }, (_, j) => `  key-${j}.properties: "value ${i}-${j} with some text"`).join('\n')}\n`,
  );
  return [appset, ...maps].join('---\n');
}

test('a very long file: the ApplicationSet answers first, then the whole file with the syntax error far below, for the same version', async () => {
  const text = bundle(1200, 1100);
  assert.ok(text.length > FIRST_PASS_MIN_CHARS, `long enough for a first pass (${text.length})`);
  const s = await startServer();
  servers.push(s);
  const first = await s.open('bundle.yaml', text);
  const codes = (ds: { code?: string | number }[]) => ds.map((d) => String(d.code)).sort();
  assert.deepEqual(codes(first), ['appset/unknown-field'], 'the first answer: the ApplicationSet only');
  // The second publish (the whole file), from the history: it may arrive in the same read as the first.
  const guard = Date.now() + HANG_GUARD_MS;
  while (s.published('bundle.yaml').length < 2 && Date.now() < guard) await new Promise((r) => setTimeout(r, 20));
  const [one, two] = s.published('bundle.yaml');
  assert.deepEqual([one?.version, two?.version], [1, 1], 'both answers are for the opened version');
  const whole = two.diagnostics;
  assert.ok(codes(whole).includes('appset/unknown-field'), JSON.stringify(codes(whole)));
  assert.ok(
    whole.some((d) => d.code === 'yaml/syntax' && d.range.start.line > 10000),
    `the ConfigMap's syntax error: ${JSON.stringify(whole.map((d) => [d.code, d.range.start.line]))}`,
  );
  // An edit is answered whole at once (the first pass is for the first answer only).
  const edited = await s.change('bundle.yaml', text.replace('projct: typo', 'project2: typo'));
  assert.ok(edited.some((d) => d.code === 'yaml/syntax'));
});

test('a short file is answered once, whole', async () => {
  const text = bundle(20, 10);
  assert.ok(text.length < FIRST_PASS_MIN_CHARS);
  const s = await startServer();
  servers.push(s);
  const first = await s.open('small.yaml', text);
  assert.ok(first.some((d) => d.code === 'yaml/syntax'));
  assert.ok(first.some((d) => d.code === 'appset/unknown-field'));
});

test('a large ApplicationSet just opened: the first publish is the whole answer, with what only the expansion finds, and it is not sent twice', async () => {
  // 700 list elements (over 32 KiB), an unknown field (schema) and two elements rendering one name
  // (a finding of the expansion).
  const text = longListAppSet(700)
    .replace('      project: default\n', '      project: default\n      projct: typo\n')
    .replace('          - name: e6\n', '          - name: e5\n');
  assert.ok(text.length >= 32 * 1024, `${text.length}`);
  const s = await startServer();
  servers.push(s);
  const codes = (ds: { code?: string | number }[]) => ds.map((d) => String(d.code)).sort();
  const first = await s.open('long.yaml', text);
  assert.deepEqual(codes(first), ['appset/unknown-field', 'generator/duplicate-name', 'rollout/blast-radius']);
  // The same text again (an edit): answered once, with what the open's answer said.
  const again = await s.change('long.yaml', text);
  assert.deepEqual(again, first);
  // Every publish of the opened version differs from the one before it (the workspace's re-validation
  // sends nothing when it changes nothing).
  const opened = s.published('long.yaml').filter((p) => p.version === 1);
  for (let i = 1; i < opened.length; i++) assert.notDeepEqual(opened[i].diagnostics, opened[i - 1].diagnostics);
});

test("a cluster generator opened before the workspace is read: the document's findings at once, the cluster Secrets' follow once it is read", async () => {
  // Two cluster Secrets: one fixed Application name for each cluster is a duplicate only they make;
  // the misspelt field is the document's own.
  const text = `${appsetHead('fleet')}  generators:
    - clusters:
        selector:
          matchLabels: {env: prod}
${flowTemplate('web', 'repoURL: https://example.com/r.git, targetRevision: main, path: apps', `${LOCAL}, namespace: web`).replace('      project: default\n', '      project: default\n      projct: typo\n')}`;
  // More files than the server reads before its first answer (lsp/handlers/publish.ts SMALL_WORKSPACE_FILES).
  const files: Record<string, string> = Object.fromEntries(
    Array.from({ length: 80 }, (_, i) => [
      `apps/app-${String(i).padStart(2, '0')}/config.yaml`,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${i}\n`,
    ]),
  );
  files['zz-clusters/a.yaml'] = clusterSecret({ name: 'a', labels: { env: 'prod' } });
  files['zz-clusters/b.yaml'] = clusterSecret({ name: 'b', labels: { env: 'prod' } });
  const s = await startServer(files);
  servers.push(s);
  const codes = (ds: { code?: string | number }[]) => ds.map((d) => String(d.code)).sort();
  const first = await s.open('fleet.yaml', text);
  assert.deepEqual(codes(first), ['appset/unknown-field'], "the first publish: the document's own finding, nothing claimed about clusters");
  const all = await until(
    () => s.published('fleet.yaml').filter((p) => p.version === 1),
    (h) => h.length >= 2,
    () => `a second publish once the workspace is read: ${JSON.stringify(s.published('fleet.yaml').map((p) => codes(p.diagnostics)))}`,
  );
  assert.deepEqual(codes(all[1].diagnostics), ['appset/unknown-field', 'generator/duplicate-name'], "the cluster Secrets' finding added");
});

test('settings that did not change reset nothing: the pull after start-up and a repeated announcement keep every analysis and the workspace index', async () => {
  const s = await startServer({}, {}, { env: { APPSET_TOOLS_TEST_REQUESTS: '1' } });
  servers.push(s);
  // Answer workspace/configuration here, counting the answers (a reset happens when one is applied).
  let current: Record<string, unknown> = { validate: { debounceMs: 0 } };
  let answered = 0;
  s.conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => {
    answered++;
    return p.items.map(() => current);
  });
  await s.open('a.yaml', bundle(2, -1));
  const version = async () => (await s.conn.sendRequest<{ version: number }>('appsetTools/test/index')).version;
  /** Announces settings and waits until the server has pulled them (its next message sees them applied). */
  const announce = async (next: Record<string, unknown>) => {
    const before = answered;
    current = next;
    await s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { appsetTools: next } });
    const guard = Date.now() + HANG_GUARD_MS;
    while (answered === before && Date.now() < guard) await new Promise((r) => setTimeout(r, 10));
    assert.ok(answered > before, 'the server pulled the settings');
  };
  const v0 = await version();
  await announce({ validate: { debounceMs: 0 } });
  assert.equal(await version(), v0, 'the same settings: nothing was reset');
  await announce({ validate: { debounceMs: 0 }, maxApplications: 999 });
  assert.ok((await version()) > v0, 'new settings reset the workspace index');
});

test('a second session on a large workspace: the files the first found to matter (the Argo CD install) are read before its first answer, which is the whole one', async () => {
  // The install (a remote base of Argo CD 3.1.0) changes the text of a template error: the newest release
  // names the template differently. Under `missingkey=error`, one element lacks the key the name reads.
  const text = `${appsetHead('web', { options: '["missingkey=error"]' })}  generators:
    - list:
        elements: [{env: dev, team: a}, {env: prod}]
${flowTemplate("'web-{{ .env }}-{{ .team }}'", 'repoURL: https://example.com/r.git, targetRevision: main, path: apps', `${LOCAL}, namespace: web`)}`;
  // More files than the server reads before its first answer (lsp/handlers/publish.ts SMALL_WORKSPACE_FILES),
  // even when the probe cache knows they do not matter (WorkspaceIndex CACHE_SKIPS_PER_FILE); the install's
  // folder comes last in the listing.
  const files: Record<string, string> = Object.fromEntries(
    Array.from({ length: 700 }, (_, i) => [
      `apps/group-${i % 10}/config-${String(i).padStart(3, '0')}.yaml`,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${i}\n`,
    ]),
  );
  files['zz-argocd/kustomization.yaml'] =
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\nresources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v3.1.0/manifests/install.yaml\n';
  const workspace = mkdtempSync(join(tmpdir(), 'appset-lsp-'));
  const cache = mkdtempSync(join(tmpdir(), 'appset-cache-'));
  after(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });
  const messages = (ds: { message: unknown }[]) => ds.map((d) => d.message);
  // The first session: the install is found by the background read, and the error's text changes then.
  const one = await startServer(files, {}, { workspace, env: { APPSET_CACHE_DIR: cache } });
  servers.push(one);
  const first = await one.open('web.yaml', text);
  const all = await until(
    () => one.published('web.yaml').filter((p) => p.version === 1),
    (h) => h.length >= 2,
    () => `a second publish once the workspace is read: ${JSON.stringify(one.published('web.yaml').map((p) => messages(p.diagnostics)))}`,
  );
  const whole = all[all.length - 1].diagnostics;
  assert.equal(whole.length, 1, JSON.stringify(messages(whole)));
  assert.notDeepEqual(messages(first), messages(whole), 'the install changes the error (else this test proves nothing)');
  await one.shutdown();
  // The second session reads the install before its first answer: that answer is the whole one.
  const two = await startServer({}, {}, { workspace, env: { APPSET_CACHE_DIR: cache } });
  servers.push(two);
  assert.deepEqual(messages(await two.open('web.yaml', text)), messages(whole));
});
