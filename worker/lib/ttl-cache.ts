/**
 * A small LRU map whose entries expire after `ttlMs`. One per app instance (an isolate in Workers,
 * the process in Node): public catalogue reads are the same for everyone and change only when a crawl
 * or an admin writes, so a few seconds of reuse removes most database work under load.
 * Bounded by count and, when given `weigh`, by total weight (bytes of the cached answers): memory stays
 * flat whatever the URLs clients ask for.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number; weight: number }>();
  private weight = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
    private readonly bound?: { weigh: (value: V) => number; maxWeight: number },
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= this.now()) {
      if (entry) this.remove(key);
      return undefined;
    }
    // Re-insert: Map order is recency order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const weight = this.bound?.weigh(value) ?? 0;
    // Larger than the whole bound: not worth evicting everything else for.
    if (this.bound && weight > this.bound.maxWeight) return;
    this.remove(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs, weight });
    this.weight += weight;
    while (this.entries.size > this.maxEntries || (this.bound && this.weight > this.bound.maxWeight)) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
  }

  /** Entries held and their total weight, for tests and benchmarks. */
  get size(): { entries: number; weight: number } {
    return { entries: this.entries.size, weight: this.weight };
  }

  /** Forgets everything: an admin write changed what the public reads. */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.weight -= entry.weight;
    this.entries.delete(key);
  }
}
