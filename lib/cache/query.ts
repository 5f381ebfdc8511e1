/**
 * Query normalisation for cache keys (docs/decisions.md "Edge cache keys"): the edge builds its
 * keys with it (edge/cache/keys.ts) and a purge by URL names the same variant with it
 * (lib/cache/purge.ts), so both must agree. Pure: no I/O, no state.
 */

/** Tracking parameters that never change a response: dropped from keys and upstream requests. */
export const IGNORED_QUERY_PARAMS: ReadonlySet<string> = new Set([
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "utm_id",
  "gclid",
  "fbclid",
  "msclkid",
  "dclid",
  "mc_cid",
  "mc_eid",
]);

/**
 * Parses a raw query (without `?`; or takes parsed parameters) and returns its parameters minus `drop` and
 * the ignored tracking parameters, sorted by name (stable for repeated names),
 * re-encoded the way URLSearchParams does. Empty string when nothing remains.
 */
export function normaliseQuery(
  rawQuery: string | URLSearchParams,
  drop: readonly string[],
): string {
  if (rawQuery === "") return "";
  const params = typeof rawQuery === "string" ? new URLSearchParams(rawQuery) : rawQuery;
  const kept: [string, string][] = [];
  for (const [k, v] of params) {
    if (IGNORED_QUERY_PARAMS.has(k.toLowerCase()) || drop.includes(k)) continue;
    kept.push([k, v]);
  }
  if (kept.length === 0) return "";
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new URLSearchParams(kept).toString();
}
