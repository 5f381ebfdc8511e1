/**
 * A byte-bounded least-recently-used map. Recency is a doubly linked list threaded through
 * the entries themselves (most recent at the head); the Map only indexes them and is never
 * touched by a hit. Re-inserting into a large Map on every hit (delete + set, to use its
 * insertion order) costs V8 ~100 µs once the map holds tens of thousands of keys, which
 * turned a full cache into a 5× slower one (bench/ANALYSIS.md). The links live on the
 * entry rather than on a node object per entry: a node was 56 heap bytes of each cached
 * entry (bench/ANALYSIS.md "An upstream client of our own, an honest video reference, the header read"). All operations are synchronous, so a cache hit
 * never waits on a promise.
 */

/**
 * What the LRU stores: an entry that carries its own size and list links. An entry is in
 * at most one LRU at a time; the fields below belong to that LRU.
 */
export class LruEntry {
  /** The key the entry is stored under while an LRU holds it; null otherwise. */
  lruKey: string | null = null;
  /** Toward the most recently used entry. */
  lruPrev: LruEntry | null = null;
  /** Toward the least recently used entry. */
  lruNext: LruEntry | null = null;

  /** @param size bytes charged to the LRU (grows by ByteLru.grow only) */
  constructor(public size: number) {}
}

export class ByteLru<V extends LruEntry> {
  private map = new Map<string, V>();
  /** Most recently used. */
  private head: V | null = null;
  /** Least recently used: evicted first. */
  private tail: V | null = null;
  private used = 0;

  /**
   * @param bound total bytes kept; an entry larger than this is never stored
   * @param onEvict called with the key and the entry of each one pushed out to make room
   * @param maxEntries entries kept at most, whatever their size
   * @param onDrop called with each value that leaves (evicted, replaced or deleted; not on clear)
   */
  constructor(
    private bound: number,
    private onEvict?: (key: string, value: V) => void,
    readonly maxEntries = Infinity,
    private onDrop?: (value: V) => void,
  ) {}

  /** Total bytes kept at most (an entry larger than this is never stored). */
  get maxBytes(): number {
    return this.bound;
  }

  /**
   * Changes the bound (the memory guard, edge/cache/memory_guard.ts); a smaller one evicts
   * least recently used entries at once until the rest fits.
   */
  resize(maxBytes: number): void {
    this.bound = maxBytes;
    while (this.used > maxBytes && this.tail !== null) this.evictOldest();
  }

  /** Bytes currently held. */
  /** Entries evicted to make room, since start (GET /metrics). */
  evictions = 0;

  get bytes(): number {
    return this.used;
  }

  /** Number of entries. */
  get count(): number {
    return this.map.size;
  }

  /** Returns the entry and marks it most recently used. */
  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    if (entry !== this.head) {
      this.unlink(entry);
      this.pushHead(entry);
    }
    return entry;
  }

  /** Returns the entry without touching recency. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  /**
   * Stores the entry, evicting least recently used ones until it fits. An entry held under
   * another key leaves that key first (its links can be in one place only).
   */
  set(key: string, value: V): boolean {
    if (value.size > this.bound) return false;
    this.delete(key);
    if (value.lruKey !== null) this.delete(value.lruKey);
    while (
      (this.used + value.size > this.bound || this.map.size >= this.maxEntries) &&
      this.tail !== null
    ) {
      this.evictions++;
      this.evictOldest();
    }
    value.lruKey = key;
    this.map.set(key, value);
    this.pushHead(value);
    this.used += value.size;
    return true;
  }

  /**
   * Charges a held entry `delta` more bytes (it gained data while held: compressed copies of
   * its body), evicting least recently used others until the rest fits. False, and nothing
   * charged, when the entry is not held here or would no longer fit the bound.
   */
  grow(entry: V, delta: number): boolean {
    if (entry.lruKey === null || this.map.get(entry.lruKey) !== entry) return false;
    if (entry.size + delta > this.bound) return false;
    entry.size += delta;
    this.used += delta;
    while (this.used > this.bound && this.tail !== null && this.tail !== entry) {
      this.evictions++;
      this.evictOldest();
    }
    return true;
  }

  /** Entries from most to least recently used (a caller stops where it has seen enough). */
  *recent(): IterableIterator<V> {
    for (let e = this.head; e !== null; e = e.lruNext as V | null) yield e;
  }

  /** Keys from least to most recently used. */
  *keys(): IterableIterator<string> {
    for (let e = this.tail; e !== null; e = e.lruPrev as V | null) yield e.lruKey!;
  }

  delete(key: string): boolean {
    const entry = this.map.get(key);
    if (entry === undefined) return false;
    this.map.delete(key);
    this.unlink(entry);
    entry.lruKey = null;
    this.used -= entry.size;
    this.onDrop?.(entry);
    return true;
  }

  /** Forgets every entry (no onDrop); each entry's links are reset. */
  clear(): void {
    for (let e = this.head; e !== null;) {
      const next = e.lruNext;
      e.lruKey = null;
      e.lruPrev = e.lruNext = null;
      e = next as V | null;
    }
    this.map.clear();
    this.head = this.tail = null;
    this.used = 0;
  }

  /** Pushes the least recently used entry out (onDrop, then onEvict). */
  private evictOldest(): void {
    const oldest = this.tail!;
    const key = oldest.lruKey!;
    this.delete(key);
    this.onEvict?.(key, oldest);
  }

  private unlink(entry: V): void {
    if (entry.lruPrev) entry.lruPrev.lruNext = entry.lruNext;
    else this.head = entry.lruNext as V | null;
    if (entry.lruNext) entry.lruNext.lruPrev = entry.lruPrev;
    else this.tail = entry.lruPrev as V | null;
    entry.lruPrev = entry.lruNext = null;
  }

  private pushHead(entry: V): void {
    entry.lruNext = this.head;
    if (this.head) this.head.lruPrev = entry;
    this.head = entry;
    if (this.tail === null) this.tail = entry;
  }
}
