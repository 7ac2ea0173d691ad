/**
 * V8's optimising compiler (TurboFan) deferred until the language server's first whole answer.
 *
 * A fresh server runs the engine's code for the first time on its first answer; TurboFan starts
 * compiling the hot functions of that answer on V8's background threads, which on a machine of two
 * cores compete with the main thread for an answer that is over before the optimised code would pay
 * (the 111 KiB document: about half of the process's CPU until its first answer was compiling, and the
 * answer took a third less wall time without it; docs/performance.md, "defer"). So the server's loader
 * turns TurboFan off once the bundle has loaded and the server turns it back on after the session's
 * first whole answer (lsp/idleMemory.ts `settleAfterFirstAnswer`): the keystrokes after it are
 * optimised as before. A session that answers no document (hovers only, no ApplicationSet opened)
 * gets it back at the first idle period or after RESUME_AFTER_MS at the latest.
 *
 * Never when the user chose V8's tiers on the command line or in NODE_OPTIONS; any refusal by V8
 * (another Node, Electron's) leaves the flags as they were. The change is registered with heapFlags.ts,
 * so that V8's code cache is checked and written under the flags the process started with.
 */
import { performance } from 'node:perf_hooks';
import { everyPeriod } from './idle';
import { flagChanged, restoreFlag, setRestorableFlag } from './heapFlags';

/** The bound: a session that has answered nothing by then optimises anyway. */
export const RESUME_AFTER_MS = 3000;
/** How often the bound is looked at (ms); a whole idle period also resumes. */
const PERIOD_MS = 1000;

/** The ways TurboFan is set back, the first that restores V8's flag hash wins (heapFlags.ts setRestorableFlag; V8 12.4 needs the second). */
const TURBOFAN_BACK = ['--turbofan', '--turbofan --osr-from-maglev'];

/** Options by which a user chose V8's tiers: the process keeps them. */
const USER_TIERS = /^--(no[-_])?(turbofan|opt|jitless|max[-_]opt|always[-_](turbofan|opt))\b/;

/** The Node options that the user gave, whose choice of tiers wins. */
export function userChoseTiers(execArgv: readonly string[], nodeOptions = ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => USER_TIERS.test(a));
}

/** V8 before 11 (Node 18) names the flag `--opt`; its optimiser is left alone there. */
function knowsTurbofan(): boolean {
  return Number(/^(\d+)\./.exec(process.versions?.v8 ?? '')?.[1] ?? 0) >= 11;
}

const debug = (process.env.APPSET_DEBUG ?? '').split(',').includes('optimiser');
/** `APPSET_DEBUG=optimiser`: says on stderr when the optimising compiler is deferred and resumed. */
function say(what: string): void {
  if (debug) process.stderr.write(`optimiser: ${what} (${performance.now().toFixed(0)} ms after the start)\n`);
}

/**
 * Turns TurboFan off until `resumeOptimiser()`, or until the first idle period or RESUME_AFTER_MS;
 * false (nothing changed) when the user chose the tiers or V8 refused.
 */
export function deferOptimiser(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS): boolean {
  if (userChoseTiers(execArgv, nodeOptions) || !knowsTurbofan()) {
    say('left as the command line set it');
    return false;
  }
  if (!setRestorableFlag('turbofan', '--no-turbofan', TURBOFAN_BACK)) return false;
  say('deferred');
  const since = performance.now();
  everyPeriod(PERIOD_MS, (idle) => {
    if (!flagChanged('turbofan')) return true;
    if (!idle && performance.now() - since < RESUME_AFTER_MS) return false;
    resume(idle ? 'an idle period' : 'the bound');
    return true;
  });
  return true;
}

/** Turns the optimising compiler back on, if it was deferred (the first whole answer). */
export function resumeOptimiser(): void {
  if (flagChanged('turbofan')) resume('the first whole answer');
}

function resume(why: string): void {
  if (restoreFlag('turbofan')) say(`resumed after ${why}`);
}
