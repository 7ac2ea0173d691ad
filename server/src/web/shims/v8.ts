/** `node:v8` in the web worker: no heap statistics, and flags cannot be set (lsp/idleMemory.ts then finds no `gc`). */
export function getHeapStatistics(): { used_heap_size: number } {
  return { used_heap_size: 0 };
}
export function setFlagsFromString(): void {}
/** No flags are set in a worker, so their hash never changes (heapFlags.ts setRestorableFlag). */
export function cachedDataVersionTag(): number {
  return 0;
}
