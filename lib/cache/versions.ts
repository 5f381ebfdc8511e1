/**
 * Cache version counters (SPEC "What the service does" 5): the edge builds cache
 * keys from them, so incrementing one makes every older entry unreachable. Bumps
 * are single SQL increments (no lost update under concurrency), then the tenant's
 * KV snapshot is rewritten in the same request.
 */
import { eq, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenants } from "../db/schema/mod.ts";
import type { Tenant } from "../tenants/service.ts";
import { recordAudit } from "../audit/mod.ts";
import { syncTenantSnapshot } from "../edge_config/sync.ts";
import { purgeAfterBump } from "../cdn/purge.ts";
import type { CdnKind } from "../cdn/tags.ts";

export const REFRESH_TYPES = ["api", "assets", "html", "all"] as const;
export type RefreshType = typeof REFRESH_TYPES[number];

export type CacheVersions = {
  apiCacheVersion: number;
  assetCacheVersion: number;
  htmlCacheVersion: number;
};

export function versionsOf(t: Tenant): CacheVersions {
  return {
    apiCacheVersion: t.apiCacheVersion,
    assetCacheVersion: t.assetCacheVersion,
    htmlCacheVersion: t.htmlCacheVersion,
  };
}

/**
 * Increments the counters `type` names (`all`: the three), records who did it,
 * re-syncs the edge and returns the new versions.
 */
export async function bumpCacheVersions(
  s: Services,
  tenant: Tenant,
  type: RefreshType,
  audit: { actorUserId: string | null; action: string },
): Promise<CacheVersions> {
  const api = type === "api" || type === "all";
  const assets = type === "assets" || type === "all";
  const html = type === "html" || type === "all";
  const [row] = await s.db.update(tenants).set({
    ...(api ? { apiCacheVersion: sql`${tenants.apiCacheVersion} + 1` } : {}),
    ...(assets ? { assetCacheVersion: sql`${tenants.assetCacheVersion} + 1` } : {}),
    ...(html ? { htmlCacheVersion: sql`${tenants.htmlCacheVersion} + 1` } : {}),
    updatedAt: new Date(s.clock.now()),
  }).where(eq(tenants.id, tenant.id)).returning();
  const versions = versionsOf(row);
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId: audit.actorUserId,
    action: audit.action,
    target: tenant.slug,
    metadata: { type, ...versions },
  });
  await syncTenantSnapshot(s, tenant.id);
  // After the sync: a CDN refetching at once then reaches the new version.
  const kinds: CdnKind[] = [];
  if (api) kinds.push("api");
  if (assets) kinds.push("assets");
  if (html) kinds.push("html");
  await purgeAfterBump(s, tenant.id, { kinds }, row.settings);
  return versions;
}
