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
import { ByteLru } from "./lru.ts";
import { type Slab, SlabPacker } from "./slabs.ts";
import { type HitTemplate, hitTemplates } from "./hit_templates.ts";

/** Bytes backed by a plain ArrayBuffer (what Response accepts as a body). */
export type Bytes = Uint8Array<ArrayBuffer>;

/** A whole response body held in memory, shareable between responses. */
export type CachedObject = {
  status: number;
  /** Response headers to replay (no Age, no x-cachely-cache: those are per response). */
  headers: [string, string][];
  body: Bytes;
  /** Clock time the object was fetched, in ms. */
  storedAt: number;
  /** Freshness lifetime in ms. */
  ttlMs: number;
  /** Bytes charged to the LRU (body plus a fixed overhead for headers and key). */
  size: number;
  /** Strong validator, when upstream sent one (If-Range, If-None-Match). */
  etag: string | null;
  lastModified: string | null;
  contentType: string;
  /**
   * Never offered to a CDN (edge/cdn.ts): the upstream set a cookie, which the edge drops
   * but which marks the response as made for one visitor.
   */
  noCdn: boolean;
  /** The prebuilt hit response while the object is hot (edge/cache/hit_templates.ts). */
  sent?: HitTemplate;
  /** True while the memory tier holds the object (only such objects get a template). */
  kept: boolean;
  /** Hit at least once: the next hit builds its template (edge/respond.ts). */
  hitBefore: boolean;
  /** The shared buffer holding the body while the object is cached (edge/cache/slabs.ts). */
  slab: Slab | null;
};

export type EdgeCacheOptions = {
  maxBytes: number;
  clock: { now(): number };
  /** Web Cache API cache name; null keeps the cache in memory only. */
  webCacheName: string | null;
  /** How long past its TTL an object may still be served (stale-if-error); older ones are dropped. */
  staleMs?: number;
};

const OVERHEAD = 512;
const KEY_ORIGIN = "https://edge-cache.cachely.invalid/";

/** The Web Cache API request URL of a cache key. */
export function secondTierUrl(key: string): string {
  return KEY_ORIGIN + encodeURIComponent(key);
}
const H_STORED = "x-cachely-stored-at";
const H_TTL = "x-cachely-ttl-ms";
const H_NO_CDN = "x-cachely-no-cdn";

/**
 * Header pairs shared between cached objects: most entries of a tenant carry the same
 * content-type and cache-control, and a pair of fresh strings per entry was a tenth of
 * an entry's heap (bench/ANALYSIS.md "A full cache"). Bounded; cleared when full. Pairs
 * are never mutated (responses copy them).
 */
const pairs = new Map<string, [string, string]>();
const PAIRS_MAX = 4096;
const PAIR_MAX_CHARS = 200;

function internPair(h: [string, string]): [string, string] {
  if (h[0].length + h[1].length > PAIR_MAX_CHARS || h[0] === "etag" || h[0] === "last-modified") {
    return h; // validators differ per entry
  }
  const key = `${h[0]}\n${h[1]}`;
  const got = pairs.get(key);
  if (got) return got;
  if (pairs.size >= PAIRS_MAX) pairs.clear();
  pairs.set(key, h);
  return h;
}

/**
 * The bytes of a body read by the runtime, in a buffer of exactly their length. Deno hands
 * out a read body (Response.arrayBuffer(), a stream chunk) in a buffer whose allocation can
 * be twice its byteLength or more (2 KB read: ~4 KB allocated; 20 KB: ~65 KB), and V8 reports
 * only the byteLength: a cached body must be copied out (bench/ANALYSIS.md "Session 4").
 */
export function ownedBytes(read: ArrayBuffer | Uint8Array): Bytes {
  return read instanceof ArrayBuffer ? new Uint8Array(read.slice(0)) : read.slice();
}

/**
 * Pieces of a body read in parts, in one buffer of exactly their length: always a copy, since
 * a piece can be a view into a larger read buffer or hide spare capacity (ownedBytes).
 */
export function concatBytes(pieces: readonly Uint8Array[], total: number): Bytes {
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of pieces) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

/** Builds a CachedObject from parts, computing size and validators. */
export function cachedObject(
  status: number,
  headers: [string, string][],
  body: Bytes,
  storedAt: number,
  ttlMs: number,
  noCdn = false,
): CachedObject {
  let etag: string | null = null;
  let lastModified: string | null = null;
  let contentType = "";
  let hsize = 0;
  headers = headers.map(internPair);
  for (const [k, v] of headers) {
    hsize += k.length + v.length;
    if (k === "etag") etag = v;
    else if (k === "last-modified") lastModified = v;
    else if (k === "content-type") contentType = v;
  }
  // The bound counts body.byteLength, so the object must not pin a larger buffer (a view
  // into a read buffer cost 64 KB per 2 KB entry: 2.5 GB for a 100 MB cache).
  if (body.byteLength !== body.buffer.byteLength) body = body.slice();
  return {
    status,
    headers,
    body,
    storedAt,
    ttlMs,
    size: body.byteLength + hsize + OVERHEAD,
    etag,
    lastModified,
    contentType,
    noCdn,
    slab: null,
    kept: false,
    hitBefore: false,
  };
}

export class EdgeCache {
  readonly lru: ByteLru<CachedObject>;
  readonly slabs = new SlabPacker();
  private inflight = new Map<string, Promise<unknown>>();
  private web: Promise<Cache | null> | null = null;
  private writes = new Set<Promise<unknown>>();
  /** Last second-tier operation per key: puts and deletes of one key run in order. */
  private tierOps = new Map<string, Promise<unknown>>();

  constructor(private opts: EdgeCacheOptions) {
    // An object pushed out of memory leaves the second tier too: on a self-hosted
    // instance the Web Cache API is a directory without eviction of its own, so the
    // memory bound is what bounds it (Deno Deploy evicts by itself).
    this.lru = new ByteLru(
      opts.maxBytes,
      opts.webCacheName === null
        ? undefined
        : (key) => void this.inOrder(key, () => this.deleteSecondTier(key)),
      Infinity,
      (obj) => {
        obj.kept = false;
        this.slabs.release(obj);
        hitTemplates.release(obj);
      },
    );
  }

  /** The in-memory entry for a key (fresh or not), synchronously. */
  peek(key: string): CachedObject | undefined {
    return this.lru.get(key);
  }

  /** True while the object is within its TTL. */
  isFresh(obj: CachedObject, now: number): boolean {
    return now < obj.storedAt + obj.ttlMs;
  }

  /** The Web Cache API cache name of the second tier (null: memory only). */
  get secondTierName(): string | null {
    return this.opts.webCacheName;
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
      if (
        !Number.isFinite(storedAt) || !Number.isFinite(ttlMs) ||
        this.opts.clock.now() > storedAt + ttlMs + (this.opts.staleMs ?? 0)
      ) {
        await res.body?.cancel();
        void this.inOrder(key, () => this.deleteSecondTier(key)); // past any use: free the space
        return undefined;
      }
      const headers: [string, string][] = [];
      res.headers.forEach((v, k) => {
        if (k !== H_STORED && k !== H_TTL && k !== H_NO_CDN) headers.push([k, v]);
      });
      const body = ownedBytes(await res.arrayBuffer());
      const noCdn = res.headers.has(H_NO_CDN);
      const obj = cachedObject(res.status, headers, body, storedAt, ttlMs, noCdn);
      this.keep(key, obj);
      return obj;
    } catch {
      return undefined; // the second tier is an optimisation; never fail a request on it
    }
  }

  /** Stores in memory and, without waiting, in the Web Cache tier. */
  store(key: string, obj: CachedObject): void {
    this.keep(key, obj);
    if (this.opts.webCacheName === null) return;
    void this.inOrder(key, async () => {
      const cache = await this.webCache();
      if (!cache) return;
      const headers = new Headers(obj.headers);
      headers.set(H_STORED, String(obj.storedAt));
      headers.set(H_TTL, String(obj.ttlMs));
      if (obj.noCdn) headers.set(H_NO_CDN, "1");
      await cache.put(
        secondTierUrl(key),
        new Response(obj.body, { status: obj.status, headers }),
      );
    });
  }

  /** Into the memory tier, a small body packed into a shared slab. */
  private keep(key: string, obj: CachedObject): void {
    if (obj.size > this.lru.maxBytes || this.lru.peek(key) === obj) return;
    this.slabs.pack(obj);
    obj.kept = this.lru.set(key, obj);
  }

  /** Empties the memory tier. */
  clear(): void {
    for (const key of this.lru.keys()) this.lru.peek(key)!.kept = false;
    this.lru.clear();
    this.slabs.reset();
    hitTemplates.clear();
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

  /** Number of keys with a load in flight. */
  get inflightCount(): number {
    return this.inflight.size;
  }

  private webCache(): Promise<Cache | null> {
    this.web ??= (async () => {
      try {
        return await caches.open(this.opts.webCacheName!);
      } catch {
        return null;
      }
    })();
    return this.web;
  }
}
