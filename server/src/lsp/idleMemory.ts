/**
 * Gives memory back when the user stops typing. Every keystroke allocates a new parse, expansion
 * and findings; the old ones become garbage, which V8 collects lazily: while the server is busy it
 * lets the heap grow far past what is alive (a 1 KiB ApplicationSet: about 15 MiB alive after a full
 * collection, while the process grew from about 115 to 150 MiB over a few thousand keystrokes, and
 * stayed there once idle). So once the event loop has been idle for a whole period and the heap has
 * grown by GROWTH_BYTES since the last collection, a full collection runs, and a second one in the next
 * idle period — never during a burst of keystrokes (it would cost their latency), at most one per period.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { everyPeriod } from '../idle';
import { resumeOptimiser } from '../optimiser';

/** How often the server looks (ms); a whole period must be idle. */
export const IDLE_PERIOD_MS = 1000;
/**
 * Idle periods between the first collection and a second one, which gives back the pages the first
 * emptied and shrinks the young generation; V8 does that only once it sees a low allocation rate.
 */
const FOLLOW_UP_PERIODS = 5;
/**
 * Heap or process growth since the last collection that is worth a collection. At 16 MiB a process
 * that settled at 77 MiB after 1,000 keystrokes stayed at 88 MiB after 10,000 (11 MiB: no collection),
 * more than the tenth the benchmark allows for flat memory.
 */
export const GROWTH_BYTES = 8 * 1024 * 1024;

/**
 * A full garbage collection without `--expose-gc` on the command line: the flag is set just long
 * enough to create a context that holds `gc`, then cleared, so that V8's flag hash (part of the
 * compiled-code cache's key, codeCache.ts) is unchanged.
 */
export function fullCollection(): (() => void) | undefined {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

let settled = false;

/**
 * Once, after the first answer of the session (the early one of a long document too): a full
 * collection, so that V8 sets the heap's next limit from what is alive (with the growth of
 * heapFlags.ts) instead of keeping its large start-up limit, under which a burst of keystrokes right
 * after opening a long document grew the process by about 100 MiB before V8's first full collection.
 * V8's optimising compiler, deferred by the server's loader, is turned back on.
 */
export function settleAfterFirstAnswer(): void {
  if (settled) return;
  settled = true;
  // The keystrokes to come are optimised again (deferred by the loader until now: optimiser.ts).
  resumeOptimiser();
  // After the answer has been written out.
  setImmediate(() => fullCollection()?.());
}

export interface IdleCollector {
  /** Full collections run so far (for the debug request). */
  readonly collections: number;
  stop(): void;
}

/** Starts looking; the timer never keeps the process alive. */
export function collectWhenIdle(period = IDLE_PERIOD_MS, growth = GROWTH_BYTES): IdleCollector {
  let gc: (() => void) | undefined | null = null;
  // Growth is measured on the heap and on the process: after one of V8's own collections the heap is
  // small again while the process keeps the pages it grew (a full collection gives them back).
  const measure = () => ({ heap: v8.getHeapStatistics().used_heap_size, rss: process.memoryUsage.rss() });
  let last = measure();
  let collections = 0;
  /** Idle periods left before the follow-up collection (0: none pending). */
  let followUp = 0;
  const stop = everyPeriod(period, (idle) => {
    if (!idle) return;
    if (followUp > 0 && gc && --followUp === 0) {
      // The second collection gives back the pages the first one emptied (V8 keeps them, and the grown
      // young generation, until a later collection): measured 130 → 76 MiB of RSS after a burst.
      gc();
      collections++;
      last = measure();
      return;
    }
    const m = measure();
    if (m.heap - last.heap < growth && m.rss - last.rss < growth) {
      // Shrunk on its own: measure growth from there.
      last = { heap: Math.min(last.heap, m.heap), rss: Math.min(last.rss, m.rss) };
      return;
    }
    if (gc === null) gc = fullCollection();
    if (!gc) return;
    gc();
    collections++;
    followUp = FOLLOW_UP_PERIODS;
    // What stays after a full collection is the new baseline: no more until it grows again.
    last = measure();
  });
  return {
    get collections() {
      return collections;
    },
    stop,
  };
}
