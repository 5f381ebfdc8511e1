/**
 * Compaction of tag-only purge records (entity purges of publish webhooks, tag purges of the
 * API): past MAX_PURGE_RECORDS, the tag-only records older than a minute are merged into one
 * record naming all their tags at the latest of their times, instead of folding every purge
 * into a full purge. The merged record purges at least what the records did (each tag at a
 * time no earlier than its own), so the rule "an object stored before a purge that names it
 * is not served" still holds; it purges more only for objects stored between the merged
 * times. Records of the last minute keep their own time and announcement (read your publish,
 * edge/publish_revisions.ts).
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
  })
    .from(cachePurges).where(and(
      eq(cachePurges.tenantId, tenantId),
      sql`${cachePurges.urls} = '[]'::jsonb`,
      sql`${cachePurges.prefixes} = '[]'::jsonb`,
      lt(cachePurges.atMs, now - KEEP_SEPARATE_MS),
    )).orderBy(asc(cachePurges.id));
  if (rows.length < 2) return false;
  const tags = new Set<string>();
  let at = 0;
  for (const r of rows) {
    for (const t of r.tags) tags.add(t);
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
    tags: [...tags],
  });
  return true;
}
