/**
 * `setImmediate` in the web worker: the scheduler (lsp/scheduler.ts) hands the event loop back
 * between slices of work with it. `setTimeout(0)` would not do: browsers hold nested timeouts to at
 * least 4 ms, which would stretch every sliced answer; a message to one's own port runs next in the
 * task queue, as `setImmediate` does in Node.
 */
const queue: (() => void)[] = [];
let channel: InstanceType<typeof MessageChannel> | undefined;

export function setImmediate(fn: (...args: unknown[]) => void, ...args: unknown[]): number {
  if (!channel) {
    channel = new MessageChannel();
    // `onmessage` (not addEventListener) starts the port, in browsers and in Node alike.
    (channel.port1 as unknown as { onmessage: () => void }).onmessage = () => queue.shift()?.();
  }
  queue.push(() => fn(...args));
  channel.port2.postMessage(0);
  return queue.length;
}
