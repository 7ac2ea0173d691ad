/** `node:vm` in the web worker: no contexts, so lsp/idleMemory.ts finds no `gc` and leaves collection to the browser. */
export function runInNewContext(): undefined {
  return undefined;
}
