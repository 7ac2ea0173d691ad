/**
 * V8 heap settings for the long-running language server, set by its loader (dist/server.js) before
 * the bundle is compiled: V8's flag hash is part of the compiled-code cache's check (codeCache.ts), so
 * a flag set later would make every start rewrite the cache.
 *
 * Every keystroke allocates a new parse, expansion and findings (about 10 MB on a 111 KiB
 * ApplicationSet) while what stays alive is about 25 MB. V8 lets the old generation grow to several
 * times what survived its last full collection before collecting again, so a burst of keystrokes
 * grew the process to about 250 MiB. A growth of 50% between full collections keeps the peak near
 * 150 MiB (with the launch options in protocol.ts, about 120 MiB) for a tenth or so more CPU time per
 * keystroke (measured side by side, 16 sessions of 80 keystrokes; bench/results.md has both peaks).
 */
import * as v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/** Sets the server's heap growth, unless the user chose one on the command line. */
export function tuneServerHeap(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  try {
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    return true;
  } catch {
    return false;
  }
}
