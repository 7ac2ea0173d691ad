/** `node:perf_hooks` in the web worker: no garbage-collection entries (lsp/stepLog.ts is off there). */
export const constants = {};
export class PerformanceObserver {
  observe(): void {}
  disconnect(): void {}
}
export const performance = globalThis.performance;
