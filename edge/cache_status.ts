/**
 * RFC 9211 `Cache-Status` on every edge answer: why the edge answered from its cache or went
 * to the origin, what the origin said and whether the answer was stored (docs/decisions.md
 * "HTTP caching: Cache-Status"). A hit's value is a constant, built into the hit template
 * once; a miss's parameters are built once per origin fetch and carried beside the object
 * (edge/cache/through.ts `fetched`).
 */
import type { CacheOutcome } from "./types.ts";

/** The cache's name in the field (RFC 9211 §2: the first member names the cache). */
const CACHE = "Cachely";

/** A fresh copy answered from the cache. */
export const HIT_STATUS = `${CACHE}; hit`;

/**
 * Why the request went to the origin (RFC 9211 §2.2): no copy; a copy for another variant;
 * an expired copy (revalidated or refetched); the request asked to revalidate; not cacheable
 * by configuration (preview, forwarded range); a method the cache does not serve.
 */
export type Fwd = "uri-miss" | "vary-miss" | "stale" | "request" | "bypass" | "method";

/**
 * The parameters of an origin answer (after `fwd`): its status, and the seconds of freshness
 * it was stored with or the reason it was not (`detail`: no-store, private, set-cookie,
 * vary, no-lifetime, status, size, type, ...).
 */
export function fetchParams(status: number, ttlMs: number | null, detail: string | null): string {
  const base = `fwd-status=${status}`;
  if (detail !== null) return `${base}; detail=${detail}`;
  return `${base}; ttl=${Math.floor((ttlMs ?? 0) / 1000)}`;
}

/**
 * `params` with `detail=<detail>` added unless it already says why (a parameter appears once in
 * a structured field, RFC 8941 §3.1.2).
 */
export function withDetail(params: string | null | undefined, detail: string): string {
  if (params === null || params === undefined || params === "") return `detail=${detail}`;
  return params.includes("detail=") ? params : `${params}; detail=${detail}`;
}

/** The full value for an answer that went to the origin. */
export function fwdStatus(fwd: Fwd, params: string | null, stored = false): string {
  const head = `${CACHE}; fwd=${fwd}`;
  if (params === null) return head;
  return stored ? `${head}; ${params}; stored` : `${head}; ${params}`;
}

/** True when `value` is already a full Cache-Status value (not only a fetch's parameters). */
function full(value: string): boolean {
  return value.startsWith(CACHE);
}

/**
 * The value for an answer built from an object: a hit's constant, the fetch that made it
 * or failed (stale-if-error), or a stale copy's remaining (negative) freshness
 * (stale-while-revalidate).
 */
export function objectStatus(
  cache: CacheOutcome,
  fetched: string | null,
  remainingMs: number,
): string {
  if (cache === "HIT") return HIT_STATUS;
  // a miss's fetch, or a stale copy served because the origin failed (its status in it)
  if (fetched !== null && full(fetched)) return fetched;
  if (cache === "STALE") {
    return `${HIT_STATUS}; ttl=${Math.floor(remainingMs / 1000)}; detail=stale`;
  }
  return fwdStatus(cache === "BYPASS" ? "bypass" : "uri-miss", fetched);
}

/** The value for an answer that is no object: a stream passed on or a failure. */
export function passStatus(cache: CacheOutcome, status: number | null, detail: string): string {
  if (cache === "HIT") return HIT_STATUS;
  const fwd = cache === "BYPASS" ? "bypass" : "uri-miss";
  return fwdStatus(
    fwd,
    status === null ? `detail=${detail}` : `fwd-status=${status}; detail=${detail}`,
  );
}

/**
 * Gives an answer that has no Cache-Status yet its own: one the edge made without its cache
 * (a refusal, an error, a redirect) is `fwd=bypass`; a method the cache does not serve,
 * `fwd=method`. Headers that cannot be changed (a Response.redirect) are left as they are.
 */
export function withCacheStatus(res: Response, method: string): Response {
  if (res.headers.has("cache-status")) return res;
  const fwd: Fwd = method === "GET" || method === "HEAD" ? "bypass" : "method";
  try {
    res.headers.set("cache-status", fwdStatus(fwd, null));
  } catch {
    // immutable headers
  }
  return res;
}
