/**
 * The one definition of each derived usage figure (docs/decisions.md "Usage figures").
 * Every page, the API and the CLI compute these here, so the same traffic shows the same
 * number wherever it is read.
 */

/** Rounds a fraction to 4 decimals (what the API answers and the pages format). */
export const fraction4 = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;

/**
 * Cache hit ratio: hits / (hits + misses + stale). BYPASS (preview, uncacheable,
 * streamed) and refused requests are not cache decisions and stay out of both sides;
 * STALE is served from the cache but only because the origin failed, so it counts
 * against the ratio. 0 when nothing was cacheable.
 */
export function cacheHitRatio(u: { hits: number; misses: number; stale: number }): number {
  return fraction4(u.hits, u.hits + u.misses + u.stale);
}

/** Error rate: responses with status >= 500 / requests. */
export function errorRate(u: { errors: number; requests: number }): number {
  return fraction4(u.errors, u.requests);
}

/**
 * What the cache saved the origin: requests and bytes answered without reaching it
 * (requests - originRequests, bytes - originBytes), never below 0.
 */
export function savedByCache(
  u: { requests: number; bytes: number; originRequests: number; originBytes: number },
): { requests: number; bytes: number } {
  return {
    requests: Math.max(0, u.requests - u.originRequests),
    bytes: Math.max(0, u.bytes - u.originBytes),
  };
}

/**
 * Estimated savings in USD: bytes the cache saved the origin, priced per GB (10^9 bytes, as
 * CMS plans count), rounded to cents.
 */
export function estimatedSavingsUsd(savedBytes: number, usdPerGb: number): number {
  return Math.round((savedBytes / 1e9) * usdPerGb * 100) / 100;
}
