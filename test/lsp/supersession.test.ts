/**
 * Which install runs a file, over LSP (install/supersession.ts): the status bar's data (fileInfo), the
 * rollout view's plan and the lens read the same install as `appset plan`: the one the repository deploys
 * (platform/argocd/), not the bootstrap applied from outside beside the ApplicationSet, whose "enabled"
 * would be a false green. Our own fixture, test/fixtures/installs/self-managed-bootstrap; its install.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';
import { repoRoot } from '../helpers/cli';

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'installs', 'self-managed-bootstrap');
const APPSET = 'argocd/appsets/shop.yaml';

function filesOf(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, filesOf(dir, r));
    else out[r] = fs.readFileSync(path.join(dir, r), 'utf8');
  }
  return out;
}

type FileInfo = { appsets: { name: string; enablement: { state: string; label: string; text: string; instance?: string } }[] };

let s: TestServer;
const files = filesOf(FIXTURE);
before(async () => {
  s = await startServer(files);
  await s.open(APPSET, files[APPSET]);
});
after(async () => s?.shutdown());

test('the status bar, the rollout view and the lens read the install the repository deploys, not the bootstrap beside the file', async () => {
  const info = (await s.conn.sendRequest('appsetTools/fileInfo', { uri: s.uriOf(APPSET) })) as FileInfo;
  const en = info.appsets[0].enablement;
  assert.equal(en.state, 'not-found');
  assert.equal(en.label, 'off');
  assert.match(en.text, /^Ignored: progressive syncs are off, so all 3 Applications sync at once/);
  assert.match(
    en.instance ?? '',
    /^platform\/argocd \(the repository deploys platform\/argocd\/ for namespace argocd, which replaces the bootstrap argocd\/bootstrap\//,
  );

  const plan = (await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: s.uriOf(APPSET) })) as {
    enablement: { state: string; notes?: string[]; instance?: { name: string } };
    verdict: { kind: string };
  };
  assert.equal(plan.verdict.kind, 'ignored');
  assert.equal(plan.enablement.instance?.name, 'platform/argocd');
  assert.ok(
    plan.enablement.notes?.some((n) =>
      /^Argo CD argocd\/bootstrap is a bootstrap applied from outside .*; it enables progressive syncs/.test(n),
    ),
    JSON.stringify(plan.enablement.notes),
  );

  const lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf(APPSET) } })) ?? [];
  assert.ok(
    lenses.some((l) => l.command?.title === 'Ignored · all 3 apps sync at once'),
    JSON.stringify(lenses.map((l) => l.command?.title)),
  );
});
