/**
 * A document's first answer since it was opened does not wait for the change gate (issue 39): the gate runs
 * git and analyses the file again at the baseline commit (about a second in a repository whose
 * .appset-tools.yaml sets `policy.maxChangeAtOnce`), so the document's own findings are published at once
 * and the gate's finding is added by a second publish of the same version. A change to the open document
 * is answered whole, the gate included. The built server over stdio, in a temporary git repository.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import type { TestServer } from './client';
import { startGateRepo } from './gateRepo';
import { until } from '../helpers/guard';
import { SERVICES, storyAppSet } from '../helpers/story';

const FILE = 'apps/services.yaml';
const PLAIN = storyAppSet('go', SERVICES.slice(0, 2));
/** The revision bumped (24 Applications synced at once, over the policy's 5) and a misspelt field of the document's own. */
const CHANGED = PLAIN.replace('targetRevision: HEAD', 'targetRevision: v2').replace(
  '      project: default\n',
  '      project: default\n      projct: typo\n',
);

let s: TestServer;
before(async () => {
  s = await startGateRepo(FILE, PLAIN);
});
after(async () => s?.shutdown());

const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code)).sort();

test("the first answer: the document's own finding at once, the change gate's added for the same version", async () => {
  assert.notEqual(CHANGED, PLAIN);
  assert.ok(CHANGED.includes('projct: typo'));
  const first = await s.open(FILE, CHANGED);
  assert.ok(codes(first).includes('appset/unknown-field'), `the first publish has the misspelt field: ${codes(first)}`);
  assert.ok(!codes(first).includes('policy/change-at-once'), 'the first publish did not wait for git');
  const opened = await until(
    () => s.published(FILE).filter((p) => p.version === 1),
    (h) => h.length >= 2,
    () => `a second publish with the gate: ${JSON.stringify(s.published(FILE).map((p) => codes(p.diagnostics)))}`,
  );
  assert.deepEqual(
    codes(opened[1].diagnostics),
    codes([...first, ...opened[1].diagnostics.filter((d) => d.code === 'policy/change-at-once')]),
  );
  assert.ok(codes(opened[1].diagnostics).includes('policy/change-at-once'), 'the gate added, the rest kept');
  // An edit is answered whole at once, the gate included.
  const edited = await s.change(FILE, CHANGED.replace('projct: typo', 'projct: typo2'));
  assert.deepEqual(codes(edited), codes(opened[1].diagnostics));
});
