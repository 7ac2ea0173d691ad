/**
 * `APPSET_DEBUG=steps` (or `steps:N` for a threshold of N ms, default 20): the server says on stderr
 * every synchronous step that held its event loop at least that long — a step of sliced work (state.ts
 * `slices`), a guarded handler (`guard`), and any other hold the step log did not see (a probe timer
 * that fired late) — with its wall and CPU time. CPU time is what to compare on a shared machine: wall
 * time also counts other processes. Off, nothing is measured.
 */
import { cpuUsage } from 'node:process';
import { constants, PerformanceObserver } from 'node:perf_hooks';

function threshold(env: string | undefined): number | undefined {
  for (const part of (env ?? '').split(',')) {
    const m = /^steps(?::(\d+(?:\.\d+)?))?$/.exec(part.trim());
    if (m) return m[1] !== undefined ? Number(m[1]) : 20;
  }
  return undefined;
}

const MIN_MS = threshold(process.env.APPSET_DEBUG);
const t0 = performance.now();

/** True when steps are timed. */
export const stepsLogged = MIN_MS !== undefined;

/** Starts timing a step; the returned function ends it and logs it when it was long. */
export function startStep(): (name: string) => void {
  if (MIN_MS === undefined) return notLogged;
  const wall = performance.now();
  // Reading the CPU time is a system call: at most once a millisecond (a step's CPU time may then
  // include up to 1 ms before it).
  if (wall - cpuAt > 1) {
    cpuMark = cpuUsage();
    cpuAt = wall;
  }
  const cpu = cpuMark;
  return (name) => {
    const ms = performance.now() - wall;
    lastEnd = performance.now();
    if (ms < MIN_MS) return;
    const c = cpuUsage(cpu);
    write(`${name}: wall ${ms.toFixed(1)} ms, cpu ${((c.user + c.system) / 1000).toFixed(1)} ms`);
  };
}

/** The end of a step that is not timed: one function for all (a keystroke runs hundreds of steps). */
const notLogged = (_name: string): void => undefined;

/** Runs `fn` as one named step (see `startStep`). */
export function timed<T>(name: string, fn: () => T): T {
  if (MIN_MS === undefined) return fn();
  const end = startStep();
  try {
    return fn();
  } finally {
    end(name);
  }
}

let lastEnd = 0;
let cpuAt = -Infinity;
let cpuMark = cpuUsage();
function write(line: string): void {
  process.stderr.write(`[steps +${(performance.now() - t0).toFixed(0)} ms] ${line}\n`);
}

// The probe: a timer every PROBE_MS; when it fires late, something held the loop. Holds that ended
// with a logged step are that step; the rest are said as "unnamed" (find them with a CPU profile).
const PROBE_MS = 5;
if (MIN_MS !== undefined) {
  let last = performance.now();
  let cpu = cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const held = now - last - PROBE_MS;
    if (held >= MIN_MS && lastEnd < last) {
      const c = cpuUsage(cpu);
      write(`unnamed hold: wall ${held.toFixed(1)} ms, cpu ${((c.user + c.system) / 1000).toFixed(1)} ms since the last probe`);
    }
    last = now;
    cpu = cpuUsage();
  }, PROBE_MS).unref();
}

// With a threshold of 0 every message's arrival is said too, to place requests among the steps.
if (MIN_MS === 0) process.stdin.on('data', (d: Buffer) => write(`input ${d.length} bytes`));

// Garbage collections that paused the loop that long are said too: they explain holds no step caused.
if (MIN_MS !== undefined) {
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration >= MIN_MS) {
        const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
        write(`gc (${kinds[kind ?? -1] ?? 'other'}): wall ${e.duration.toFixed(1)} ms`);
      }
  }).observe({ entryTypes: ['gc'] });
}
