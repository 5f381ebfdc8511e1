/**
 * Cache-Tag values for CDN offload (docs/decisions.md "CDN offload"), shared by the edge,
 * which tags responses, and the purge hook, which names what a cache-version bump or a
 * purge invalidates. Every tag Cachely sends a CDN for a tenant is in that tenant's
 * namespace, `cachely-t<id>` and `cachely-t<id>-...` (the id is never renamed), so a purge
 * can only name the tenant's own objects, however many tenants share the CDN.
 */

/** The cache kinds a version counter covers: api, assets (asset proxy), html (website). */
export type CdnKind = "api" | "assets" | "html";

/** Longest tag of an origin, or a purge, that goes to a CDN (in the tenant's namespace). */
export const MAX_TAG_LENGTH = 256;

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

/** True when `tag` is in the tenant's namespace: `cachely-t<id>` or `cachely-t<id>-...`. */
export function ownTag(tenantId: number, tag: string): boolean {
  const ns = tenantTag(tenantId);
  return tag.startsWith(ns) && (tag.length === ns.length || tag.charCodeAt(ns.length) === 45);
}

/** An origin's own tag (its Cache-Tag value) as the CDN knows it: in the tenant's namespace. */
export const originTag = (tenantId: number, tag: string) => `cachely-t${tenantId}-o-${tag}`;

/** A purge tag as sent to the CDN: the tenant's cachely tags as they are, others namespaced. */
export function cdnTag(tenantId: number, tag: string): string {
  return ownTag(tenantId, tag) ? tag : originTag(tenantId, tag);
}
