/**
 * The language server's platform is chosen once, at `initialize`, for the workspace's folders
 * (lsp/nodeMain.ts `nodePlatforms`, lsp/state.ts `choosePlatform`), and the handlers are handed that
 * platform itself: no wrapper forwards its members one by one. Such a wrapper once lost
 * `workspaceCache` at a merge, and the second session's first answer used the newest release instead
 * of the install an earlier session had found (test/lsp/first-answer.test.ts shows that answer through
 * the built server; test/lsp/virtual-workspace.test.ts the virtual workspace's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'vscode-languageserver/node';
import { webPathOf } from '@appset-tools/protocol';
import { nodePlatform, nodePlatforms, VIRTUAL_NO_GIT_HISTORY } from '../../server/src/lsp/nodeMain';
import { onlyPlatform } from '../../server/src/lsp/platform';
import { ServerState } from '../../server/src/lsp/state';

const connection = { console: { error() {}, log() {} }, sendRequest: () => Promise.resolve(null) } as unknown as Connection;
const VIRTUAL = webPathOf('vscode-vfs', 'github', '/acme/gitops');
const OTHER = webPathOf('vscode-vfs', 'github', '/acme/other');

test('a workspace on disk (or mixed, or none) gets the disk platform itself, with every member', () => {
  const logged: string[] = [];
  for (const roots of [['/work/repo'], ['/work/repo', VIRTUAL], []]) {
    const chosen = nodePlatforms(connection).choose(roots, (m) => logged.push(m));
    assert.equal(chosen, nodePlatform, JSON.stringify(roots));
  }
  assert.deepEqual(logged, []);
  // The members the handlers ask of the disk: a lost one would read no cache or no git history.
  assert.equal(typeof nodePlatform.workspaceCache, 'function');
  assert.ok(nodePlatform.git);
  assert.equal(nodePlatform.ready, undefined, 'Node reads the disk when asked: nothing to wait for');
});

test('a virtual workspace gets the platform that reads through the client: no git, no cache between sessions', () => {
  const logged: string[] = [];
  const chosen = nodePlatforms(connection).choose([VIRTUAL, OTHER], (m) => logged.push(m));
  assert.notEqual(chosen, nodePlatform);
  assert.equal(chosen.kind, 'node');
  assert.equal(chosen.git, undefined);
  assert.equal(chosen.workspaceCache, undefined);
  assert.equal(chosen.noGitHistory, VIRTUAL_NO_GIT_HISTORY);
  assert.equal(typeof chosen.ready, 'function');
  assert.equal(typeof chosen.refresh, 'function');
  assert.equal(typeof chosen.attach, 'function');
  assert.deepEqual(logged, ['every workspace folder is virtual: its files are read through the client']);
  // A document of a virtual workspace belongs to its folder (no git work tree to look for).
  assert.equal(chosen.workspaceOf(`${VIRTUAL}/apps/shop.yaml`), `${VIRTUAL}/apps`);
  assert.equal(nodePlatform.workspaceOf(`${VIRTUAL}/apps/shop.yaml`), `${VIRTUAL}/apps`);
});

test('the server state holds the chosen platform itself', () => {
  const virtual = nodePlatforms(connection);
  const state = new ServerState(connection, virtual);
  assert.equal(state.choosePlatform(['/work/repo']), nodePlatform);
  assert.equal(state.platform, nodePlatform);
  const web = nodePlatforms(connection).choose([VIRTUAL], () => undefined);
  const only = new ServerState(connection, onlyPlatform(web));
  assert.equal(only.choosePlatform([]), web);
  assert.equal(only.platform, web);
});
