/**
 * The engine's expensive work is written as generators that yield between steps (`*Steps`), so that
 * the language server can answer other requests between them (lsp/scheduler.ts). `runSteps` runs one
 * to its end in one go: the CLI and every synchronous caller. The one home of that loop, every layer.
 *
 * Where the steps are (docs/limits.md): the facade's `analyzeSteps` → `yaml/document.ts`
 * `parseFileSteps`, a step per 2,000 lines of the limits pre-scan (`guardYamlSteps`), per 256 parser
 * tokens, per 200 items of a document's longest list (`yaml/composeSteps.ts`) and per 4,000 nodes of
 * the located tree (`yaml/ast.ts` `astSteps`); `prepare` → `expand/expand.ts` `expandAppSetSteps`, a
 * step per Application; `prepareDiagnostics`, a step per feature module; `preparePreview` →
 * `expand/preview.ts` `previewTextSteps`; the list, matrix and merge generators and post-selectors, a
 * step per hundred parameter sets (`GenerateSteps`). The language server hands them to
 * `lsp/scheduler.ts` through `lsp/state.ts` (`analyzed`, `prepare`, `slices`, `whenReady`);
 * `APPSET_DEBUG=steps` (`lsp/stepLog.ts`) names every long step, and `scripts/bench/steps.ts` lists them.
 */

/** Runs a stepwise computation to its end. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
