/**
 * The edge cache: a byte-bounded in-memory LRU in front of the Web Cache API
 * (DESIGN "Stack"), plus miss coalescing. Keys are strings built by
 * edge/cache/keys.ts and already carry the tenant's cache versions, so a version
 * bump simply makes new keys and old entries age out of the LRU.
 *
 * The Web Cache API keys must be URLs: a key becomes
 * `https://edge-cache.cachely.invalid/<encoded key>`. Freshness is tracked in our
 * own headers (stored-at, ttl) against the injected clock, never the Web
 * Cache's notion of time, so tests drive it with ManualClock.
 */
import { ByteLru } from "../../lib/cache/lru.ts";
import { SlabPacker } from "./slabs.ts";
import { hitTemplateSet, rangeTemplateSet } from "./hit_templates.ts";
import { type CachedObject, cachedObject, ownedBytes } from "./object.ts";
import { MemoryGuard } from "./memory_guard.ts";
import { dropCodings, encodeLater } from "./variants.ts";
import { Doorkeeper } from "./doorkeeper.ts";

export { type Bytes, CachedObject, cachedObject, concatBytes, ownedBytes } from "./object.ts";

export type EdgeCacheOptions = {
  maxBytes: number;
  clock: { now(): number };
  /**
   * Web Cache API cache name; null keeps the cache in memory only. A promise when the name
   * (the database's installation id) is known only after start-up: the tier opens once it is.
   */
  webCacheName: string | Promise<string> | null;
  /** How long past its TTL an object may still be served (stale-if-error); older ones are dropped. */
  staleMs?: number;
  /**
   * EDGE_MEMORY_LIMIT_MB in bytes: the memory guard moves the bound to keep the process's
   * RSS under it (edge/cache/memory_guard.ts); undefined: the bound is maxBytes, fixed.
   */
  memoryLimitBytes?: number;
  /** The process's resident memory (tests pass their own). */
  rss?: () => number;
};

const KEY_ORIGIN = "https://edge-cache.cachely.invalid/";

/**
 * A key as one flat string of its own. A key is built by concatenation (edge/cache/keys.ts), a
 * tree of V8 string pieces that the index would keep for as long as the entry lives: 90 heap
 * bytes more per entry on Deno 2.9, 120 on Deno 2.5 (whose V8 keeps the tree even once the
 * key was hashed). A JSON round trip makes a fresh flat string; once per store, never on a hit.
 */
function flatCopy(key: string): string {
  return JSON.parse(JSON.stringify(key));
}

/** The Web Cache API request URL of a cache key. */
export function secondTierUrl(key: string): string {
  return KEY_ORIGIN + encodeURIComponent(key);
}
/** Second-tier operations in flight at most before a store skips its put. */
const MAX_TIER_WRITES = 256;
const H_STORED = "x-cachely-stored-at";
const H_TTL = "x-cachely-ttl-ms";
const H_NO_CDN = "x-cachely-no-cdn";
/** The object's stale windows (edge/cache/object.ts swrMs, sieMs): `<swr>,<sie>`. */
const H_STALE = "x-cachely-stale-ms";

export class EdgeCache {
  readonly lru: ByteLru<CachedObject>;
  readonly slabs = new SlabPacker();
  /** Prebuilt hit answers of this cache's objects, and of their slices' hot ranges. */
  readonly templates = hitTemplateSet();
  readonly rangeTemplates = rangeTemplateSet();
  private inflight = new Map<string, Promise<unknown>>();
  private web: Promise<Cache | null> | null = null;
  private writes = new Set<Promise<unknown>>();
  /** Last second-tier operation per key: puts and deletes of one key run in order. */
  private tierOps = new Map<string, Promise<unknown>>();
  private guard: MemoryGuard | null;
  /** Keys stored before (the tier's admission); null without a tier. */
  private doorkeeper: Doorkeeper | null;
  #tierName: string | null = null;

  constructor(private opts: EdgeCacheOptions) {
    const name = opts.webCacheName;
    if (typeof name === "string") this.#tierName = name;
    else name?.then((n) => this.#tierName = n, () => {});
    this.doorkeeper = opts.webCacheName === null ? null : new Doorkeeper();
    // An object pushed out of memory leaves the second tier too: on a self-hosted
    // instance the Web Cache API is a directory without eviction of its own, so the
    // memory bound is what bounds it (Deno Deploy evicts by itself). One never put
    // there (a key requested once) costs no delete.
    this.lru = new ByteLru(
      opts.maxBytes,
      opts.webCacheName === null ? undefined : (key, obj) => {
        if (obj.inTier) void this.inOrder(key, () => this.deleteSecondTier(key));
      },
      Infinity,
      (obj) => {
        this.slabs.release(obj);
        this.templates.release(obj);
        this.rangeTemplates.release(obj);
        dropCodings(obj, this.templates);
      },
    );
    this.guard = opts.memoryLimitBytes === undefined ? null : new MemoryGuard(this.lru, {
      limitBytes: opts.memoryLimitBytes,
      maxBytes: opts.maxBytes,
      rss: opts.rss,
    }).start();
  }

  /** Stops the memory guard's timer. */
  close(): void {
    this.guard?.stop();
  }

  /** The in-memory entry for a key (fresh or not), synchronously. */
  peek(key: string): CachedObject | undefined {
    return this.lru.get(key);
  }

  /** True while the object is within its TTL. */
  isFresh(obj: CachedObject, now: number): boolean {
    return now < obj.storedAt + obj.ttlMs;
  }

  /** The Web Cache API cache name of the second tier (null: memory only or not yet known). */
  get secondTierName(): string | null {
    return this.#tierName;
  }

  /**
   * Moves the second tier to cache `name` (the database's installation id turned out not to be
   * the one KV named at start, edge/boot.ts): what memory holds came from the other
   * installation's state and is dropped; the old tier is left to its own eviction.
   */
  useSecondTier(name: string): void {
    if (this.opts.webCacheName === null || this.#tierName === name) return;
    this.#tierName = name;
    this.web = null;
    const bound = this.lru.maxBytes;
    this.lru.resize(0); // everything out, each entry released as on eviction
    this.lru.resize(bound);
  }

  /** True when a second (Web Cache API) tier is configured. */
  get hasSecondTier(): boolean {
    return this.opts.webCacheName !== null;
  }

  /** The Web Cache tier only (call after a memory miss); promotes what it finds. */
  async lookupSecondTier(key: string): Promise<CachedObject | undefined> {
    if (this.opts.webCacheName === null) return undefined;
    const cache = await this.webCache();
    if (!cache) return undefined;
    try {
      const res = await cache.match(secondTierUrl(key));
      if (!res) return undefined;
      const storedAt = Number(res.headers.get(H_STORED));
      const ttlMs = Number(res.headers.get(H_TTL));
      const [swrMs, sieMs] = (res.headers.get(H_STALE) ?? "0,-1").split(",").map(Number);
      const sie = sieMs < 0 ? this.opts.staleMs ?? 0 : sieMs;
      if (
        !Number.isFinite(storedAt) || !Number.isFinite(ttlMs) ||
        this.opts.clock.now() > storedAt + ttlMs + Math.max(swrMs || 0, sie || 0)
      ) {
        await res.body?.cancel();
        void this.inOrder(key, () => this.deleteSecondTier(key)); // past any use: free the space
        return undefined;
      }
      const headers: [string, string][] = [];
      res.headers.forEach((v, k) => {
        if (k !== H_STORED && k !== H_TTL && k !== H_NO_CDN && k !== H_STALE) headers.push([k, v]);
      });
      const body = ownedBytes(await res.arrayBuffer());
      const noCdn = res.headers.has(H_NO_CDN);
      const obj = cachedObject(res.status, headers, body, storedAt, ttlMs, noCdn);
      obj.swrMs = swrMs || 0;
      obj.sieMs = Number.isFinite(sieMs) ? sieMs : -1;
      obj.inTier = true;
      this.keep(key, obj);
      return obj;
    } catch {
      return undefined; // the second tier is an optimisation; never fail a request on it
    }
  }

  /**
   * Stores in memory and, on the key's second request, without waiting in the Web Cache
   * tier: a key stored before (held in memory still, or passed by the doorkeeper), or one
   * the caller knows was `requested` before (a prewarm). A key's first object is shared on
   * its first hit instead (`share`), so a key requested once costs the tier nothing.
   */
  store(key: string, obj: CachedObject, requested = false): void {
    const again = requested || this.lru.peek(key) !== undefined;
    this.keep(key, obj);
    if (this.doorkeeper === null) return;
    if (this.doorkeeper.seen(key) || again) this.share(key, obj);
  }

  /**
   * Puts an object of the memory tier into the Web Cache tier, once (a hit calls it while
   * `inTier` is false). A burst faster than the tier writes would queue copies without
   * bound: past MAX_TIER_WRITES in flight it stays in memory only, until its next hit.
   */
  share(key: string, obj: CachedObject): void {
    if (
      obj.inTier || this.opts.webCacheName === null || this.writes.size >= MAX_TIER_WRITES ||
      !obj.readable
    ) return;
    obj.inTier = true;
    // Built now: the constructor copies the body, which by the time the put runs may have
    // left the memory tier and its slab been reused (edge/cache/slabs.ts).
    const headers = new Headers(obj.headers);
    headers.set(H_STORED, String(obj.storedAt));
    headers.set(H_TTL, String(obj.ttlMs));
    if (obj.noCdn) headers.set(H_NO_CDN, "1");
    headers.set(H_STALE, `${obj.swrMs},${obj.sieMs}`);
    const res = new Response(obj.body, { status: obj.status, headers });
    void this.inOrder(key, async () => {
      const cache = await this.webCache();
      if (!cache) return;
      await cache.put(secondTierUrl(key), res);
    });
  }

  /** Into the memory tier, a small body packed into a shared slab. */
  private keep(key: string, obj: CachedObject): void {
    if (obj.size > this.lru.maxBytes || obj.lruKey === key) return;
    // Held under another key: it leaves that one first, so its slab counts it once.
    if (obj.lruKey !== null) this.lru.delete(obj.lruKey);
    this.guard?.beforeStore();
    this.slabs.pack(obj);
    if (this.lru.set(flatCopy(key), obj)) encodeLater(obj, this.lru, key);
  }

  /** Empties the memory tier. */
  clear(): void {
    this.lru.clear();
    this.slabs.reset();
    this.templates.clear();
    this.rangeTemplates.clear();
  }

  /**
   * Runs a second-tier operation after the previous one for the same key, so an
   * eviction's delete can never land before the put it evicts (which would leave
   * the entry behind). Tracked in `writes` until it settles (see flush).
   */
  private inOrder(key: string, op: () => Promise<unknown>): Promise<unknown> {
    const next = (this.tierOps.get(key) ?? Promise.resolve()).then(op).catch(() => {});
    this.tierOps.set(key, next);
    const w = next.finally(() => {
      this.writes.delete(w);
      if (this.tierOps.get(key) === next) this.tierOps.delete(key);
    });
    this.writes.add(w);
    return w;
  }

  /** Waits for Web Cache writes in flight (tests, graceful shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  /** Removes a key from both tiers. */
  async delete(key: string): Promise<void> {
    this.lru.delete(key);
    await this.inOrder(key, () => this.deleteSecondTier(key));
  }

  private async deleteSecondTier(key: string): Promise<void> {
    const cache = this.opts.webCacheName === null ? null : await this.webCache();
    await cache?.delete(secondTierUrl(key)).catch(() => false);
  }

  /**
   * Runs `load` once per key at a time: concurrent callers share the first
   * caller's promise. `leader` tells a caller whether it ran `load` itself (a
   * follower must not consume a one-shot result such as a stream).
   */
  async coalesce<T>(key: string, load: () => Promise<T>): Promise<{ value: T; leader: boolean }> {
    const pending = this.inflight.get(key) as Promise<T> | undefined;
    if (pending) return { value: await pending, leader: false };
    const p = load();
    this.inflight.set(key, p);
    try {
      return { value: await p, leader: true };
    } finally {
      this.inflight.delete(key);
    }
  }

  /** True while a load of `key` is in flight. */
  isLoading(key: string): boolean {
    return this.inflight.has(key);
  }

  /** Number of keys with a load in flight. */
  get inflightCount(): number {
    return this.inflight.size;
  }

  /** The second tier; null (this time) while its name is not known yet: never waited for. */
  private webCache(): Promise<Cache | null> {
    const name = this.#tierName;
    if (name === null) return Promise.resolve(null);
    this.web ??= (async () => {
      try {
        return await caches.open(name);
      } catch {
        return null;
      }
    })();
    return this.web;
  }
}
