/**
 * The built language server over stdio, driven by a real LSP client (see client.ts).
 * Run `node esbuild.js` first (npm test does).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { HoverRequest, CodeLensRequest, CodeActionRequest, CompletionRequest, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { startServer, serverPath, type TestServer } from './client';
import { appsetHead, listOf, rollingSyncBy } from '../helpers/appsets';

// maxUpdates: the misspelt field the first test expects reported.
const APPSET = `${appsetHead('guestbook')}  generators:
${listOf([{ env: 'dev' }, { env: 'prod' }])}${rollingSyncBy('env', [{ values: ['dev'], maxUpdate: 1 }, { values: ['prod'] }], { block: true }).replace('maxUpdate:', 'maxUpdates:')}  template:
    metadata:
      name: 'guestbook-{{ .env }}'
      labels:
        env: '{{ .env }}'
    spec:
      project: default
      source:
        repoURL: https://github.com/argoproj/argocd-example-apps.git
        targetRevision: HEAD
        path: guestbook
      destination:
        server: https://kubernetes.default.svc
        namespace: 'guestbook-{{ .env }}'
`;

let s: TestServer;
before(async () => {
  assert.ok(existsSync(serverPath), 'dist/server.js is missing: run `node esbuild.js`');
  s = await startServer();
});
after(async () => s?.shutdown());

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length - 1;

test('an unknown field is reported on its key, with code, source and a did-you-mean', async () => {
  const ds = await s.open('appset.yaml', APPSET);
  const d = ds.find((x) => x.code === 'appset/unknown-field');
  assert.ok(d, `got ${JSON.stringify(codes(ds))}`);
  assert.equal(d.source, 'appset');
  assert.equal(d.severity, 1);
  assert.match(String(d.message), /unknown field "maxUpdates".*did you mean "maxUpdate"\?/);
  const line = lineOf(APPSET, 'maxUpdates');
  assert.deepEqual(d.range, { start: { line, character: 10 }, end: { line, character: 20 } });
});

test('diagnostics follow edits, and other YAML files get none', async () => {
  const fixed = APPSET.replace('maxUpdates', 'maxUpdate');
  const ds = await s.change('appset.yaml', fixed);
  assert.ok(!codes(ds).includes('appset/unknown-field'), JSON.stringify(codes(ds)));
  const other = await s.open('configmap.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  unknownField: 1\n');
  assert.deepEqual(other, []);
});

test('a YAML syntax error is a diagnostic at its position', async () => {
  const broken = APPSET.replace("      name: 'guestbook-{{ .env }}'", "      name: 'guestbook-{{ .env }}\n      bad: [");
  const ds = await s.open('broken.yaml', broken);
  const d = ds.find((x) => x.code === 'yaml/syntax');
  assert.ok(d, JSON.stringify(ds));
  assert.ok(d.range.start.line >= lineOf(broken, "name: 'guestbook-{{"), `at line ${d.range.start.line}`);
});

test('hostile documents never kill the server', async () => {
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 0; i < 9; i++)
    bomb.push(
      `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
    );
  const bombDoc = `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: bomb}\nspec:\n  x:\n${bomb.map((l) => '    ' + l).join('\n')}\n`;
  const t0 = Date.now();
  const ds = await s.open('bomb.yaml', bombDoc);
  assert.ok(ds.length > 0, 'the alias bomb is reported');
  assert.ok(Date.now() - t0 < 60000, 'and without hanging');
  const proto = APPSET.replace(
    '          - env: prod',
    '          - env: prod\n            __proto__: {polluted: true}\n            constructor: {prototype: {polluted: true}}',
  );
  await s.open('proto.yaml', proto);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const huge = APPSET + Array.from({ length: 20000 }, (_, i) => `# line ${i}`).join('\n') + '\n';
  await s.open('huge.yaml', huge);
  await s.open('garbage.yaml', 'kind: ApplicationSet\n\t\u0000 ::: [[[ {{{ \n');
  // Still alive and answering.
  const h = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('appset.yaml') },
    position: { line: 6, character: 4 },
  });
  assert.ok(h, 'hover still answers');
  assert.equal(s.proc.exitCode, null);
});

test('hover explains a field', async () => {
  const h = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('appset.yaml') },
    position: { line: lineOf(APPSET, 'goTemplate'), character: 4 },
  });
  assert.ok(h);
  const md = typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : JSON.stringify(h.contents);
  assert.match(md, /goTemplate/);
});

test('code lenses over the RollingSync strategy and its steps', async () => {
  const lenses = await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('appset.yaml') } });
  assert.ok(lenses && lenses.length >= 3, JSON.stringify(lenses));
  const titles = lenses.map((l) => l.command?.title ?? '');
  // A step's lens says what matters within 40 characters; the whole description is its tooltip.
  const step1 = lenses.find((l) => /^Step 1 · /.test(l.command?.title ?? ''));
  assert.ok(step1 && step1.command!.title.length <= 40, JSON.stringify(titles));
  assert.match(step1.command!.tooltip ?? '', /^Step 1 · env In \(dev\) · /);
  assert.ok(
    titles.some((t) => /2 steps/.test(t)),
    JSON.stringify(titles),
  );
});

test('the did-you-mean quick fix comes back with an edit', async () => {
  const ds = await s.change('appset.yaml', APPSET);
  const d = ds.find((x) => x.code === 'appset/unknown-field')!;
  const actions = await s.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: s.uriOf('appset.yaml') },
    range: d.range,
    context: { diagnostics: [d], only: ['quickfix'] },
  });
  const fix = (actions ?? []).find((a) => 'title' in a && a.title === 'Change to "maxUpdate"');
  assert.ok(fix && 'edit' in fix && fix.edit?.changes, JSON.stringify(actions));
  const edits = fix.edit!.changes![s.uriOf('appset.yaml')];
  assert.deepEqual(
    edits.map((e) => e.newText),
    ['maxUpdate'],
  );
  assert.deepEqual(edits[0].range, d.range);
});

test('completion offers field names', async () => {
  const text = APPSET.replace('  goTemplate: true\n', '  goTemplate: true\n  goT\n');
  await s.change('appset.yaml', text);
  const line = lineOf(text, '  goT\n');
  const items = await s.conn.sendRequest(CompletionRequest.type, {
    textDocument: { uri: s.uriOf('appset.yaml') },
    position: { line, character: 5 },
  });
  const labels = (Array.isArray(items) ? items : (items?.items ?? [])).map((i) => i.label);
  assert.ok(labels.includes('goTemplateOptions'), JSON.stringify(labels.slice(0, 30)));
  await s.change('appset.yaml', APPSET);
});

test('custom requests: preview text and rollout plan', async () => {
  const preview = (await s.conn.sendRequest('appsetTools/preview', { uri: s.uriOf('appset.yaml') })) as {
    yaml: string;
    apps: number;
  } | null;
  assert.ok(preview, 'preview answers');
  assert.match(preview.yaml, /^# Preview of ApplicationSet "guestbook"/);
  const plan = (await s.conn.sendRequest('appsetTools/rolloutPlan', { uri: s.uriOf('appset.yaml') })) as {
    strategy: string;
    steps: unknown[];
  } | null;
  assert.ok(plan);
  assert.equal(plan.strategy, 'RollingSync');
  assert.equal(plan.steps.length, 2);
});

test('opening a document is answered at once, whatever the keystroke delay', async () => {
  // With a one-minute debounce, only the open's own immediate run can answer within the client's wait.
  const slow = await startServer({}, { validate: { debounceMs: 60000 } });
  try {
    await slow.open('first.yaml', APPSET); // may also be answered by the settings refresh
    const ds = await slow.open('second.yaml', APPSET);
    assert.ok(codes(ds).includes('appset/unknown-field'), JSON.stringify(codes(ds)));
  } finally {
    await slow.shutdown();
  }
});
