/**
 * Peak RSS of the language server on the bench's 111 KiB document, measured as `scripts/bench.ts` measures
 * it (its keystrokes part: open, then 45 keystrokes in a list element and 45 in the template in turn, the
 * process's VmHWM), without yaml-language-server and without writing bench/results.md. For working on
 * memory: the peak of one session swings with when V8's full collection comes, so compare builds over
 * several sessions, their runs alternating.
 *   node --import tsx scripts/bench/peak.ts [--server a.js,b.js] [--sessions N] [--node '<node flags>'] [--no-env] [--snap <dir>]
 * `--node` adds flags to the server's (after protocol.ts serverNodeOptions); `--no-env` starts it without
 * protocol.ts SERVER_ENV; `--snap <dir>` writes a heap snapshot of the idle server after the keystrokes into
 * <dir> (open it in Chrome's DevTools).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gitopsRepo, longList } from './fixtures';
import { startLsp } from './lsp';
import { SERVER_ENV, serverNodeOptions } from '@appset-tools/protocol';

/** The server's Node options as the VS Code client gives them under this Node (protocol.ts serverNodeOptions). */
const LAUNCH_OPTIONS = serverNodeOptions(process);

const root = resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const servers = (opt('--server') ?? join(root, 'dist', 'server.js')).split(',');
const sessions = Number(opt('--sessions') ?? 3);
const snap = opt('--snap');
const extra = [
  ...(opt('--node') ?? '').split(' ').filter(Boolean),
  ...(snap ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${resolve(snap)}`] : []),
];
const key = (server: string) =>
  createHash('sha1')
    .update(JSON.stringify([resolve(server), ...LAUNCH_OPTIONS, ...extra]))
    .digest('hex')
    .slice(0, 12);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const text = longList();
  // The repository is generated once per machine (scripts/bench/open.ts uses the same one).
  const repo = join(tmpdir(), 'appset-bench-open-repo');
  if (!existsSync(join(repo, 'bench'))) {
    gitopsRepo(repo, 1000);
    mkdirSync(join(repo, 'bench'));
  }
  const file = join(repo, 'bench', 'long.yaml');
  writeFileSync(file, text);
  if (snap) mkdirSync(snap, { recursive: true });
  const results = servers.map(() => ({ open: [] as number[], peak: [] as number[], cpu: [] as number[] }));
  for (let j = 0; j < sessions * servers.length; j++) {
    const k = j % servers.length;
    const s = await startLsp({
      name: 'product',
      argv: [...LAUNCH_OPTIONS, ...extra, servers[k], '--stdio'],
      root: repo,
      initializationOptions: { settings: { validate: { debounceMs: 0 } } },
      settings: { appsetTools: { validate: { debounceMs: 0 } } },
      // Each build and Node options keep their own compiled-code cache, named by both (not by the position in
      // --server: the other engineers' runs share the temporary folder, and V8 refuses a cache of other flags).
      env: {
        ...(args.includes('--no-env') ? {} : SERVER_ENV),
        APPSET_CACHE_DIR: join(tmpdir(), `appset-bench-peak-cache-${key(servers[k])}`),
      },
    });
    try {
      await s.open(file, text);
      const afterOpen = s.memory().peakMiB;
      let cur = text;
      const typeAt = async (anchor: string, ch: string) => {
        const at = cur.indexOf(anchor) + anchor.length;
        cur = cur.slice(0, at) + ch + cur.slice(at);
        await s.type(file, at, ch);
      };
      const c0 = s.cpuMs();
      // As scripts/bench.ts types: a list element and the template in turn.
      for (let i = 0; i < 45; i++) {
        await typeAt('owner-11', String(i % 10));
        await typeAt("namespace: '{{ .service }}-{{ .env }}", String(i % 10));
      }
      const cpu = (s.cpuMs() - c0) / 90;
      const peak = s.memory().peakMiB;
      results[k].open.push(afterOpen);
      results[k].peak.push(peak);
      results[k].cpu.push(cpu);
      console.log(
        `${servers[k]}: peak ${afterOpen.toFixed(0)} MiB after the open, ${peak.toFixed(0)} MiB after the keystrokes; ${cpu.toFixed(1)} ms CPU per keystroke`,
      );
      if (snap) {
        await sleep(3000);
        s.proc.kill('SIGUSR2');
        // Writing the snapshot takes seconds on a loaded machine; the process must not end meanwhile.
        await sleep(30000);
      }
    } finally {
      await s.stop();
    }
  }
  servers.forEach((server, k) => {
    const r = results[k];
    console.log(
      `${server}: median peak ${median(r.peak).toFixed(0)} MiB (sessions ${r.peak.map((x) => x.toFixed(0)).join(', ')}), after the open ${median(r.open).toFixed(0)} MiB, ${median(r.cpu).toFixed(1)} ms CPU per keystroke`,
    );
  });
}
void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
