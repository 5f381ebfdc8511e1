/**
 * A byte-bounded least-recently-used map. Recency is a doubly linked list of
 * entries (most recent at the head); the Map only indexes them and is never
 * touched by a hit. Re-inserting into a large Map on every hit (delete + set, to
 * use its insertion order) costs V8 ~100 µs once the map holds tens of thousands
 * of keys, which turned a full cache into a 5× slower one (bench/ANALYSIS.md).
 * All operations are synchronous, so a cache hit never waits on a promise.
 */

/** An object the LRU can weigh. */
export type Sized = { size: number };

type Node<V> = { key: string; value: V; prev: Node<V> | null; next: Node<V> | null };

export class ByteLru<V extends Sized> {
  private map = new Map<string, Node<V>>();
  /** Most recently used. */
  private head: Node<V> | null = null;
  /** Least recently used: evicted first. */
  private tail: Node<V> | null = null;
  private used = 0;

  /**
   * @param maxBytes total bytes kept; an entry larger than this is never stored
   * @param onEvict called with the key of each entry pushed out to make room
   * @param maxEntries entries kept at most, whatever their size
   * @param onDrop called with each value that leaves (evicted, replaced or deleted; not on clear)
   */
  constructor(
    readonly maxBytes: number,
    private onEvict?: (key: string) => void,
    readonly maxEntries = Infinity,
    private onDrop?: (value: V) => void,
  ) {}

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
    const node = this.map.get(key);
    if (node === undefined) return undefined;
    if (node !== this.head) {
      this.unlink(node);
      this.pushHead(node);
    }
    return node.value;
  }

  /** Returns the entry without touching recency. */
  peek(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  /** Stores the entry, evicting least recently used ones until it fits. */
  set(key: string, value: V): boolean {
    if (value.size > this.maxBytes) return false;
    this.delete(key);
    while (
      (this.used + value.size > this.maxBytes || this.map.size >= this.maxEntries) &&
      this.tail !== null
    ) {
      const oldest = this.tail.key;
      this.delete(oldest);
      this.onEvict?.(oldest);
    }
    const node: Node<V> = { key, value, prev: null, next: null };
    this.map.set(key, node);
    this.pushHead(node);
    this.used += value.size;
    return true;
  }

  /** Keys from least to most recently used. */
  *keys(): IterableIterator<string> {
    for (let n = this.tail; n !== null; n = n.prev) yield n.key;
  }

  delete(key: string): boolean {
    const node = this.map.get(key);
    if (node === undefined) return false;
    this.map.delete(key);
    this.unlink(node);
    this.used -= node.value.size;
    this.onDrop?.(node.value);
    return true;
  }

  clear(): void {
    this.map.clear();
    this.head = this.tail = null;
    this.used = 0;
  }

  private unlink(node: Node<V>): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = null;
  }

  private pushHead(node: Node<V>): void {
    node.next = this.head;
    if (this.head) this.head.prev = node;
    this.head = node;
    if (this.tail === null) this.tail = node;
  }
}
