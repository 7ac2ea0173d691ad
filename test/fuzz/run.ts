/**
 * The fuzz runner: `npm run fuzz -- [--engine N] [--tree N] [--server N] [--yaml N] [--seed S]` (long runs) and
 * the short fixed-seed run in `npm test` (test/unit/fuzz.test.ts). Each kind runs in child processes
 * (worker.ts) with a 512 MB heap; the runner watches their output, so
 * - a crash is a worker that dies (V8 abort, out of memory, uncaught exception) or an exception that
 *   escapes the engine; the runner restarts after the crashing input;
 * - a hang is an input that produces no answer within the hang limit (the worker is killed), or one
 *   the worker itself gave up on (the server did not answer in time). The limit counts the worker's
 *   CPU time where Linux says it (/proc), so a run at `nice -n 19` on a loaded machine, starved of
 *   CPU, is not mistaken for a hang; wall time ten times the limit is a hang in any case;
 * - a worker that stops early after reporting an input (`stop`: its server hung or died) is restarted
 *   after that input: the stop is the reported input's consequence, not another crash.
 * Prints totals as JSON, with every crash and hang by kind, seed and input number (replayable).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';

export interface FuzzIssue {
  kind: string;
  seed: number;
  input: number;
  what: 'crash' | 'hang';
  detail: string;
}

export interface FuzzTotals {
  inputs: number;
  requests: number;
  crashes: number;
  hangs: number;
  isolatedFailures: number;
  slowest: { kind: string; input: number; ms: number };
  issues: FuzzIssue[];
}

const WORKER = path.join(__dirname, 'worker.ts');
// `probe` is the runner's own test (test/unit/fuzz.test.ts): inputs that pass, hang or crash on purpose.
const HANG_MS = { engine: 60_000, tree: 60_000, server: 45_000, yaml: 60_000, probe: 1_000 } as Record<string, number>;
const BATCH = { engine: 2000, tree: 100, server: 2000, yaml: 5000, probe: 100 } as Record<string, number>;

/**
 * CPU time (ms) used so far by a process and its children that were waited for, plus its live
 * children's (the server kind's language server); NaN where /proc is not there.
 */
export function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  const ticks = (p: number) => {
    // Fields after the command name (which may hold spaces): utime stime cutime cstime are 12–15.
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  };
  try {
    let total = ticks(pid);
    for (const c of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean)) total += ticks(Number(c));
    return total * 10; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}

function runBatch(kind: string, seed: number, start: number, count: number, totals: FuzzTotals, log: (s: string) => void): Promise<number> {
  // Resolves with the next input to run (start + count when the batch finished).
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=512', '--import', 'tsx', WORKER, kind, String(seed), String(start), String(count)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let last = start - 1;
    /** The worker said, with its last line, that it stops after that input. */
    let stopped = false;
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    // Since the last answer: wall time and the worker's CPU time (with its server, for the server kind).
    let since = { wall: Date.now(), cpu: cpuMs(child.pid) };
    const arm = () => {
      since = { wall: Date.now(), cpu: cpuMs(child.pid) };
      timer ??= setInterval(
        () => {
          const limit = HANG_MS[kind] * (last < start ? 2 : 1); // the first input also pays for loading the code
          const wall = Date.now() - since.wall;
          const cpu = cpuMs(child.pid) - since.cpu;
          if (wall < limit || (cpu < limit && wall < 10 * limit && !Number.isNaN(cpu))) return;
          totals.hangs++;
          totals.inputs++;
          const detail = `no answer within ${HANG_MS[kind] / 1000} s (${Math.round(wall / 1000)} s wall, ${Math.round(cpu / 1000)} s CPU)`;
          totals.issues.push({ kind, seed, input: last + 1, what: 'hang', detail });
          log(`${kind} seed ${seed} input ${last + 1}: hang: ${detail}`);
          finish(last + 2);
          child.kill('SIGKILL');
        },
        Math.min(1000, HANG_MS[kind] / 4),
      );
    };
    const finish = (next: number) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      resolve(next);
    };
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      let r: { i: number; ms: number; error?: string; hang?: boolean; stop?: boolean; failures?: number; requests?: number };
      const at = line.lastIndexOf('{"i":'); // anything the code under test printed comes before it
      if (at < 0) return;
      try {
        r = JSON.parse(line.slice(at));
      } catch {
        return;
      }
      last = r.i;
      stopped = !!r.stop;
      totals.inputs++;
      totals.requests += r.requests ?? 0;
      totals.isolatedFailures += r.failures ?? 0;
      if (r.ms > totals.slowest.ms) totals.slowest = { kind, input: r.i, ms: r.ms };
      if (r.error) {
        if (r.hang) totals.hangs++;
        else totals.crashes++;
        totals.issues.push({ kind, seed, input: r.i, what: r.hang ? 'hang' : 'crash', detail: r.error });
        log(`${kind} seed ${seed} input ${r.i}: ${r.hang ? 'hang' : 'crash'}: ${r.error.slice(0, 300)}`);
      }
      arm();
    });
    arm();
    child.on('exit', (code, signal) => {
      if (done) return;
      if (stopped && code === 0) finish(last + 1);
      else if (last < start + count - 1) {
        totals.crashes++;
        totals.inputs++;
        const detail = `worker died (${signal ?? `exit ${code}`}): ${stderr.slice(-600)}`;
        totals.issues.push({ kind, seed, input: last + 1, what: 'crash', detail });
        log(`${kind} seed ${seed} input ${last + 1}: crash: ${detail.slice(0, 300)}`);
        finish(last + 2);
      } else finish(start + count);
    });
  });
}

export async function fuzz(plan: Record<string, number>, seed: number, log: (s: string) => void = () => undefined): Promise<FuzzTotals> {
  const totals: FuzzTotals = {
    inputs: 0,
    requests: 0,
    crashes: 0,
    hangs: 0,
    isolatedFailures: 0,
    slowest: { kind: '', input: -1, ms: 0 },
    issues: [],
  };
  for (const [kind, n] of Object.entries(plan)) {
    let next = 0;
    while (next < n) {
      next = await runBatch(kind, seed, next, Math.min(BATCH[kind], n - next), totals, log);
      log(`${kind}: ${Math.min(next, n)}/${n} inputs, ${totals.crashes} crashes, ${totals.hangs} hangs`);
    }
  }
  return totals;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const num = (name: string, d: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  const seed = num('seed', Date.now() % 1_000_000);
  const plan = { engine: num('engine', 100_000), tree: num('tree', 2_000), server: num('server', 5_000), yaml: num('yaml', 100_000) };
  const t0 = Date.now();
  void fuzz(plan, seed, (s) => process.stderr.write(s + '\n')).then((t) => {
    process.stdout.write(JSON.stringify({ seed, plan, seconds: Math.round((Date.now() - t0) / 1000), ...t }, null, 2) + '\n');
    process.exitCode = t.crashes || t.hangs ? 1 : 0;
  });
}
