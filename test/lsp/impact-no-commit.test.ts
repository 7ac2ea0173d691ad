/**
 * "This change" where there is nothing to compare with: a git repository without a commit yet has no
 * lens (as outside git), while a baseline the user named that names no commit is said (impact.test.ts).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CodeLensRequest, type CodeLens } from 'vscode-languageserver-protocol/node';
import { startServer, type TestServer } from './client';
import { SERVICES, storyAppSet, storySecrets } from '../helpers/story';

let s: TestServer | undefined;
after(async () => s?.shutdown());

test('a repository without a commit: no "This change" lens, the other lenses as always', async () => {
  const text = storyAppSet('go', SERVICES.slice(0, 2));
  s = await startServer({ 'apps/services.yaml': text, 'clusters/secrets.yaml': storySecrets() });
  execFileSync('git', ['init', '-q'], { cwd: s.workspace, stdio: 'pipe' });
  await s.open('apps/services.yaml', text.replace('targetRevision: HEAD', 'targetRevision: v2'));
  const lenses = ((await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: s.uriOf('apps/services.yaml') } })) ??
    []) as CodeLens[];
  const titles = lenses.map((l) => l.command?.title ?? '');
  assert.ok(
    titles.some((t) => t.startsWith('24 Applications')),
    JSON.stringify(titles),
  );
  assert.ok(!titles.some((t) => t.startsWith('This change')), JSON.stringify(titles));
});
