/**
 * The engine's expensive work is written as generators that yield between steps (`*Steps`), so that
 * the language server can answer other requests between them (lsp/scheduler.ts). `runSteps` runs one
 * to its end in one go: the CLI and every synchronous caller. The one home of that loop, every layer.
 */

/** Runs a stepwise computation to its end. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
