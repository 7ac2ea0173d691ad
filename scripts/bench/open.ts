/**
 * One bench document opened in fresh product servers, the bench's 1,000-file repository as the workspace:
 * the server's CPU time from didOpen to its whole answer (and to its first publish), per run. For working
 * on one case of `npm run bench -- --only open` without running them all (and without yaml-language-server).
 *   node --import tsx scripts/bench/open.ts <small|long|fifty|deep|huge> [runs] [--prof <dir>] [--keys N] [--at <text>] [--server a.js,b.js]
 * `--prof <dir>` runs the server under `node --cpu-prof` (list the profile with scripts/bench/profileTop.mjs);
 * `--keys N` types N keystrokes in a list element after the open and prints their mean CPU time and wall p95; `--at <text>`
 * types them after the first `<text>` in the document's second half instead (`--at 'targetRevision: main'`: in the
 * 111 KiB document's template).
 * `--server` names the built servers to compare (default this checkout's dist/server.js): their runs
 * alternate, so that the machine's load falls on each alike (each with its own compiled-code cache); the medians
 * are printed at the end: CPU time in the kernel's 10 ms ticks and as the scheduler counted it (finer), the main
 * thread's part of it (what the answer waits for: work V8 moves to its background threads leaves it), wall
 * time, and the time from the spawn of the process to the whole answer (which work moved before didOpen
 * does not shorten).
 * `--node a|b` gives each server its Node options instead of the VS Code client's (`|` between servers, spaces
 * between options: `--server dist/server.js,dist/server.js --node '--max-semi-space-size=2|--max-semi-space-size=4'`).
 * A server named `yls` is yaml-language-server without its validation delay, set up and started as `npm run bench`
 * starts it (lsp.ts ylsNodeOptions; `--server yls,yls --node '|--concurrent-sparkplug'` compares it without and with
 * V8's concurrent Sparkplug).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deepError, gitopsRepo, hugeFile, longList, manyAppSets, small } from './fixtures';
import { startLsp, YLS_NO_DEBOUNCE, ylsNodeOptions, ylsSettings } from './lsp';
import { SERVER_ENV, serverNodeOptions } from '@appset-tools/protocol';

/** The server's Node options as the VS Code client gives them under this Node (protocol.ts serverNodeOptions). */
const LAUNCH_OPTIONS = serverNodeOptions(process);

const root = resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const docs: Record<string, () => string> = {
  small,
  long: () => longList(),
  fifty: () => manyAppSets(),
  deep: deepError,
  huge: () => hugeFile(),
};
const which = args[0] ?? 'long';
const runs = Number(args[1]) || 3;
const prof = opt('--prof');
const keys = Number(opt('--keys') ?? 0);
const anchor = opt('--at') ?? 'owner: owner-';
const servers = (opt('--server') ?? join(root, 'dist', 'server.js')).split(',');
const nodeOptions = opt('--node')
  ?.split('|')
  .map((o) => o.split(' ').filter(Boolean));
/** A short name for a build and its Node options (their compiled-code cache's folder). */
const key = (server: string, options: readonly string[]) =>
  createHash('sha1')
    .update(JSON.stringify([resolve(server), ...options]))
    .digest('hex')
    .slice(0, 12);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main() {
  const text = docs[which]();
  // The repository is generated once per machine (as the bench does in each run).
  const repo = join(tmpdir(), 'appset-bench-open-repo');
  if (!existsSync(join(repo, 'bench'))) {
    gitopsRepo(repo, 1000);
    mkdirSync(join(repo, 'bench'));
  }
  const file = join(repo, 'bench', `${which}.yaml`);
  writeFileSync(file, text);
  const cacheDir = join(tmpdir(), 'appset-bench-open-cache');
  const results = servers.map(() => ({
    whole: [] as number[],
    first: [] as number[],
    keys: [] as number[],
    exact: [] as number[],
    main: [] as number[],
    wall: [] as number[],
    fromStart: [] as number[],
    fromStartCpu: [] as number[],
    peak: [] as number[],
    p95: [] as number[],
  }));
  for (let j = 0; j < (runs + 1) * servers.length; j++) {
    const i = Math.floor(j / servers.length);
    const server = servers[j % servers.length];
    const out = results[j % servers.length];
    const yls = server === 'yls';
    const options = nodeOptions?.[j % servers.length] ?? (yls ? ylsNodeOptions() : LAUNCH_OPTIONS);
    const profArgs = prof && i > 0 ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
    const s = await startLsp(
      yls
        ? { name: 'yls', argv: [...options, ...profArgs, YLS_NO_DEBOUNCE, '--stdio'], root: repo, settings: ylsSettings() }
        : {
            name: 'product',
            argv: [...options, ...profArgs, server, '--stdio'],
            root: repo,
            initializationOptions: { settings: { validate: { debounceMs: 0 } } },
            settings: { appsetTools: { validate: { debounceMs: 0 } } },
            // A cache folder per build and Node options: a build's compiled-code cache replaces another build's
            // in the same folder (codeCache.ts), and V8 refuses one written under other flags; named by both, not
            // by the position in --server, since the other engineers' runs share the temporary folder.
            env: { ...SERVER_ENV, APPSET_CACHE_DIR: `${cacheDir}-${key(server, options)}` },
          },
    );
    try {
      const r = await s.open(file, text);
      if (i > 0) {
        out.whole.push(r.whole.cpuMs);
        out.first.push(r.first.cpuMs);
        out.exact.push(r.whole.cpuExactMs);
        out.main.push(r.whole.mainMs);
        out.wall.push(r.whole.ms);
        out.fromStart.push(r.fromStartMs);
        out.fromStartCpu.push(r.fromStartCpuMs);
      }
      let line = `${server}: ${i === 0 ? 'warm-up ' : ''}whole ${r.whole.cpuMs} ms CPU (${r.whole.cpuExactMs.toFixed(1)} ms by the scheduler, main thread ${r.whole.mainMs.toFixed(1)} ms; ${r.whole.ms.toFixed(0)} ms wall, ${r.whole.diagnostics.length} diagnostics; ${r.fromStartMs.toFixed(0)} ms from the spawn, ${r.fromStartCpuMs.toFixed(0)} ms of CPU), first ${r.first.cpuMs} ms, ${r.publishes} publishes`;
      if (keys && i > 0) {
        let cur = text;
        let cpu = 0;
        const walls: number[] = [];
        for (let k = 0; k < keys + 3; k++) {
          const at = cur.indexOf(anchor, cur.length / 2) + anchor.length;
          cur = cur.slice(0, at) + 'x' + cur.slice(at);
          const c0 = s.cpuMs();
          const ms = await s.type(file, at, 'x');
          await new Promise((r) => setTimeout(r, 150));
          if (k >= 3) {
            cpu += s.cpuMs() - c0;
            walls.push(ms);
          }
        }
        const p95 = [...walls].sort((a, b) => a - b)[Math.ceil(walls.length * 0.95) - 1];
        line += `; keystroke ${(cpu / keys).toFixed(1)} ms CPU, p95 ${p95.toFixed(1)} ms wall, peak RSS ${s.memory().peakMiB.toFixed(0)} MiB`;
        out.keys.push(cpu / keys);
        out.p95.push(p95);
        out.peak.push(s.memory().peakMiB);
      }
      console.log(line);
    } finally {
      await s.stop();
    }
  }
  servers.forEach((server, k) => {
    const r = results[k];
    console.log(
      `${server}${nodeOptions ? ` (${nodeOptions[k].join(' ')})` : ''}: median whole ${median(r.whole)} ms CPU (${median(r.exact).toFixed(1)} ms by the scheduler, main thread ${median(r.main).toFixed(1)} ms, ${median(r.wall).toFixed(1)} ms wall, ${median(r.fromStart).toFixed(0)} ms from the spawn, ${median(r.fromStartCpu).toFixed(0)} ms of CPU), first ${median(r.first)} ms${r.keys.length ? `, keystroke ${median(r.keys).toFixed(1)} ms CPU, p95 ${median(r.p95).toFixed(1)} ms wall, peak RSS ${median(r.peak).toFixed(0)} MiB` : ''}`,
    );
  });
}
void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
