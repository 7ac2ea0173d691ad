// A server that dies (here: killed) is started again by the client, which tells the user once: one
// notification for the first death, none for the next, and the language features answer again.
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const { activeExtension, openFixture, waitFor, waitForDiagnostics } = require('./util');

/** The language server processes this extension host started (its children running dist/server.js). */
function serverPids() {
  const pids = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (/dist[/\\]server\.js/.test(cmd)) pids.push(Number(d));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

const snapshot = () => vscode.commands.executeCommand('appsetTools.restartSnapshot');

describe('server restart', function () {
  if (process.platform !== 'linux') return;

  it('restarts a killed server and says so once', async () => {
    await activeExtension();
    const { doc } = await openFixture('unknown-field.yaml');
    await waitForDiagnostics(doc.uri, (ds) => ds.length > 0, 'diagnostics before the kill');
    for (let round = 1; round <= 2; round++) {
      const [pid] = await waitFor(() => (serverPids().length === 1 ? serverPids() : undefined), {
        describe: () => `server processes: ${serverPids()}`,
      });
      process.kill(pid, 'SIGKILL');
      const [next] = await waitFor(() => serverPids().filter((p) => p !== pid).length === 1 && serverPids().filter((p) => p !== pid), {
        timeout: 60_000,
        describe: () => `no new server after killing ${pid}: ${serverPids()}`,
      });
      assert.notStrictEqual(next, pid);
      // It answers again: a hover on the unknown field.
      await waitFor(
        async () => {
          const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(6, 4));
          return hovers && hovers.length > 0;
        },
        { timeout: 60_000, describe: () => `no hover after restart ${round}` },
      );
      const s = await snapshot();
      assert.strictEqual(s.deaths, round, JSON.stringify(s));
      assert.strictEqual(s.shown.length, 1, `one notification after ${round} deaths: ${JSON.stringify(s.shown)}`);
      assert.match(s.shown[0], /the language server stopped unexpectedly and was restarted/);
    }
  });
});
