/**
 * The real-VS-Code runner (test/vscode/runTest.mjs) runs one suite at a time per checkout: two runs share
 * test/vscode/.tmp/run (the workspace copy, its settings, the report) and fail each other's tests, which
 * read like a failing first pass and a passing retry (docs/development.md, "Extension tests in a real
 * VS Code"). A second run must stop before it builds or touches anything, and name the running one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const lockFile = join(root, 'test', 'vscode', '.tmp', 'run.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Holds the lock as a running suite would; a suite really running here holds it already, which does as well. */
function holdLock(): { pid: number; release(): void } {
  mkdirSync(dirname(lockFile), { recursive: true });
  for (;;) {
    try {
      writeFileSync(lockFile, JSON.stringify({ pid: process.pid, started: new Date().toISOString() }), { flag: 'wx' });
      return { pid: process.pid, release: () => rmSync(lockFile, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number };
    if (alive(holder.pid)) return { pid: holder.pid, release: () => undefined };
    rmSync(lockFile, { force: true }); // left by a run that is gone
  }
}

test('a second run of the real-VS-Code suite in a checkout stops at once and names the running one', () => {
  const lock = holdLock();
  try {
    const r = spawnSync(process.execPath, [join(root, 'test', 'vscode', 'runTest.mjs')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, APPSET_SKIP_VSIX: '1', APPSET_SKIP_WEB: '1' },
    });
    assert.equal(r.status, 1, `exit ${r.status ?? r.signal}; stderr: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`another run of this suite \\(pid ${lock.pid}, started [^)]+\\) is using `));
    // It stopped before building or starting anything: no esbuild output, no code-server.
    assert.doesNotMatch(r.stdout + r.stderr, /code-server|esbuild|\[code-shim/);
    // The running one's lock is left alone.
    assert.equal((JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid, lock.pid);
  } finally {
    lock.release();
  }
});
