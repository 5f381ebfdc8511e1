/** The purge records a tenant's edge snapshot carries (issue 23), oldest first. */
import { asc, eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { cachePurges } from "../db/schema/mod.ts";
import type { PurgeRecord } from "../kv/snapshot.ts";

/**
 * Purge records kept per tenant: past this many, the next purge bumps every cache version
 * instead (a full purge) and clears them, so a snapshot stays small and the edge's check
 * of an old object stays a short scan.
 */
export const MAX_PURGE_RECORDS = 50;

export async function purgeRecords(s: Services, tenantId: number): Promise<PurgeRecord[]> {
  const rows = await s.db.select().from(cachePurges).where(eq(cachePurges.tenantId, tenantId))
    .orderBy(asc(cachePurges.id)).limit(MAX_PURGE_RECORDS);
  return rows.map((r) => ({ at: r.atMs, urls: r.urls, prefixes: r.prefixes, tags: r.tags }));
}
