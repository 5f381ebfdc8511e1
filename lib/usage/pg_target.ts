/**
 * The Postgres flush target: one transaction per batch, upserts that add deltas
 * (`INSERT … ON CONFLICT DO UPDATE SET n = table.n + excluded.n`), so concurrent
 * instances flushing the same (tenant, day) never overwrite each other.
 */
import { inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { exposureCounts, requestLogs, tenants, usageDaily } from "../db/schema/mod.ts";
import type { UsageBatch, UsageFlushTarget } from "./types.ts";

/** Rows per INSERT statement: well below PostgreSQL's 65 535 bind parameters. */
const ROWS_PER_STATEMENT = 1000;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  }
  return out;
}

export function postgresFlushTarget(db: Db): UsageFlushTarget {
  return {
    async write(batch: UsageBatch) {
      return await db.transaction(async (tx) => {
        // A tenant deleted since its requests were recorded would fail the foreign key and
        // so the whole batch on every retry: its rows are discarded (and counted) instead.
        const ids = [
          ...new Set([...batch.buckets, ...batch.logs, ...batch.exposures].map((r) => r.tenantId)),
        ];
        if (ids.length === 0) return { discarded: 0 };
        const live = new Set(
          (await tx.select({ id: tenants.id }).from(tenants).where(inArray(tenants.id, ids)))
            .map((r) => r.id),
        );
        const keep = <T extends { tenantId: number }>(rows: T[]) =>
          rows.filter((r) => live.has(r.tenantId));
        const buckets = keep(batch.buckets);
        const logs = keep(batch.logs);
        const exposures = keep(batch.exposures);
        for (const part of chunks(buckets)) {
          await tx.insert(usageDaily).values(part).onConflictDoUpdate({
            target: [usageDaily.tenantId, usageDaily.day],
            set: {
              requests: sql`usage_daily.requests + excluded.requests`,
              bytes: sql`usage_daily.bytes + excluded.bytes`,
              hits: sql`usage_daily.hits + excluded.hits`,
              misses: sql`usage_daily.misses + excluded.misses`,
              stale: sql`usage_daily.stale + excluded.stale`,
              bypass: sql`usage_daily.bypass + excluded.bypass`,
              errors: sql`usage_daily.errors + excluded.errors`,
            },
          });
        }
        for (const part of chunks(logs)) {
          await tx.insert(requestLogs).values(part.map((l) => ({ ...l, ts: new Date(l.ts) })));
        }
        for (const part of chunks(exposures)) {
          await tx.insert(exposureCounts).values(
            part.map((e) => ({ ...e, lastSeenAt: new Date(e.lastSeenAt) })),
          ).onConflictDoUpdate({
            target: [
              exposureCounts.experimentId,
              exposureCounts.variantId,
              exposureCounts.variantKey,
            ],
            set: {
              exposures: sql`exposure_counts.exposures + excluded.exposures`,
              lastSeenAt: sql`GREATEST(exposure_counts.last_seen_at, excluded.last_seen_at)`,
            },
          });
        }
        const total = batch.buckets.length + batch.logs.length + batch.exposures.length;
        return { discarded: total - buckets.length - logs.length - exposures.length };
      });
    },

    async pruneLogs(before: Date) {
      const rows = await db.delete(requestLogs).where(lt(requestLogs.ts, before))
        .returning({ id: requestLogs.id });
      return rows.length;
    },
  };
}
