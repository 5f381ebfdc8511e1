/**
 * Cache keys (docs/decisions.md "Edge cache keys"). A key names everything the
 * cached bytes depend on and nothing secret:
 *
 *   api:    a|<tenantId>|<apiVersion>|<tenantOrigin>|<path>?<normalised query>[|t=<profile>@<regen>]
 *   assets: s|<tenantId>|<assetVersion>|<tenantOrigin>|<path>[?<normalised query>]
 *   site:   h|<tenantId>|<htmlVersion>|<tenantOrigin>|<path>?<normalised query>
 *   slice:  r|<start>+<length>|<asset key>   (edge/slices.ts)
 *
 * The tenant origin is part of the key because bodies are rewritten to the host
 * they were requested on (tenant host, preview host or a custom domain).
 * Credentials never appear: the auth query parameter is dropped from the query
 * before it is normalised, and the token is injected after the key is built.
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

export function apiKey(
  tenantId: number,
  version: number,
  tenantOrigin: string,
  path: string,
  query: string,
): string {
  return `a|${tenantId}|${version}|${tenantOrigin}|${path}?${query}`;
}

/** The key of a transformed response: the plain key plus profile and its regenerate version. */
export function transformKey(plainKey: string, profile: string, regenVersion: number): string {
  return `${plainKey}|t=${encodeURIComponent(profile)}@${regenVersion}`;
}

export function assetKey(
  tenantId: number,
  version: number,
  tenantOrigin: string,
  path: string,
  query: string,
): string {
  return `s|${tenantId}|${version}|${tenantOrigin}|${path}${query ? `?${query}` : ""}`;
}

/**
 * The key of one byte slice of an asset: its own namespace (no path can make an asset key
 * start with `r|`), the asset key whole, so a version bump drops the slices with the object.
 */
export function sliceKey(objectKey: string, start: number, length: number): string {
  return `r|${start}+${length}|${objectKey}`;
}

export function siteKey(
  tenantId: number,
  version: number,
  tenantOrigin: string,
  path: string,
  query: string,
): string {
  return `h|${tenantId}|${version}|${tenantOrigin}|${path}?${query}`;
}
