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
 * before it is normalised (normaliseQuery, lib/cache/query.ts), and the token is injected
 * after the key is built.
 */

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
