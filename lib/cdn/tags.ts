/**
 * Cache-Tag values for CDN offload (docs/decisions.md "CDN offload"), shared by the edge,
 * which tags responses, and the purge hook, which names what a cache-version bump
 * invalidates. Tags use the tenant id (never renamed) and only [a-z0-9-] plus the
 * profile name, which every CDN accepts in a comma-separated Cache-Tag header.
 */

/** The cache kinds a version counter covers: api, assets (asset proxy), html (website). */
export type CdnKind = "api" | "assets" | "html";

export const tenantTag = (tenantId: number) => `cachely-t${tenantId}`;
export const kindTag = (tenantId: number, kind: CdnKind) => `cachely-t${tenantId}-${kind}`;
export const profileTag = (tenantId: number, profile: string) =>
  `cachely-t${tenantId}-p-${profile}`;

/** Tags on a response: the tenant, tenant + kind, and tenant + transform profile when one applies. */
export function responseTags(tenantId: number, kind: CdnKind, profile: string | null): string[] {
  const tags = [tenantTag(tenantId), kindTag(tenantId, kind)];
  if (profile !== null) tags.push(profileTag(tenantId, profile));
  return tags;
}
