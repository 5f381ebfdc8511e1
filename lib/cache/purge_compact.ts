/**
 * Compaction of tag-only purge records (entity purges of publish webhooks, tag purges of the
 * API): past MAX_PURGE_RECORDS, all the tag-only records, recent ones too, are merged into one
 * instead of folding every purge into a full purge (a bulk publish sends one webhook per
 * entry). The merged record purges and announces exactly what the records did:
 * - each tag at the latest time a record named it (`tag_times`): one time for all tags would
 *   purge an answer of an unrelated entity stored between the merged times;
 * - each announcement at its own time (`announcements`), for read your publish
 *   (edge/publish_revisions.ts) and the prewarm, which read the latest per entity id. Ids a
 *   later announcement names again, and announcements past PUBLISH_WAIT_MS, are dropped.
 * It runs inside changeTenant, which holds the tenant row's lock: merges do not interleave.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { cachePurges } from "../db/schema/mod.ts";
import {
  type Announced,
  announcementsOf,
  PUBLISH_WAIT_MS,
  type PurgeRecord,
  type TimedAnnouncement,
} from "../kv/snapshot.ts";

/** Tag-only records (oldest first) -> one record purging and announcing the same. */
export function mergeTagPurges(records: PurgeRecord[], now: number): PurgeRecord {
  const tags = new Map<string, number>();
  let at = 0;
  const all: TimedAnnouncement[] = [];
  for (const r of records) {
    r.tags.forEach((t, i) => {
      const tagAt = r.tagTimes?.[i] ?? r.at;
      if ((tags.get(t) ?? -1) < tagAt) tags.set(t, tagAt);
    });
    at = Math.max(at, r.at);
    all.push(...announcementsOf(r));
  }
  // The edge takes each id's last announcement: earlier ones naming it are never read.
  const seen = new Set<string>();
  const kept: TimedAnnouncement[] = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const a = all[i];
    const ids = a.ids.filter((id) => !seen.has(id));
    for (const id of a.ids) seen.add(id);
    if (ids.length === 0 || now - a.at > PUBLISH_WAIT_MS) continue;
    const revisions: Announced["revisions"] = {};
    for (const id of ids) if (a.revisions[id] !== undefined) revisions[id] = a.revisions[id];
    kept.push({ action: a.action, ids, types: a.types, revisions, at: a.at });
  }
  return {
    at,
    urls: [],
    prefixes: [],
    tags: [...tags.keys()],
    tagTimes: [...tags.values()],
    ...(kept.length > 0 ? { announcements: kept.reverse() } : {}),
  };
}

/** Merges the tenant's tag-only records into one; true when it merged any. */
export async function compactTagPurges(
  tx: Services,
  tenantId: number,
  now: number,
): Promise<boolean> {
  const rows = await tx.db.select().from(cachePurges).where(and(
    eq(cachePurges.tenantId, tenantId),
    sql`${cachePurges.urls} = '[]'::jsonb`,
    sql`${cachePurges.prefixes} = '[]'::jsonb`,
  )).orderBy(asc(cachePurges.id));
  if (rows.length < 2) return false;
  const merged = mergeTagPurges(
    rows.map((r) => ({
      at: r.atMs,
      urls: [],
      prefixes: [],
      tags: r.tags,
      ...(r.tagTimes ? { tagTimes: r.tagTimes } : {}),
      ...(r.announced ? { announced: r.announced } : {}),
      ...(r.announcements ? { announcements: r.announcements } : {}),
    })),
    now,
  );
  await tx.db.delete(cachePurges).where(and(
    eq(cachePurges.tenantId, tenantId),
    inArray(cachePurges.id, rows.map((r) => r.id)),
  ));
  await tx.db.insert(cachePurges).values({
    tenantId,
    atMs: merged.at,
    urls: [],
    prefixes: [],
    tags: merged.tags,
    tagTimes: merged.tagTimes,
    announcements: merged.announcements ?? null,
  });
  return true;
}
