/**
 * The longest synchronous steps of the responsiveness scenarios (issue 16): runs the built server with
 * `APPSET_DEBUG=steps:N` in the benchmark's 1,000-file repository, opens the heavy documents of
 * `responsiveness.ts` while hovering on a small one, and prints every step that held the event loop
 * at least N ms (default 20), grouped by name: count, CPU time (worst, total). CPU time, not wall time,
 * is what to compare on a shared machine.
 *
 *   node esbuild.js && node --import tsx scripts/bench/steps.ts [N] [matrix|long]
 *
 * STEPS_LOG=<prefix> keeps each scenario's whole log; STEPS_PROF=<folder> adds a CPU profile of the server;
 * STEPS_SERVER=<a server.js> runs another build (an older commit's, to compare in the same minute).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp } from './lsp';
import { gitopsRepo, small } from './fixtures';
import { hoversDuring, longAppSet, matrixAppSet } from './responsiveness';

const root = join(__dirname, '..', '..');
const min = process.argv[2] !== undefined ? Number(process.argv[2]) : 20;
const only = process.argv[3];

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'appset-steps-'));
  try {
    const repo = join(tmp, 'repo');
    gitopsRepo(repo, 1000);
    mkdirSync(join(repo, 'bench'));
    const settings = { validate: { debounceMs: 0 }, maxApplications: 10000 };
    const s = await startLsp({
      name: 'product',
      // STEPS_PROF=<folder>: a CPU profile of the server too (node --cpu-prof), to see inside a long step.
      argv: [
        ...(process.env.STEPS_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.STEPS_PROF}`] : []),
        process.env.STEPS_SERVER ?? join(root, 'dist', 'server.js'),
        '--stdio',
      ],
      root: repo,
      initializationOptions: { settings },
      settings: { appsetTools: settings },
      env: { APPSET_DEBUG: `steps:${min}`, APPSET_CACHE_DIR: 'off' },
    });
    let log = '';
    s.proc.stderr!.on('data', (d) => (log += d));
    try {
      const smallPath = join(repo, 'bench', 'small.yaml');
      writeFileSync(smallPath, small());
      await s.open(smallPath, small());
      const scenarios: [string, string, string][] = [
        ['matrix', 'heavy-matrix.yaml', matrixAppSet(100, 100)],
        ['long', 'heavy-long.yaml', longAppSet(6000)],
      ];
      for (const [label, name, text] of scenarios) {
        if (only && only !== label) continue;
        // Settle first: what the small document's opening and the warm-up did is not this scenario's.
        await new Promise((r) => setTimeout(r, 1500));
        log = '';
        const cpu0 = s.cpuMs();
        const r = await hoversDuring(s, smallPath, join(repo, 'bench', name), text);
        const cpu = s.cpuMs() - cpu0;
        report(label, log, min);
        // STEPS_LOG=<prefix>: the server's whole step log of each scenario, to read steps in order.
        if (process.env.STEPS_LOG) writeFileSync(`${process.env.STEPS_LOG}${label}.log`, log);
        console.log(
          `  hovers: ${r.hovers}, worst ${r.worst.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms (wall); heavy document done in ${r.heavyMs.toFixed(0)} ms wall, server CPU ${cpu} ms\n`,
        );
      }
    } finally {
      await s.stop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function report(label: string, log: string, min: number): void {
  const by = new Map<string, { n: number; worst: number; total: number; worstWall: number }>();
  for (const line of log.split('\n')) {
    // A collection's line has no CPU time (other threads share it): its wall time stands in.
    const m = /^\[steps \+\d+ ms\] (.*): wall ([\d.]+) ms(?:, cpu ([\d.]+) ms)?/.exec(line);
    if (!m) continue;
    m[3] ??= m[2];
    const e = by.get(m[1]) ?? { n: 0, worst: 0, total: 0, worstWall: 0 };
    e.n++;
    e.worst = Math.max(e.worst, Number(m[3]));
    e.worstWall = Math.max(e.worstWall, Number(m[2]));
    e.total += Number(m[3]);
    by.set(m[1], e);
  }
  console.log(`${label}: steps of ≥ ${min} ms wall`);
  const rows = [...by].sort((a, b) => b[1].worst - a[1].worst);
  if (!rows.length) console.log('  none');
  for (const [name, e] of rows)
    console.log(
      `  ${name.padEnd(48)} ${String(e.n).padStart(4)}×  cpu worst ${e.worst.toFixed(1).padStart(6)} ms, total ${e.total.toFixed(0).padStart(5)} ms  (wall worst ${e.worstWall.toFixed(0)} ms)`,
    );
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
