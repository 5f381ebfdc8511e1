/**
 * path_counts: exact requests per path per tenant per UTC day, written with the usage flush
 * (lib/usage/pg_target.ts) and read by the Usage page's Top paths. Bounded: each tenant-day
 * keeps its PATH_ROWS_PER_DAY busiest paths. A path new to a full tenant-day enters at that
 * day's smallest count (Space-Saving: every path with more than 1/PATH_ROWS_PER_DAY of the
 * day's requests is kept), its `overcount` says how much it inherited, and the rows past the
 * bound are deleted after each write. A day with fewer paths than the bound is exact.
 */
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { pathCounts } from "../db/schema/mod.ts";
import type { PathDelta } from "./types.ts";

/** Paths kept per tenant per day. */
export const PATH_ROWS_PER_DAY = 1000;
/** Days path_counts rows are kept (this month and the previous one). */
const PATH_RETENTION_DAYS = 62;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Adds `rows` (one statement), then trims each tenant-day they touch to the bound. */
export async function writePaths(tx: Tx, rows: PathDelta[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((p) => ({
    tenant_id: p.tenantId,
    day: p.day,
    path: p.path,
    requests: p.requests,
    errors: p.errors,
    bytes: p.bytes,
  })));
  await tx.execute(sql`
    WITH x AS (
      SELECT * FROM jsonb_to_recordset(${json}::jsonb) AS x(tenant_id integer, day date,
        path text, requests bigint, errors bigint, bytes bigint)
    ), floors AS (
      SELECT p.tenant_id, p.day,
        CASE WHEN count(*) >= ${PATH_ROWS_PER_DAY} THEN min(p.requests) ELSE 0 END AS floor
      FROM path_counts p JOIN (SELECT DISTINCT tenant_id, day FROM x) d
        ON p.tenant_id = d.tenant_id AND p.day = d.day
      GROUP BY p.tenant_id, p.day
    )
    INSERT INTO path_counts (tenant_id, day, path, requests, errors, bytes, overcount)
    SELECT x.tenant_id, x.day, x.path, x.requests + coalesce(f.floor, 0), x.errors, x.bytes,
      coalesce(f.floor, 0)
    FROM x LEFT JOIN floors f ON f.tenant_id = x.tenant_id AND f.day = x.day
    ON CONFLICT (tenant_id, day, path) DO UPDATE SET
      requests = path_counts.requests + excluded.requests - excluded.overcount,
      errors = path_counts.errors + excluded.errors,
      bytes = path_counts.bytes + excluded.bytes`);
  await tx.execute(sql`
    DELETE FROM path_counts p USING (
      SELECT tenant_id, day, path, row_number() OVER (
        PARTITION BY tenant_id, day ORDER BY requests DESC, path) AS rank
      FROM path_counts
      WHERE (tenant_id, day) IN (
        SELECT tenant_id, day FROM jsonb_to_recordset(${json}::jsonb)
          AS x(tenant_id integer, day date))
    ) r
    WHERE r.rank > ${PATH_ROWS_PER_DAY} AND p.tenant_id = r.tenant_id AND p.day = r.day
      AND p.path = r.path`);
}

/** Deletes rows older than the retention. */
export async function prunePaths(db: Db, now: number): Promise<void> {
  const cutoff = new Date(now - PATH_RETENTION_DAYS * 86_400_000).toISOString().slice(0, 10);
  await db.delete(pathCounts).where(lt(pathCounts.day, cutoff));
}

/** One tenant's `limit` busiest paths over days [from, to). */
export async function topPaths(db: Db, tenantId: number, from: string, to: string, limit: number) {
  const requests = sql<string>`sum(${pathCounts.requests})`;
  const rows = await db.select({
    path: pathCounts.path,
    requests,
    errors: sql<string>`sum(${pathCounts.errors})`,
    bytes: sql<string>`sum(${pathCounts.bytes})`,
    overcount: sql<string>`sum(${pathCounts.overcount})`,
  }).from(pathCounts)
    .where(and(
      eq(pathCounts.tenantId, tenantId),
      gte(pathCounts.day, from),
      lt(pathCounts.day, to),
    ))
    .groupBy(pathCounts.path).orderBy(desc(requests), pathCounts.path).limit(limit);
  return rows.map((r) => ({
    path: r.path,
    requests: Number(r.requests),
    errors: Number(r.errors),
    bytes: Number(r.bytes),
    overcount: Number(r.overcount),
  }));
}
