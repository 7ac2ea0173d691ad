/**
 * The language service's caches (analyses by uri, expansions by text): a map kept in order of use,
 * bounded by its number of entries and by the total weight of its values (characters of text,
 * Applications), oldest dropped first but never the entry just stored.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();
  private total = 0;

  constructor(private readonly limits: { maxEntries: number; maxWeight: number; weight: (v: V) => number }) {}

  /** The value, without counting this as a use. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value, now the most recently used. */
  use(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Stores `value` as the most recently used, then drops the oldest entries while over a bound. */
  set(key: K, value: V): V {
    this.delete(key);
    this.entries.set(key, value);
    this.total += this.limits.weight(value);
    while (this.entries.size > 1 && (this.entries.size > this.limits.maxEntries || this.total > this.limits.maxWeight)) {
      const oldKey = this.entries.keys().next().value as K;
      this.delete(oldKey);
    }
    return value;
  }

  delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined && !this.entries.has(key)) return;
    this.entries.delete(key);
    if (old !== undefined) this.total -= this.limits.weight(old);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The summed weight of the values kept. */
  get weight(): number {
    return this.total;
  }
}
