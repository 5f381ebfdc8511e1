/**
 * Compaction of tag-only purge records (entity purges of publish webhooks, tag purges of the
 * API): past MAX_PURGE_RECORDS, the tag-only records older than a minute are merged into one
 * record naming all their tags, each at the latest time a record named it (`tag_times`),
 * instead of folding every purge into a full purge. The merged record purges exactly what
 * the records did: one time for all tags would purge an answer of an unrelated entity stored
 * between the merged times (a miss after every later publish). Records of the last minute keep
 * their own time and announcement (read your publish, edge/publish_revisions.ts).
 */
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { cachePurges } from "../db/schema/mod.ts";

/** Records younger than this are never merged (their announcement is still awaited). */
export const KEEP_SEPARATE_MS = 60_000;

/** Merges the tenant's older tag-only records into one; true when it merged any. */
export async function compactTagPurges(
  tx: Services,
  tenantId: number,
  now: number,
): Promise<boolean> {
  const rows = await tx.db.select({
    id: cachePurges.id,
    at: cachePurges.atMs,
    tags: cachePurges.tags,
    tagTimes: cachePurges.tagTimes,
  })
    .from(cachePurges).where(and(
      eq(cachePurges.tenantId, tenantId),
      sql`${cachePurges.urls} = '[]'::jsonb`,
      sql`${cachePurges.prefixes} = '[]'::jsonb`,
      lt(cachePurges.atMs, now - KEEP_SEPARATE_MS),
    )).orderBy(asc(cachePurges.id));
  if (rows.length < 2) return false;
  const tags = new Map<string, number>();
  let at = 0;
  for (const r of rows) {
    r.tags.forEach((t, i) => {
      const tagAt = r.tagTimes?.[i] ?? r.at;
      if ((tags.get(t) ?? -1) < tagAt) tags.set(t, tagAt);
    });
    at = Math.max(at, r.at);
  }
  await tx.db.delete(cachePurges).where(and(
    eq(cachePurges.tenantId, tenantId),
    inArray(cachePurges.id, rows.map((r) => r.id)),
  ));
  await tx.db.insert(cachePurges).values({
    tenantId,
    atMs: at,
    urls: [],
    prefixes: [],
    tags: [...tags.keys()],
    tagTimes: [...tags.values()],
  });
  return true;
}
