/**
 * Read-through caching with miss coalescing and stale-if-error (RFC 5861 §4):
 * fresh → HIT; otherwise one loader per key runs and every concurrent caller
 * shares its result (MISS); when it fails, the last good copy is served for
 * STALE_IF_ERROR_SECONDS past its TTL (STALE), else the 502/504 failure.
 */
import type { CachedObject, EdgeCache } from "./store.ts";
import type { UpstreamFailure, UpstreamStream } from "../upstream_types.ts";

/** What a loader produces: an object (stored when cacheable), a stream, or a failure. */
export type Loaded =
  | { kind: "object"; obj: CachedObject; cacheable: boolean }
  | UpstreamStream
  | UpstreamFailure;

export type Served =
  | { kind: "object"; obj: CachedObject; cache: "HIT" | "MISS" | "STALE" }
  | Exclude<Loaded, { kind: "object" }>;

export type ThroughContext = {
  cache: EdgeCache;
  clock: { now(): number };
  staleIfErrorMs: number;
};

/** The fresh in-memory object for a key, synchronously (the hit fast path). */
export function freshInMemory(ctx: ThroughContext, key: string): CachedObject | undefined {
  const obj = ctx.cache.peek(key);
  return obj && ctx.cache.isFresh(obj, ctx.clock.now()) ? obj : undefined;
}

/** Serves `key` from the cache or through `load`, coalescing concurrent misses. */
export async function readThrough(
  ctx: ThroughContext,
  key: string,
  load: () => Promise<Loaded>,
): Promise<Served> {
  const { cache, clock } = ctx;
  let cached = cache.peek(key);
  if (cached === undefined && cache.hasSecondTier) cached = await cache.lookupSecondTier(key);
  if (cached && cache.isFresh(cached, clock.now())) {
    return { kind: "object", obj: cached, cache: "HIT" };
  }
  const { value, leader } = await cache.coalesce(key, async () => {
    const r = await load();
    if (r.kind === "object" && r.cacheable) cache.store(key, r.obj);
    return r;
  });
  let result: Loaded = value;
  // A stream can be read once: followers of a streamed miss fetch for themselves.
  if (result.kind === "stream" && !leader) result = await load();
  if (result.kind === "object") return { kind: "object", obj: result.obj, cache: "MISS" };
  if (result.kind === "error" && cached) {
    if (clock.now() < cached.storedAt + cached.ttlMs + ctx.staleIfErrorMs) {
      return { kind: "object", obj: cached, cache: "STALE" };
    }
  }
  return result;
}
