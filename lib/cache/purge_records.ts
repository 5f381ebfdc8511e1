/** The purge records a tenant's edge snapshot carries, oldest first. */
import { asc, eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { cachePurges } from "../db/schema/mod.ts";
import type { PurgeRecord } from "../kv/snapshot.ts";

/**
 * Purge records kept per tenant: past this many, the next purge bumps every cache version
 * instead (a full purge) and clears them, so a snapshot stays small (the edge indexes the
 * records once per snapshot: edge/cache/purges.ts).
 */
export const MAX_PURGE_RECORDS = 50;

/**
 * Bytes of entries, tag times and announcements kept per tenant, as stored JSON: past it
 * the same full purge. The snapshot is written in one KV atomic operation, which takes at
 * most 800 KiB; records past that would stop every later change of the tenant from reaching
 * the edge.
 */
export const MAX_PURGE_BYTES = 256 * 1024;

export async function purgeRecords(s: Services, tenantId: number): Promise<PurgeRecord[]> {
  const rows = await s.db.select().from(cachePurges).where(eq(cachePurges.tenantId, tenantId))
    .orderBy(asc(cachePurges.id)).limit(MAX_PURGE_RECORDS);
  return rows.map((r) => ({
    at: r.atMs,
    urls: r.urls,
    prefixes: r.prefixes,
    tags: r.tags,
    ...(r.tagTimes ? { tagTimes: r.tagTimes } : {}),
    ...(r.announced ? { announced: r.announced } : {}),
    ...(r.announcements ? { announcements: r.announcements } : {}),
  }));
}
