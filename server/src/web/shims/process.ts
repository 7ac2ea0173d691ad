/**
 * `process` (and `node:process`) in the web worker: what the LSP layer reads of it. No environment,
 * so APPSET_DEBUG and the test requests are off; no standard streams (the worker talks through
 * messages only); CPU time is not measurable, so it is wall time.
 */
const noStream = { on: () => undefined, write: () => true };
export const process = {
  env: {} as Record<string, string | undefined>,
  argv: [] as string[],
  platform: 'browser',
  stdin: noStream,
  stdout: noStream,
  stderr: noStream,
  exitCode: undefined as number | undefined,
  memoryUsage: Object.assign(() => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }), { rss: () => 0 }),
  cpuUsage: (): { user: number; system: number } => ({ user: Math.round(performance.now() * 1000), system: 0 }),
  exit: (): void => undefined,
  // The template library's \`now\` reads nanoseconds from it: the worker's clock is performance.now().
  hrtime: Object.assign(
    (): [number, number] => {
      const ns = Math.round(performance.now() * 1e6);
      return [Math.floor(ns / 1e9), ns % 1e9];
    },
    { bigint: (): bigint => BigInt(Math.round(performance.now() * 1e6)) },
  ),
  nextTick: (fn: (...args: unknown[]) => void, ...args: unknown[]): void => void queueMicrotask(() => fn(...args)),
};
export const cpuUsage = process.cpuUsage;
export default process;
