/**
 * Typing speed and bad input through the built server: debounced runs for bursts of edits (stale
 * versions are never validated), a 50,000-line ApplicationSet, hostile settings and requests for
 * documents or positions that do not exist. After each, the server still answers.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DidChangeTextDocumentNotification, HoverRequest, CodeLensRequest, CompletionRequest } from 'vscode-languageserver-protocol/node';
import { assertAnswersHover, messageOf, startServer, type TestServer } from './client';
import { appsetHead, flowTemplate, LOCAL } from '../helpers/appsets';

const APPSET = (elements: string) => `${appsetHead('many', { namespace: null })}  generators:
    - list:
        elements:
${elements}
${flowTemplate("'app-{{ .n }}'", "repoURL: https://example.com/r.git, targetRevision: main, path: 'apps/{{ .n }}'", `${LOCAL}, namespace: '{{ .ns }}'`)}`;
const elements = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `          - n: "${i}"\n            ns: team-${i % 7}\n            owner: team-${i % 7}\n            tier: t${i % 3}`,
  ).join('\n');

let s: TestServer;
before(async () => {
  s = await startServer({}, { validate: { debounceMs: 150 } });
});
after(async () => s?.shutdown());

const alive = () => assertAnswersHover(s, 'small.yaml', 5, 4);

test('a burst of keystrokes is validated once, for the last version', async () => {
  await s.setSettings({ validate: { debounceMs: 1500 } });
  await s.open('small.yaml', APPSET(elements(3)));
  const uri = s.uriOf('small.yaml');
  const final = s.diagnostics('small.yaml', 12);
  for (let v = 2; v <= 12; v++) {
    const text = APPSET(elements(3)).replace('name: many', `name: many${v}`) + (v === 12 ? '  bogus: 1\n' : '');
    await s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: v },
      contentChanges: [{ text }],
    });
  }
  const ds = await final;
  assert.deepEqual(
    ds.map((d) => d.code),
    ['appset/unknown-field'],
    'diagnostics of the last version',
  );
  // (Version 1 may be published twice: the settings refresh re-validates open documents.)
  const versions = s.published('small.yaml').map((p) => p.version);
  assert.deepEqual(
    versions.filter((v) => v !== 1),
    [12],
    `intermediate versions were never published: ${versions}`,
  );
  await alive();
});

test('a 50,000-line ApplicationSet is validated, capped and still leaves the server responsive', async () => {
  await s.setSettings({ validate: { debounceMs: 0 }, maxApplications: 5000 });
  const text = APPSET(elements(12_500));
  assert.ok(text.split('\n').length > 50_000);
  const t0 = Date.now();
  let ds = await s.open('huge.yaml', text);
  // The new settings travel through a workspace/configuration round trip; on a loaded machine the
  // open may be validated first with the old ones, then again when they arrive.
  while (!ds.some((d) => /5000/.test(messageOf(d))) && Date.now() - t0 < 60000) {
    await new Promise((r) => setTimeout(r, 50));
    ds = s.published('huge.yaml').at(-1)?.diagnostics ?? ds;
  }
  const ms = Date.now() - t0;
  const cap = ds.find((d) => /5000/.test(messageOf(d)));
  assert.ok(cap, `the cap is reported: ${JSON.stringify(ds.map((d) => [d.code, d.message]).slice(0, 5))}`);
  assert.ok(ms < 60000, `diagnostics in ${ms} ms (a hang guard; speed is measured by npm run bench)`);
  // Features on the huge document answer too.
  const lenses = await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('huge.yaml') } });
  assert.ok(Array.isArray(lenses));
  const items = await s.conn.sendRequest(CompletionRequest.type, {
    textDocument: { uri: s.uriOf('huge.yaml') },
    position: { line: 5, character: 2 },
  });
  assert.ok(items !== undefined);
  await s.close('huge.yaml');
  await alive();
});

test('hostile settings are read defensively', async () => {
  const repoMappings = JSON.parse('{"__proto__": {"polluted": "yes"}, "https://x/y.git": 42}') as unknown;
  await s.setSettings({ repoMappings, maxApplications: 'lots', inventoryFiles: 7, progressiveSyncs: { on: true }, validate: 'no' });
  const ds = await s.change('small.yaml', APPSET(elements(2)) + '  bogus: 1\n');
  assert.deepEqual(
    ds.map((d) => d.code),
    ['appset/unknown-field'],
    'defaults apply: validation on',
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  await alive();
});

test('requests for unknown documents and impossible positions get empty answers', async () => {
  const missing = 'file:///nowhere/missing.yaml';
  assert.equal(await s.conn.sendRequest('appsetTools/preview', { uri: missing }), null);
  assert.equal(await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: 'untitled:nothing' }), null);
  assert.equal(await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: missing }, position: { line: 0, character: 0 } }), null);
  const far = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('small.yaml') },
    position: { line: 99999, character: 99999 },
  });
  assert.ok(far === null || typeof far === 'object');
  const odd = await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('small.yaml'), offset: -5 });
  assert.ok(odd === null || typeof odd === 'object');
  await alive();
});
