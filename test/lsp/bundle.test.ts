/**
 * The bundles esbuild produces (`node esbuild.js`): the client stays thin (no engine code in the
 * extension host), and the server is one self-contained file other editors can run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, serverPath } from './client';

test('the client bundle contains no engine code', () => {
  const client = readFileSync(join(repoRoot, 'dist', 'extension.js'), 'utf8');
  for (const marker of ['server/src/engine', 'expandAppSet', 'appset/unknown-field', 'argocd-cmd-params-cm']) {
    assert.ok(!client.includes(marker), `dist/extension.js includes "${marker}"`);
  }
  assert.match(client, /appsetTools\/preview/);
});

test('the server bundle runs from anywhere without node_modules', () => {
  // Without a transport the server explains how to start it and exits, instead of hanging.
  const r = spawnSync(process.execPath, [serverPath], { cwd: '/', timeout: 10000, encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Usage: node dist\/server.js --stdio/);
  const bundle = readFileSync(serverPath, 'utf8');
  assert.doesNotMatch(bundle, /require\(["'](yaml|ajv|re2js|picomatch|vscode-languageserver)["']\)/);
});
