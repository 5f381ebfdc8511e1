/**
 * Read-through caching with miss coalescing, revalidation and the stale rules of RFC 5861
 * (docs/decisions.md "HTTP caching"):
 * - fresh -> HIT;
 * - expired but within the object's stale-while-revalidate window -> STALE at once, and one
 *   background refresh per key per instance (coalesced with any miss of the key);
 * - otherwise one loader per key runs and every concurrent caller shares its result (MISS);
 *   an expired object with a validator is handed to the loader, which asks the origin
 *   conditionally and turns a 304 into a refreshed copy of it;
 * - when the loader fails, the last good copy is served within its stale-if-error window
 *   (STALE), never one marked must-revalidate / no-cache; else the 502/504 failure.
 */
import type { PurgeIndex } from "./purges.ts";
import type { CachedObject, EdgeCache } from "./store.ts";
import type { UpstreamFailure, UpstreamStream } from "../../lib/net/upstream_types.ts";
import type { VaryIndex } from "./vary.ts";
import type { FetchLog } from "./fetch_log.ts";
import { type Fwd, fwdStatus, passStatus, withDetail } from "../cache_status.ts";

/**
 * What a loader produces: an object (stored when cacheable), a stream, or a failure.
 * `vary`: the normalised names the object varies on (edge/cache/freshness.ts varyOf), set
 * by origin-mode loaders; absent or "" when it varies on nothing. `fetched`: the Cache-Status
 * of the fetch (edge/cache_status.ts), its parameters until readThrough completes it; kept
 * beside the object, not on it (8 bytes on each of 100,000 entries for one answer's header).
 */
export type Loaded =
  | { kind: "object"; obj: CachedObject; cacheable: boolean; vary?: string; fetched?: string }
  | UpstreamStream
  | UpstreamFailure;

export type Served =
  | { kind: "object"; obj: CachedObject; cache: "HIT" | "MISS" | "STALE"; fetched?: string }
  | Exclude<Loaded, { kind: "object" }>;

export type ThroughContext = {
  cache: EdgeCache;
  clock: { now(): number };
  staleIfErrorMs: number;
  /** Purges by URL, prefix or tag (edge/cache/purges.ts); absent in tests that need none. */
  purges?: PurgeIndex;
  /** Which primary keys vary on request headers (origin cache mode only). */
  vary?: VaryIndex;
  /** The last origin answer per primary key (edge/cache/fetch_log.ts); absent in tests. */
  fetches?: FetchLog;
};

/** A loader; `prev` is the expired copy to revalidate (it has an ETag or Last-Modified). */
export type Loader = (prev?: CachedObject) => Promise<Loaded>;

export type ReadOptions = {
  /** The request asked for revalidation (Cache-Control: no-cache, origin mode): no HIT. */
  revalidate?: boolean;
  /**
   * The variant key of this request for an answer that varies on `vary` (origin mode);
   * null when the request's values cannot key one (the answer is then not stored).
   */
  variant?: (vary: string) => string | null;
  /** Called with an object read from the Web Cache tier, before it is used (entity tags). */
  promoted?: (obj: CachedObject) => void;
};

/**
 * The fresh in-memory object for a key, synchronously (the hit fast path). A hit is its key's
 * second request: the object goes into the Web Cache tier now (once; EdgeCache.share).
 */
export function freshInMemory(ctx: ThroughContext, key: string): CachedObject | undefined {
  const obj = ctx.cache.peek(key);
  if (obj === undefined) return undefined;
  const now = ctx.clock.now();
  if (!ctx.cache.isFresh(obj, now) || purged(ctx, key, obj)) return undefined;
  obj.usedAt = now;
  if (!obj.inTier && ctx.cache.hasSecondTier) ctx.cache.share(key, obj);
  return obj;
}

/** True when a purge newer than `obj` matches it; the object is then dropped from both tiers. */
function purged(ctx: ThroughContext, key: string, obj: CachedObject): boolean {
  if (ctx.purges === undefined || !ctx.purges.purged(key, obj)) return false;
  void ctx.cache.delete(key);
  return true;
}

/** The key a request looks up: the variant key when the primary key is known to vary. */
export function lookupKey(
  ctx: ThroughContext,
  primary: string,
  variant: ReadOptions["variant"],
): string | null {
  if (variant === undefined || ctx.vary === undefined) return primary;
  const names = ctx.vary.get(primary);
  return names === undefined ? primary : variant(names);
}

/** True while `obj` may be served stale on an origin failure. */
export function withinStaleIfError(ctx: ThroughContext, obj: CachedObject, now: number): boolean {
  const sie = obj.sieMs < 0 ? ctx.staleIfErrorMs : obj.sieMs;
  return now < obj.storedAt + obj.ttlMs + sie;
}

/** Serves `key` from the cache or through `load`, coalescing concurrent misses. */
export async function readThrough(
  ctx: ThroughContext,
  primary: string,
  load: Loader,
  opts: ReadOptions = {},
): Promise<Served> {
  const { cache, clock } = ctx;
  const key = lookupKey(ctx, primary, opts.variant);
  if (key === null) return await uncached(ctx, primary, load);
  let cached = cache.peek(key);
  if (cached === undefined && cache.hasSecondTier) {
    cached = await cache.lookupSecondTier(key);
    if (cached !== undefined) opts.promoted?.(cached);
  }
  if (cached !== undefined && purged(ctx, key, cached)) cached = undefined;
  const now = clock.now();
  if (cached && !opts.revalidate) {
    cached.usedAt = now;
    if (cache.isFresh(cached, now)) {
      if (!cached.inTier && cache.hasSecondTier) cache.share(key, cached);
      return { kind: "object", obj: cached, cache: "HIT" };
    }
    if (now < cached.storedAt + cached.ttlMs + cached.swrMs) {
      refreshInBackground(ctx, key, primary, load, cached, opts);
      return { kind: "object", obj: cached, cache: "STALE" };
    }
  }
  const prev = cached && revalidatable(cached) ? cached : undefined;
  // Why this request goes to the origin (RFC 9211 fwd), said by the answer's Cache-Status
  const fwd: Fwd = opts.revalidate && cached
    ? "request"
    : cached
    ? "stale"
    : key !== primary
    ? "vary-miss"
    : "uri-miss";
  const { value, leader } = await cache.coalesce(
    key,
    () => loadAndStore(ctx, primary, load, prev, opts, fwd),
  );
  let result: Loaded = value;
  // A stream can be read once: followers of a streamed miss fetch for themselves; a
  // follower whose variant differs from the leader's fetches its own.
  if (
    !leader &&
    (result.kind === "stream" ||
      (result.kind === "object" && variantOf(result, primary, opts) !== key))
  ) {
    result = await load();
  }
  if (result.kind === "object") {
    result.obj.usedAt = now;
    return { kind: "object", obj: result.obj, cache: "MISS", fetched: result.fetched };
  }
  if (
    result.kind === "error" && cached && cached.readable &&
    withinStaleIfError(ctx, cached, clock.now())
  ) {
    // the answer says what the origin did: its 5xx status when it answered one
    const failed = result.originStatus !== undefined ? `fwd-status=${result.originStatus}` : null;
    const fetched = fwdStatus(fwd, withDetail(failed, "stale-if-error"));
    return { kind: "object", obj: cached, cache: "STALE", fetched };
  }
  return result;
}

/** A conditional request is worth making: the copy is a 200 (or a slice's 206) with a validator. */
function revalidatable(obj: CachedObject): boolean {
  return (obj.status === 200 || obj.status === 206) &&
    (obj.etag !== null || obj.lastModified !== null);
}

/** The key a loaded result is stored under for this request (null: not storable). */
function variantOf(r: Loaded, primary: string, opts: ReadOptions): string | null {
  if (r.kind !== "object" || !r.vary || opts.variant === undefined) return primary;
  return opts.variant(r.vary);
}

/** Runs the loader and stores a cacheable object under its (variant) key. */
async function loadAndStore(
  ctx: ThroughContext,
  primary: string,
  load: Loader,
  prev: CachedObject | undefined,
  opts: ReadOptions,
  fwd: Fwd,
): Promise<Loaded> {
  const r = await load(prev);
  if (r.kind !== "object") {
    noteOther(ctx, primary, r);
    return r;
  }
  if (!r.cacheable) {
    r.fetched = fwdStatus(fwd, r.fetched ?? null);
    ctx.fetches?.note(primary, ctx.clock.now(), r.fetched);
    return r;
  }
  if (r.vary && opts.variant !== undefined && ctx.vary !== undefined) {
    ctx.vary.set(primary, r.vary);
    const key = opts.variant(r.vary);
    if (key !== null) ctx.cache.store(key, r.obj);
    r.fetched = key === null
      ? fwdStatus(fwd, withDetail(r.fetched, "vary"))
      : fwdStatus(fwd, r.fetched ?? null, true);
    ctx.fetches?.note(primary, ctx.clock.now(), r.fetched);
    return r;
  }
  if (opts.variant !== undefined) ctx.vary?.delete(primary);
  ctx.cache.store(primary, r.obj);
  r.fetched = fwdStatus(fwd, r.fetched ?? null, true);
  // the memory tier's flat copy of the key, when it holds the object: one string for both
  ctx.fetches?.note(r.obj.lruKey ?? primary, ctx.clock.now(), r.fetched);
  return r;
}

/** Notes a loaded stream (too large to store, or a range) or failure in the fetch log. */
function noteOther(ctx: ThroughContext, primary: string, r: Exclude<Loaded, { kind: "object" }>) {
  if (ctx.fetches === undefined) return;
  const status = r.kind === "stream"
    ? passStatus("MISS", r.status, r.status === 206 ? "range" : "size")
    : passStatus("MISS", r.originStatus ?? null, r.code.replaceAll("_", "-"));
  ctx.fetches.note(primary, ctx.clock.now(), status);
}

/**
 * One refresh of `key` in the background (stale-while-revalidate): skipped while a load of
 * the key is in flight, so an instance sends at most one request per key at a time.
 */
function refreshInBackground(
  ctx: ThroughContext,
  key: string,
  primary: string,
  load: Loader,
  stale: CachedObject,
  opts: ReadOptions,
): void {
  if (ctx.cache.isLoading(key)) return;
  const prev = revalidatable(stale) ? stale : undefined;
  ctx.cache.coalesce(key, async () => {
    // Registered now (one refresh per key), started after this response is on its way:
    // the refresh's synchronous start (URL, headers, connection) is not the visitor's wait.
    await new Promise((r) => setTimeout(r, 0));
    const r = await loadAndStore(ctx, primary, load, prev, opts, "stale");
    if (r.kind === "stream") r.body?.cancel().catch(() => {});
    return r;
  }).catch(() => {});
}

/** A request whose variant cannot be keyed: loaded for itself, never stored. */
async function uncached(ctx: ThroughContext, primary: string, load: Loader): Promise<Served> {
  const r = await load();
  if (r.kind !== "object") return r;
  r.fetched = fwdStatus("vary-miss", withDetail(r.fetched, "vary"));
  ctx.fetches?.note(primary, ctx.clock.now(), r.fetched);
  return { kind: "object", obj: r.obj, cache: "MISS", fetched: r.fetched };
}
