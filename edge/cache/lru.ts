/**
 * A byte-bounded least-recently-used map. Recency is the Map's insertion order:
 * a hit re-inserts the entry at the end, eviction takes from the front. All
 * operations are synchronous, so a cache hit never waits on a promise.
 */

/** An object the LRU can weigh. */
export type Sized = { size: number };

export class ByteLru<V extends Sized> {
  private map = new Map<string, V>();
  private used = 0;

  /**
   * @param maxBytes total bytes kept; an entry larger than this is never stored
   * @param onEvict called with the key of each entry pushed out to make room
   */
  constructor(readonly maxBytes: number, private onEvict?: (key: string) => void) {}

  /** Bytes currently held. */
  get bytes(): number {
    return this.used;
  }

  /** Number of entries. */
  get count(): number {
    return this.map.size;
  }

  /** Returns the entry and marks it most recently used. */
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** Returns the entry without touching recency. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  /** Stores the entry, evicting least recently used ones until it fits. */
  set(key: string, value: V): boolean {
    if (value.size > this.maxBytes) return false;
    this.delete(key);
    while (this.used + value.size > this.maxBytes && this.map.size > 0) {
      const oldest = this.map.keys().next().value!;
      this.delete(oldest);
      this.onEvict?.(oldest);
    }
    this.map.set(key, value);
    this.used += value.size;
    return true;
  }

  /** Keys from least to most recently used. */
  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  delete(key: string): boolean {
    const v = this.map.get(key);
    if (v === undefined) return false;
    this.map.delete(key);
    this.used -= v.size;
    return true;
  }

  clear(): void {
    this.map.clear();
    this.used = 0;
  }
}
