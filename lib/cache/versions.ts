/**
 * Cache version counters (SPEC "What the service does" 5): the edge builds cache
 * keys from them, so incrementing one makes every older entry unreachable. Bumps
 * are single SQL increments (no lost update under concurrency) that mark the tenant
 * changed in the same transaction (lib/edge_config/changes.ts).
 */
import { eq, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenants } from "../db/schema/mod.ts";
import type { Tenant } from "../tenants/service.ts";
import { recordAudit } from "../audit/mod.ts";
import { changeTenant } from "../edge_config/changes.ts";
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
  const { versions, settings } = await changeTenant(s, tenant.id, async (tx) => {
    const [row] = await tx.db.update(tenants).set({
      ...(api ? { apiCacheVersion: sql`${tenants.apiCacheVersion} + 1` } : {}),
      ...(assets ? { assetCacheVersion: sql`${tenants.assetCacheVersion} + 1` } : {}),
      ...(html ? { htmlCacheVersion: sql`${tenants.htmlCacheVersion} + 1` } : {}),
      updatedAt: new Date(s.clock.now()),
    }).where(eq(tenants.id, tenant.id)).returning();
    const versions = versionsOf(row);
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId: audit.actorUserId,
      action: audit.action,
      target: tenant.slug,
      metadata: { type, ...versions },
    });
    return { versions, settings: row.settings };
  });
  // After the projection: a CDN refetching at once then reaches the new version.
  const kinds: CdnKind[] = [];
  if (api) kinds.push("api");
  if (assets) kinds.push("assets");
  if (html) kinds.push("html");
  await purgeAfterBump(s, tenant.id, { kinds }, settings);
  return versions;
}
