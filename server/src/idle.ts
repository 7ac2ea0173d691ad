/**
 * When the process is idle: the event loop was busy for at most IDLE_UTILISATION of a whole period.
 * The language server's idle work (a full garbage collection, lsp/idleMemory.ts; writing the
 * compiled-code cache, codeCache.ts) waits for such a period, never running in a burst of requests.
 */
import { performance } from 'node:perf_hooks';

/** Event-loop utilisation below which a period counts as idle. */
export const IDLE_UTILISATION = 0.05;

/**
 * Calls `tick(idle)` every `period` ms with whether the event loop was idle through that period, until
 * `tick` returns true or the returned function is called. The timer never keeps the process alive.
 */
export function everyPeriod(period: number, tick: (idle: boolean) => boolean | void): () => void {
  let elu = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const idle = performance.eventLoopUtilization(now, elu).utilization <= IDLE_UTILISATION;
    elu = now;
    if (tick(idle) === true) clearInterval(timer);
  }, period);
  timer.unref();
  return () => clearInterval(timer);
}
