/**
 * Issue 41: the impact of the uncommitted change, through the built server over stdio, in a temporary
 * git repository. The story at 24 Applications (12 clusters × 2 services): bumping the shared revision
 * makes every Application sync, all at once while progressive syncs are off (an unsaved edit of the
 * ConfigMap turns them on: waves and time); moving the canary cluster's label in the cluster Secrets
 * (unsaved) empties the canary step; the baseline setting (`impactBaseline`) names HEAD, the merge base
 * or another revision, and one that names no commit is said.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CodeLensRequest, ExecuteCommandRequest, HoverRequest, type CodeLens } from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';
import { cmdParamsCm } from '../helpers/clusters';
import { SERVICES, storyRollout, storySecrets } from '../helpers/story';

const FILE = 'apps/services.yaml';
const STEPS = [{ values: ['canary'] }, { values: ['low-traffic'], maxUpdate: 2 }, { values: ['high-traffic'], maxUpdate: 3 }];
const BEFORE = storyRollout(STEPS, {}, SERVICES.slice(0, 2));
const BUMPED = BEFORE.replace('targetRevision: HEAD', 'targetRevision: v2');

let s: TestServer;
const git = (...args: string[]) => execFileSync('git', args, { cwd: s.workspace, stdio: 'pipe' }).toString();

before(async () => {
  s = await startServer({
    [FILE]: BEFORE,
    'clusters/secrets.yaml': storySecrets(),
    'argocd/argocd-cmd-params-cm.yaml': cmdParamsCm('false'),
  });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'empty');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
});
after(async () => s?.shutdown());

const lenses = async (rel = FILE) =>
  ((await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf(rel) } })) ?? []) as CodeLens[];
const changeLenses = async () => (await lenses()).filter((l) => l.command?.title.startsWith('This change'));
const titles = (ls: CodeLens[]) => JSON.stringify(ls.map((l) => l.command?.title));

test('nothing changed: no lens; the shared revision bumped: every Application syncs, all at once, the strategy ignored', async () => {
  await s.open(FILE, BEFORE);
  assert.deepEqual(await changeLenses(), [], 'no lens when nothing changes');
  await s.change(FILE, BUMPED);
  const [l, ...more] = await changeLenses();
  assert.equal(more.length, 0);
  assert.equal(l?.command?.title, 'This change: all 24 Applications sync, all at once on 12 clusters (strategy ignored)');
  assert.equal(l.range.start.line, 0, 'over the ApplicationSet');
  // The hover on that line has the breakdown.
  const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: s.uriOf(FILE) }, position: { line: 0, character: 3 } });
  const md = JSON.stringify(h?.contents);
  assert.match(md, /This change\*\* \(against HEAD \([0-9a-f]{7}\)\)/);
  assert.match(md, /0 Applications added, 0 removed, 24 changed; 24 Applications sync \(of 24\)/);
  assert.match(md, /the RollingSync strategy is ignored/);
  // The lens's command: the breakdown as text for editors without a diff view, its line shown.
  assert.equal(l.command?.command, 'appsetTools.showChange');
  const text = (await s.conn.sendRequest(ExecuteCommandRequest.type, {
    command: 'appsetTools.showChange',
    arguments: l.command?.arguments,
  })) as string;
  assert.match(text, /^This change \(against HEAD \([0-9a-f]{7}\)\), ApplicationSet services\n/);
  assert.ok(s.messages.some((m) => m.message === l.command?.title));
  // Both sides' Applications for the diff view: the same 24, one field apart.
  const texts = (await s.conn.sendRequest('appsetTools/changeTexts', { uri: s.uriOf(FILE) })) as {
    name: string;
    before: string;
    after: string;
    summary: string;
  };
  assert.equal(texts.name, 'services');
  assert.equal(texts.summary, l.command?.title);
  assert.equal(texts.before.split('\n---\n').length, 25);
  assert.equal(texts.before.match(/targetRevision: HEAD/g)?.length, 24);
  assert.equal(texts.after.match(/targetRevision: v2/g)?.length, 24);
  assert.equal(
    texts.before
      .replace(/targetRevision: HEAD/g, 'targetRevision: v2')
      .split('\n')
      .slice(1)
      .join('\n'),
    texts.after.split('\n').slice(1).join('\n'),
  );
});

test('progressive syncs enabled in the unsaved ConfigMap: waves and time', async () => {
  await s.open('argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('false'));
  await s.change('argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('true'));
  // canary: 2 apps at once (1 wave); low-traffic: 8 apps, 2 at a time (4 waves); high-traffic: 14, 3 at a time (5 waves).
  let title = '';
  for (let i = 0; i < 50 && !/waves/.test(title); i++) {
    title = (await changeLenses())[0]?.command?.title ?? '';
    if (!/waves/.test(title)) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(title, 'This change: all 24 Applications sync · 10 waves · about 30 min');
});

test("the canary cluster's label moved in the unsaved cluster Secrets: the canary step is empty", async () => {
  const secrets = storySecrets();
  const moved = secrets.replace('tier: canary', 'tier: low-traffic');
  assert.notEqual(moved, secrets);
  await s.open('clusters/secrets.yaml', secrets);
  await s.change('clusters/secrets.yaml', moved);
  let ls: CodeLens[] = [];
  for (let i = 0; i < 50 && !/empty/.test(titles(ls)); i++) {
    ls = await changeLenses();
    if (!/empty/.test(titles(ls))) await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(titles(ls), /the canary step is now empty/);
  // The rollout view's section: the steps before → now, the emptied one, the Applications that moved.
  const sum = (await s.conn.sendRequest('appsetTools/changeSummary', { uri: s.uriOf(FILE) })) as {
    steps: { step: number; before: number; after: number }[];
    emptied: number[];
    moved: { name: string; from: number; to: number }[];
    timeline: { before?: string; after?: string };
  };
  assert.deepEqual(sum.emptied, [1]);
  assert.deepEqual(
    sum.steps.map((x) => [x.step, x.before, x.after]),
    [
      [1, 2, 0],
      [2, 8, 10],
      [3, 14, 14],
    ],
  );
  assert.deepEqual(sum.moved, [
    { name: 'prod-01-svc-01', from: 1, to: 2 },
    { name: 'prod-01-svc-02', from: 1, to: 2 },
  ]);
  assert.match(sum.timeline.before ?? '', /the strategy is ignored/);
  // Back to the saved Secrets and ConfigMap, and the file as committed: nothing changes, no lens.
  await s.change('clusters/secrets.yaml', secrets);
  await s.change('argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('false'));
  await s.change(FILE, BEFORE);
  for (let i = 0; i < 50 && (await changeLenses()).length; i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(await changeLenses(), []);
});

test('YAML that does not parse: the impact is not known, said with the syntax error, and no gate or hover', async () => {
  await s.change(FILE, BUMPED.replace('- service: svc-02', '- service: [svc-02'));
  let t = '';
  for (let i = 0; i < 50 && !/not known/.test(t); i++) {
    t = titles(await changeLenses());
    if (!/not known/.test(t)) await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(t, /^\["This change: not known while the YAML does not parse \(line \d+: [^"]+\)"\]$/);
  await s.change(FILE, BEFORE);
});

test('the baseline setting: HEAD, the merge base with the default branch, a revision that names no commit, off', async () => {
  // The bump committed on a branch: against HEAD nothing changes, against the merge base with main everything does.
  git('checkout', '-q', '-b', 'feature');
  (await import('node:fs')).writeFileSync(`${s.workspace}/${FILE}`, BUMPED);
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-am', 'bump');
  await s.change(FILE, BUMPED);
  await new Promise((r) => setTimeout(r, 2100)); // the resolved HEAD is trusted for 2 s
  assert.deepEqual(await changeLenses(), [], 'against HEAD (the bump is committed)');
  await s.setSettings({ impactBaseline: 'merge-base' });
  let t = '';
  for (let i = 0; i < 50 && !t; i++) {
    t = titles(await changeLenses());
    if (t === '[]') t = '';
    if (!t) await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(t, /This change: all 24 Applications sync, all at once on 12 clusters/);
  await s.setSettings({ impactBaseline: 'no-such-branch' });
  for (let i = 0; i < 50 && !/not known/.test(t); i++) {
    t = titles(await changeLenses());
    if (!/not known/.test(t)) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(t, JSON.stringify(['This change: not known (impactBaseline "no-such-branch" names no commit in this repository)']));
  // .appset-tools.yaml names the baseline for the repository (it wins over the editor's setting).
  await s.writeFile('.appset-tools.yaml', 'impactBaseline: main\n');
  for (let i = 0; i < 50 && !/all 24/.test(t); i++) {
    t = titles(await changeLenses());
    if (!/all 24/.test(t)) await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(t, /This change: all 24 Applications sync/);
  await s.writeFile('.appset-tools.yaml', 'impactBaseline: "off"\n');
  for (let i = 0; i < 50 && t !== '[]'; i++) {
    t = titles(await changeLenses());
    if (t !== '[]') await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(t, '[]', 'off: no lens');
});
