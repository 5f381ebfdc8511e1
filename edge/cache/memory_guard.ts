/**
 * The memory guard (EDGE_MEMORY_LIMIT_MB; default 512 on Deno Deploy, whose isolates are killed
 * past 512 MB): it watches the process's resident memory and moves the edge cache's byte bound
 * to bring the process back under the limit. RSS follows an eviction only once V8 collects what
 * it freed, so a burst can overshoot before a shrink shows (bench/RESULTS.md: limit 512, peak
 * 636 MiB, then 438). Everything else the process holds
 * (runtime, code, database driver, requests in flight) is outside its reach; the cache is the
 * one part that can give memory back, so it gives it.
 *
 * - at or above SHRINK_AT of the limit: the bound drops below what the cache holds by the
 *   overshoot over HOLD_AT (the oldest entries go at once), at most once per SETTLE_MS: what an
 *   eviction frees comes back only once V8 collects it, so RSS lags behind;
 * - at or above HOLD_AT: the bound is held at what the cache holds (a new entry evicts);
 * - below GROW_BELOW: the bound grows back, by half the room left below HOLD_AT per check,
 *   never past EDGE_CACHE_MAX_BYTES.
 *
 * RSS is read every CHECK_MS and every STORES_PER_CHECK stores, so a burst of misses cannot
 * add more than ~STORES_PER_CHECK entries between two readings.
 */
/** What the guard moves: a ByteLru's bound. */
export type Bounded = {
  readonly bytes: number;
  readonly maxBytes: number;
  resize(maxBytes: number): void;
};

export const SHRINK_AT = 0.85;
export const HOLD_AT = 0.75;
export const GROW_BELOW = 0.65;
export const SETTLE_MS = 2_000;
export const CHECK_MS = 1_000;
export const STORES_PER_CHECK = 128;
/** The bound never drops below this: a handful of hot entries cost nothing next to a runtime. */
export const FLOOR_BYTES = 4 * 1024 * 1024;

export type MemoryGuardOptions = {
  /** Resident memory the process must stay under, bytes. */
  limitBytes: number;
  /** The configured bound (EDGE_CACHE_MAX_BYTES): growing back stops there. */
  maxBytes: number;
  /** Resident memory now (tests pass their own). */
  rss?: () => number;
  now?: () => number;
};

export class MemoryGuard {
  private stores = 0;
  private lastShrink = -Infinity;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly rss: () => number;
  private readonly now: () => number;

  constructor(private lru: Bounded, private opts: MemoryGuardOptions) {
    this.rss = opts.rss ?? (() => Deno.memoryUsage().rss);
    this.now = opts.now ?? (() => performance.now());
  }

  /** Checks on a timer too (memory the cache did not add still counts); stop() ends it. */
  start(): this {
    this.timer = setInterval(() => this.check(), CHECK_MS);
    Deno.unrefTimer(this.timer as unknown as number);
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Called before each store: every STORES_PER_CHECK stores, a check. */
  beforeStore(): void {
    if (++this.stores >= STORES_PER_CHECK) {
      this.stores = 0;
      this.check();
    }
  }

  /** Reads RSS and moves the bound (see the module comment). */
  check(): void {
    const rss = this.rss();
    const { limitBytes, maxBytes } = this.opts;
    const lru = this.lru;
    if (rss >= limitBytes * SHRINK_AT) {
      const now = this.now();
      if (now - this.lastShrink >= SETTLE_MS) {
        this.lastShrink = now;
        lru.resize(Math.max(FLOOR_BYTES, lru.bytes - (rss - limitBytes * HOLD_AT)));
        return;
      }
    }
    if (rss >= limitBytes * HOLD_AT) {
      lru.resize(Math.max(FLOOR_BYTES, Math.min(lru.maxBytes, lru.bytes)));
    } else if (rss < limitBytes * GROW_BELOW && lru.maxBytes < maxBytes) {
      const room = (limitBytes * HOLD_AT - rss) / 2;
      lru.resize(Math.min(maxBytes, lru.maxBytes + room));
    }
  }
}
