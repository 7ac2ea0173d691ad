/**
 * Per-key debouncing: the last request for a key within the delay wins. A delay of 0 (an opened
 * document, settings, `debounceMs: 0`) runs on the event loop's next turn (`setImmediate`), not on a
 * timer: Node waits at least 1 ms for any timer, a fifteenth of the 1 KiB document's whole first answer
 * (issue 39). A newer version of the document already read drops the run before it starts (received.ts),
 * and the run holds the loop for one inline slice at most (scheduler.ts) before other messages are handled.
 */
export class Debouncer {
  private timers = new Map<string, { cancel(): void }>();

  run(key: string, delayMs: number, fn: () => void): void {
    this.cancel(key);
    const fire = () => {
      this.timers.delete(key);
      fn();
    };
    if (delayMs > 0) {
      const t = setTimeout(fire, delayMs);
      this.timers.set(key, { cancel: () => clearTimeout(t) });
    } else {
      const t = setImmediate(fire);
      this.timers.set(key, { cancel: () => clearImmediate(t) });
    }
  }

  cancel(key: string): void {
    this.timers.get(key)?.cancel();
    this.timers.delete(key);
  }
}
