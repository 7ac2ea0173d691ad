/**
 * V8 heap settings for the long-running language server, set by its loader (dist/server.js).
 *
 * Every keystroke allocates a new parse, expansion and findings (about 10 MB on a 111 KiB
 * ApplicationSet) while what stays alive is about 25 MB. V8 lets the old generation grow to several
 * times what survived its last full collection before collecting again, so a burst of keystrokes
 * grew the process to about 250 MiB. A growth of 50% between full collections keeps the peak near
 * 150 MiB (with the launch options in protocol.ts, about 120 MiB) for a tenth or so more CPU time per
 * keystroke (measured side by side, 16 sessions of 80 keystrokes; bench/results.md has both peaks).
 *
 * V8 checks a hash of all its flags that differ from their defaults before it uses compiled code from
 * a cache: Node's own modules' (built into the node binary, made with the default flags) and this
 * product's (codeCache.ts). A process started with `--max-semi-space-size=2` or that set the heap growth
 * compiled every Node module it loaded (net, child_process, crypto, streams...) from its source: about
 * 15 ms of CPU time per start (docs/performance.md, issue 39). So the flags that V8 reads only when
 * it creates the heap are set back to their defaults once the process runs (the heap keeps its
 * size), and the heap growth, which V8 reads at each full collection, is set once the bundle has loaded
 * its modules, and set back to the default around every use and write of the code cache.
 */
import * as v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/** Flags V8 reads only when it creates the heap (Heap::ConfigureHeap); 0 is the default of each. */
const HEAP_CREATION_FLAGS = ['--max-semi-space-size', '--min-semi-space-size'];

let tuned = false;

/**
 * Sets the flags that sized the heap at its creation back to their defaults: the heap keeps the size
 * they gave it, and V8's flag hash is the default one again, so Node's compiled modules are used.
 */
export function resetCreationFlags(): void {
  try {
    for (const flag of HEAP_CREATION_FLAGS) v8.setFlagsFromString(`${flag}=0`);
  } catch {
    /* only the compiling of Node's modules is at stake */
  }
}

/** Sets the server's heap growth, unless the user chose one on the command line. */
export function tuneServerHeap(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  try {
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    tuned = true;
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `use` (a compile from V8's code cache, or the writing of one) with the heap growth V8 started
 * with, so that a cache is written and checked under the same flag hash whenever the growth was set.
 */
export function withStartFlags<T>(use: () => T): T {
  if (!tuned) return use();
  v8.setFlagsFromString('--heap-growing-percent=0');
  try {
    return use();
  } finally {
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  }
}
