/**
 * One queue for all the server's stepwise work (the engine's `*Steps` generators: parsing, expanding,
 * findings, preview text), so that a heavy document never delays another's answers by more than
 * about one turn (issue 16: ≤ 100 ms).
 *
 * The event loop runs a turn (one `setImmediate`) of at most TURN_MS, shared by every run in the
 * queue, least-advanced first: several heavy runs at once (a document's findings and its preview)
 * do not add up, and a cheap run (a hover on a small document) finishes in the first turn it meets.
 * Messages are read between turns. The connection answers a request in an immediate of its own
 * (vscode-jsonrpc writes through a semaphore that waits one `setImmediate`): after a turn in which
 * something was answered, the next turn is queued behind that write, so the answer goes out first.
 * Runs no longer wanted (`stale`: a newer version of the document, a cancelled request) are dropped
 * at a pause.
 */
import { startStep, stepsLogged } from './stepLog';

/** The most one turn of stepwise work holds the event loop (plus the one step that crosses it). */
const TURN_MS = 10;
/** A new run goes this far at once: work that is done already (cached results) is answered without a turn. */
const INLINE_MS = 4;

export interface Outcome<T> {
  /** False when the run was dropped as stale. */
  ok: boolean;
  /** The generator's result (undefined when dropped or failed). */
  value?: T;
}

interface Run {
  steps: Generator<unknown, unknown>;
  stale: () => boolean;
  name: string;
  /** ms this run has used so far: the least-advanced run goes first. */
  used: number;
  settle: (o: Outcome<unknown>) => void;
}

export class Scheduler {
  private runs: Run[] = [];
  private queued = false;
  private answered = false;

  constructor(private readonly onError: (name: string, e: unknown) => void) {}

  /**
   * Runs `steps` to its end across turns; resolves `{ ok: false }` when `stale()` says at a pause that
   * the work is no longer wanted. A failure is reported to `onError` and resolves `{ ok: true }` with no
   * value (the answers that follow compute, and guard, the same work again).
   */
  run<T>(steps: Generator<unknown, T>, stale: () => boolean, name: string): Promise<Outcome<T>> {
    return new Promise<Outcome<T>>((resolve) => {
      // Not wanted already (more edits of its document are queued, received.ts): no slice, not even inline.
      if (stale()) return resolve({ ok: false });
      const run: Run = { steps, stale, name, used: 0, settle: resolve as (o: Outcome<unknown>) => void };
      if (this.advance(run, performance.now() + INLINE_MS)) return;
      this.runs.push(run);
      this.queue();
    });
  }

  /** Something was just answered: the next turn waits for the connection to write it (see above). */
  answer(): void {
    this.answered = true;
  }

  /** Runs queued now (the tests' and the step log's view). */
  get pending(): number {
    return this.runs.length;
  }

  private queue(): void {
    if (this.queued) return;
    this.queued = true;
    setImmediate(this.turn);
  }

  private readonly turn = (): void => {
    this.queued = false;
    if (this.answered) {
      // Once: a server answering every turn still advances its work every other turn.
      this.answered = false;
      if (this.runs.length) this.queue();
      return;
    }
    const keep: Run[] = [];
    for (const r of this.runs) {
      if (r.stale()) r.settle({ ok: false });
      else keep.push(r);
    }
    keep.sort((a, b) => a.used - b.used);
    const deadline = performance.now() + TURN_MS;
    let i = 0;
    while (i < keep.length && performance.now() < deadline) {
      if (this.advance(keep[i], deadline)) keep.splice(i, 1);
      else i++;
    }
    this.runs = keep;
    if (keep.length) this.queue();
  };

  /** Steps `run` until it ends (true; settled) or the deadline passes. */
  private advance(run: Run, deadline: number): boolean {
    const t0 = performance.now();
    try {
      for (;;) {
        const end = startStep();
        const r = run.steps.next();
        // The step's name is made only when steps are logged (a keystroke runs hundreds of steps).
        if (stepsLogged) end(`${run.name} step${typeof r.value === 'string' ? ` (${r.value})` : ''}`);
        if (r.done) {
          run.settle({ ok: true, value: r.value });
          return true;
        }
        if (performance.now() >= deadline) return false;
      }
    } catch (e) {
      this.onError(run.name, e);
      run.settle({ ok: true });
      return true;
    } finally {
      run.used += performance.now() - t0;
    }
  }
}
