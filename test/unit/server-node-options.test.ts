// The language server's Node options (protocol.ts serverNodeOptions), which the VS Code client gives the server it
// starts under its own executable: V8's concurrent Sparkplug only where that V8 has it off and knows it, and every
// option set it returns for this Node starts a process with each flag in effect (V8 prints its flags' values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  asksConcurrentSparkplug,
  CONCURRENT_SPARKPLUG,
  SERVER_NODE_OPTIONS,
  serverNodeOptions,
  type ServerRuntime,
} from '@appset-tools/protocol';

const runtime = (v8: string, platform = 'linux', arch = 'x64'): ServerRuntime => ({ versions: { v8 }, platform, arch });

test('concurrent Sparkplug is asked for from V8 11.0 (Node 20) up to 13.6, where it became the default', () => {
  for (const v8 of ['11.3.244.8-node.38', '12.4.254.21-node.57', '12.9.202.28-node.14', '13.5.1.1-electron.0', '11.0.0.0']) {
    assert.deepEqual(serverNodeOptions(runtime(v8)), [...SERVER_NODE_OPTIONS, CONCURRENT_SPARKPLUG], v8);
    assert.deepEqual(serverNodeOptions(runtime(v8, 'win32')), [...SERVER_NODE_OPTIONS, CONCURRENT_SPARKPLUG], `${v8} on Windows`);
    assert.deepEqual(serverNodeOptions(runtime(v8, 'linux', 'arm64')), [...SERVER_NODE_OPTIONS, CONCURRENT_SPARKPLUG], `${v8} on arm64`);
  }
});

test('never where V8 runs it by default, where it is untried, read-only, or the version unknown', () => {
  const cases: [ServerRuntime, string][] = [
    [runtime('13.6.233.17-node.53'), 'Node 24: the default'],
    [runtime('13.8.258.19-electron.0'), "VS Code's Electron 37: the default"],
    [runtime('14.0.1.0'), 'a later V8 (the name may be gone)'],
    [runtime('100.1.0.0'), 'a much later V8'],
    [runtime('10.2.154.26-node.39'), 'Node 18: not tried'],
    [runtime('9.4.146.26-node.24'), 'Node 16'],
    [runtime('12.4.254.21-node.57', 'darwin', 'arm64'), 'macOS on Apple silicon: read-only there'],
    [runtime(''), 'no V8 version'],
    [{ versions: {}, platform: 'linux', arch: 'x64' }, 'no V8 at all'],
    [runtime('bogus'), 'an unreadable version'],
  ];
  for (const [r, why] of cases) {
    assert.equal(asksConcurrentSparkplug(r), false, why);
    assert.deepEqual(serverNodeOptions(r), [...SERVER_NODE_OPTIONS], why);
  }
  assert.equal(asksConcurrentSparkplug(runtime('12.4.254.21-node.57', 'darwin', 'x64')), true, 'macOS on Intel');
});

test('this Node starts with the options serverNodeOptions gives it, each V8 flag in effect', () => {
  const options = serverNodeOptions(process);
  const r = spawnSync(process.execPath, [...options, '--print-flag-values', '-e', 'process.stderr.write("started")'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, 'started');
  const values = new Set(r.stdout.split('\n').map((l) => l.trim()));
  assert.ok(values.has('--max-semi-space-size=2'), 'the young generation option');
  // In effect: asked for on a V8 that has it off by default, or V8's default where it is not asked for.
  assert.ok(values.has(CONCURRENT_SPARKPLUG) || values.has('--no-concurrent-sparkplug'), 'V8 knows the flag');
  assert.equal(values.has(CONCURRENT_SPARKPLUG), asksConcurrentSparkplug(process) || defaultOn());
});

/** Whether this Node's V8 runs concurrent Sparkplug without being asked (`--v8-options` shows the default). */
function defaultOn(): boolean {
  const r = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  return /--concurrent-sparkplug \(.*\)\n\s+type: bool\s+default: --concurrent-sparkplug\b/.test(r.stdout);
}
