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

/**
 * The V8 flags this process changed at run time (flag name: the value set, and the value V8 started
 * with), for `withStartFlags`. Process-wide, on `globalThis`: the loader (dist/server.js) and the bundle
 * (dist/lib/server.js, whose schema validators go through the code cache too) each carry a copy of
 * this module, and the flags are the process's.
 */
const changed: Map<string, { set: string; start: string }> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('appset-tools.runtimeFlags')
] ??= new Map()) as Map<string, { set: string; start: string }>;

/** Sets `set` (V8 started with `start`) until `restoreFlag(name)`; false when V8 refused it. */
export function setRuntimeFlag(name: string, set: string, start: string): boolean {
  try {
    v8.setFlagsFromString(set);
  } catch {
    return false;
  }
  changed.set(name, { set, start });
  return true;
}

/**
 * `setRuntimeFlag` where V8 can set back everything that `set` changed: the way back is the first of `backs` after
 * which V8's flag hash (`cachedDataVersionTag`) is the one it had before. V8 12.4 (Node 22) also turns
 * `--osr-from-maglev` off with `--no-turbofan`, and `--turbofan` leaves it off: the hash stayed changed, so the code
 * cache was checked and written under other flags than a fresh start's and refused at the next start. False (the
 * flag set back as far as V8 allows) when no way back restores the hash.
 */
export function setRestorableFlag(name: string, set: string, backs: readonly string[]): boolean {
  const before = v8.cachedDataVersionTag();
  for (const back of backs) {
    if (!setRuntimeFlag(name, set, back)) return false;
    v8.setFlagsFromString(back);
    if (v8.cachedDataVersionTag() === before) {
      v8.setFlagsFromString(set);
      return true;
    }
    changed.delete(name);
  }
  return false;
}

/** Sets the flag `name` back to what V8 started with; false when it was not changed. */
export function restoreFlag(name: string): boolean {
  const flag = changed.get(name);
  if (!flag) return false;
  changed.delete(name);
  try {
    v8.setFlagsFromString(flag.start);
  } catch {
    /* the same flag was set a moment ago */
  }
  return true;
}

/** Whether the flag `name` is changed now (see `setRuntimeFlag`). */
export function flagChanged(name: string): boolean {
  return changed.has(name);
}

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
  return setRuntimeFlag('heap-growing-percent', `--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0');
}

/**
 * Runs `use` (a compile from V8's code cache, or the writing of one) under the flags V8 started with
 * (the heap growth, and the optimising compiler deferred by optimiser.ts, set back around it), so
 * that a cache is written and checked under the same flag hash whatever the process changed.
 */
export function withStartFlags<T>(use: () => T): T {
  if (!changed.size) return use();
  const flags = [...changed.values()];
  for (const f of flags) v8.setFlagsFromString(f.start);
  try {
    return use();
  } finally {
    for (const f of flags) v8.setFlagsFromString(f.set);
  }
}
