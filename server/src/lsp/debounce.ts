/** Per-key debouncing: the last request for a key within the delay wins. */
export class Debouncer {
  private timers = new Map<string, NodeJS.Timeout>();

  run(key: string, delayMs: number, fn: () => void): void {
    this.cancel(key);
    const t = setTimeout(() => {
      this.timers.delete(key);
      fn();
    }, delayMs);
    this.timers.set(key, t);
  }

  cancel(key: string): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
  }
}
