/** Bounded event history per cache-refresh webhook (SPEC "Limits": most recent events). */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { webhookEvents } from "../db/schema/mod.ts";
import { EVENT_HISTORY_LIMIT } from "./cache_refresh.ts";

/** Deletes all but the newest `keep` events of one webhook; returns the rows removed. */
export async function pruneEvents(
  s: Services,
  tenantId: number,
  webhookId: number,
  keep = EVENT_HISTORY_LIMIT,
): Promise<number> {
  // The id of the keep-th newest event; everything older goes.
  const rows = await s.db.select({ id: webhookEvents.id }).from(webhookEvents)
    .where(and(eq(webhookEvents.tenantId, tenantId), eq(webhookEvents.webhookId, webhookId)))
    .orderBy(sql`${webhookEvents.id} DESC`).limit(1).offset(keep - 1);
  if (rows.length === 0) return 0;
  const deleted = await s.db.delete(webhookEvents).where(and(
    eq(webhookEvents.tenantId, tenantId),
    eq(webhookEvents.webhookId, webhookId),
    lt(webhookEvents.id, rows[0].id),
  )).returning({ id: webhookEvents.id });
  return deleted.length;
}
