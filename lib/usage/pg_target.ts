/**
 * The Postgres flush target: one transaction per batch, upserts that add deltas
 * (`INSERT ... ON CONFLICT DO UPDATE SET n = table.n + excluded.n`), so concurrent
 * instances flushing the same (tenant, day) never overwrite each other.
 *
 * Each table is written by one statement whose rows travel as a single JSON parameter
 * expanded by `jsonb_to_recordset`. Building a 500-row multi-VALUES insert through the
 * query builder held the event loop for ~40 ms (on PGlite and on PostgreSQL alike),
 * which showed up as the cache-hit p99; one JSON.stringify plus a server-side expansion
 * keeps a flush's synchronous work small (bench/ANALYSIS.md).
 *
 * Exactly once: each transaction first claims its key (instance, sequence) in
 * usage_flushes. When a write fails its outcome may be unknown (COMMIT sent, answer lost);
 * before the next write the key is claimed again as "not counted", which waits for that
 * transaction if it is still running: a conflict means it committed, and what it wrote
 * is deducted from the batches the aggregator merged it back into (flush_ledger.ts).
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { requestLogs, tenants, usageFlushes, usageHourly } from "../db/schema/mod.ts";
import type { HourBucket, UsageBatch, UsageBucket, UsageFlushTarget } from "./types.ts";
import { FlushLedger } from "./flush_ledger.ts";
import { LATENCY_BUCKETS } from "./latency.ts";
import { trimSketch } from "./latency_sketch.ts";
import { pruneVisitors, VISITOR_RETENTION_MS, writeVisitors } from "./pg_visitors.ts";
import { prunePaths, writePaths } from "./pg_paths.ts";

/** Days usage_hourly rows are kept. */
export const HOURLY_RETENTION_DAYS = 7;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Rows per statement. Embedded PGlite inserts at ~20 µs a row on the event loop's own
 * thread, so a 500-row statement blocked visitors for ~10-25 ms; statements of 50
 * rows with a turn of the event loop between them keep each pause to a few ms.
 */
const ROWS_PER_STATEMENT = 50;

/** Runs `write` over `rows` in statements of ROWS_PER_STATEMENT, yielding in between. */
async function inStatements<T>(rows: T[], write: (part: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    await write(rows.slice(i, i + ROWS_PER_STATEMENT));
  }
}

/** Flush keys are kept this long: longer than any outage a doubt could outlive. */
const FLUSH_KEY_RETENTION_MS = 7 * 86_400_000;

export function postgresFlushTarget(db: Db, ledger = new FlushLedger()): UsageFlushTarget {
  return {
    async write(batch: UsageBatch) {
      for (const seq of ledger.doubts) ledger.settle(seq, await wasCounted(db, ledger, seq));
      const deducted = ledger.deduct(batch);
      const seq = ledger.nextSeq();
      try {
        const result = await writeOnce(db, ledger.instanceId, seq, deducted.batch);
        deducted.done();
        return result;
      } catch (e) {
        ledger.doubt(seq, deducted.batch);
        throw e;
      }
    },

    async pruneLogs(before: Date, now: number) {
      const rows = await db.delete(requestLogs).where(lt(requestLogs.ts, before))
        .returning({ id: requestLogs.id });
      await db.delete(usageFlushes)
        .where(lt(usageFlushes.at, new Date(now - FLUSH_KEY_RETENTION_MS)));
      // Hourly counters are kept HOURLY_RETENTION_DAYS (the dashboard shows 48 hours).
      await db.delete(usageHourly).where(
        lt(usageHourly.hour, new Date(now - HOURLY_RETENTION_DAYS * 86_400_000)),
      );
      await pruneVisitors(db, new Date(now - VISITOR_RETENTION_MS));
      await prunePaths(db, now);
      return rows.length;
    },
  };
}

/**
 * Settles a flush whose outcome is unknown: claims its key as not counted (waiting for
 * its transaction if that still runs), or reads what the key says when it is taken.
 */
async function wasCounted(db: Db, ledger: FlushLedger, seq: number): Promise<boolean> {
  const claimed = await db.insert(usageFlushes)
    .values({ instanceId: ledger.instanceId, seq, counted: false })
    .onConflictDoNothing().returning({ seq: usageFlushes.seq });
  if (claimed.length > 0) return false;
  const [row] = await db.select({ counted: usageFlushes.counted }).from(usageFlushes)
    .where(and(eq(usageFlushes.instanceId, ledger.instanceId), eq(usageFlushes.seq, seq)));
  if (!row) throw new Error(`usage flush ${seq} could not be settled yet`);
  return row.counted;
}

/** One all-or-nothing transaction, under key (instanceId, seq). */
async function writeOnce(db: Db, instanceId: string, seq: number, batch: UsageBatch) {
  return await db.transaction(async (tx) => {
    // A tenant deleted since its requests were recorded would fail the foreign key and
    // so the whole batch on every retry: its rows are discarded (and counted) instead.
    const ids = [
      ...new Set(
        [
          ...batch.buckets,
          ...batch.logs,
          ...batch.exposures,
          ...batch.visitors ?? [],
          ...batch.paths ?? [],
        ]
          .map((r) => r.tenantId),
      ),
    ];
    if (ids.length === 0) return { discarded: 0 };
    const key = await tx.insert(usageFlushes).values({ instanceId, seq, counted: true })
      .onConflictDoNothing().returning({ seq: usageFlushes.seq });
    if (key.length === 0) throw new Error(`usage flush ${seq} was already settled`);
    const live = new Set(
      (await tx.select({ id: tenants.id }).from(tenants).where(inArray(tenants.id, ids)))
        .map((r) => r.id),
    );
    const keep = <T extends { tenantId: number }>(rows: T[]) =>
      rows.filter((r) => live.has(r.tenantId));
    const buckets = keep(batch.buckets);
    const logs = keep(batch.logs);
    const exposures = keep(batch.exposures);
    await inStatements(buckets, (part) => writeBuckets(tx, part));
    await inStatements(keep(batch.hours ?? []), (part) => writeHours(tx, part));
    await inStatements(logs, (part) => writeLogs(tx, part));
    await inStatements(exposures, (part) => writeExposures(tx, part));
    await inStatements(keep(batch.visitors ?? []), (part) => writeVisitors(tx, part));
    await inStatements(keep(batch.paths ?? []), (part) => writePaths(tx, part));
    const total = batch.buckets.length + batch.logs.length + batch.exposures.length;
    return { discarded: total - buckets.length - logs.length - exposures.length };
  });
}

/** The rows as one jsonb parameter (keys are the recordset's column names). */
const rowsParam = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;

/** Every counter column of usage_daily and usage_hourly, and its UsageBucket field. */
const COUNTERS = [
  ["requests", "requests"],
  ["bytes", "bytes"],
  ["hits", "hits"],
  ["misses", "misses"],
  ["stale", "stale"],
  ["bypass", "bypass"],
  ["errors", "errors"],
  ["blocked", "blocked"],
  ["status_1xx", "status1xx"],
  ["status_2xx", "status2xx"],
  ["status_3xx", "status3xx"],
  ["status_4xx", "status4xx"],
  ["status_5xx", "status5xx"],
  ["origin_requests", "originRequests"],
  ["origin_bytes", "originBytes"],
] as const satisfies readonly (readonly [string, keyof UsageBucket])[];
const COUNTER_COLUMNS = sql.raw(COUNTERS.map(([c]) => c).join(", "));
const COUNTER_TYPES = sql.raw(COUNTERS.map(([c]) => `${c} bigint`).join(", "));

/**
 * The latency sketch columns (migration 0011): counts per lib/usage/latency_sketch.ts
 * bucket, sent trimmed of trailing zeros and added element-wise (a shorter array, an old
 * row's empty one included, reads as zeros past its end).
 */
const SKETCHES = [
  ["edge_latency", "edgeLatency"],
  ["origin_latency", "originLatency"],
] as const satisfies readonly (readonly [string, keyof UsageBucket])[];
const SKETCH_COLUMNS = sql.raw(SKETCHES.map(([c]) => `, ${c}`).join(""));
const SKETCH_TYPES = sql.raw(SKETCHES.map(([c]) => `, ${c} jsonb`).join(""));
const SKETCH_VALUES = sql.raw(
  SKETCHES.map(([c]) =>
    `, ARRAY(SELECT v::bigint FROM jsonb_array_elements_text(COALESCE(${c}, '[]'::jsonb))
      WITH ORDINALITY AS e(v, i) ORDER BY i)`
  ).join(""),
);
const sketchSums = (table: string) =>
  SKETCHES.map(([c]) =>
    `, ${c} = ARRAY(SELECT COALESCE(a, 0) + COALESCE(b, 0)
      FROM unnest(${table}.${c}, excluded.${c}) WITH ORDINALITY AS u(a, b, i) ORDER BY i)`
  ).join("");

/** Upserts that add each counter, per (tenant, day) or per (tenant, hour). */
async function writeCounters<B extends UsageBucket>(
  tx: Tx,
  table: "usage_daily" | "usage_hourly",
  key: { column: "day" | "hour"; type: "date" | "timestamptz"; of: (b: B) => string },
  rows: B[],
): Promise<void> {
  const json = rows.map((b) => {
    const row: Record<string, unknown> = { tenant_id: b.tenantId, [key.column]: key.of(b) };
    for (const [c, f] of COUNTERS) row[c] = b[f];
    for (const [c, f] of SKETCHES) row[c] = trimSketch(b[f] ?? []);
    return row;
  });
  const t = sql.raw(table);
  const k = sql.raw(key.column);
  const updates = sql.raw(
    COUNTERS.map(([c]) => `${c} = ${table}.${c} + excluded.${c}`).join(", ") + sketchSums(table),
  );
  await tx.execute(sql`
    INSERT INTO ${t} (tenant_id, ${k}, ${COUNTER_COLUMNS}${SKETCH_COLUMNS})
    SELECT tenant_id, ${k}, ${COUNTER_COLUMNS}${SKETCH_VALUES}
    FROM jsonb_to_recordset(${rowsParam(json)})
      AS x(tenant_id integer, ${k} ${sql.raw(key.type)}, ${COUNTER_TYPES}${SKETCH_TYPES})
    ON CONFLICT (tenant_id, ${k}) DO UPDATE SET ${updates}`);
}

const writeBuckets = (tx: Tx, rows: UsageBucket[]) =>
  writeCounters(tx, "usage_daily", { column: "day", type: "date", of: (b) => b.day }, rows);
const writeHours = (tx: Tx, rows: HourBucket[]) =>
  writeCounters(
    tx,
    "usage_hourly",
    { column: "hour", type: "timestamptz", of: (b) => b.hour },
    rows,
  );

async function writeLogs(tx: Tx, rows: UsageBatch["logs"]): Promise<void> {
  const json = rows.map((l) => ({
    tenant_id: l.tenantId,
    ts_ms: l.ts,
    method: l.method,
    path: l.path,
    status: l.status,
    bytes: l.bytes,
    cache: l.cache,
    duration_ms: l.durationMs,
    kind: l.kind,
    origin_status: l.originStatus ?? null,
    experiment_id: l.experimentId,
    variant_id: l.variantId,
  }));
  await tx.execute(sql`
    INSERT INTO request_logs (tenant_id, ts, method, path, status, bytes, cache, duration_ms,
      kind, origin_status, experiment_id, variant_id)
    SELECT tenant_id, to_timestamp(ts_ms / 1000.0), method, path, status, bytes, cache,
      duration_ms, kind, origin_status, experiment_id, variant_id
    FROM jsonb_to_recordset(${rowsParam(json)}) AS x(tenant_id integer, ts_ms double precision,
      method text, path text, status integer, bytes bigint, cache text, duration_ms integer,
      kind text, origin_status integer, experiment_id integer, variant_id integer)`);
}

async function writeExposures(tx: Tx, rows: UsageBatch["exposures"]): Promise<void> {
  const json = rows.map((e) => ({
    tenant_id: e.tenantId,
    experiment_id: e.experimentId,
    variant_id: e.variantId,
    variant_key: e.variantKey,
    exposures: e.exposures,
    last_seen_ms: e.lastSeenAt,
    errors: e.errors,
    latency: Array.from({ length: LATENCY_BUCKETS }, (_, i) => e.latency[i] ?? 0),
  }));
  await tx.execute(sql`
    INSERT INTO exposure_counts (tenant_id, experiment_id, variant_id, variant_key, exposures,
      last_seen_at, errors, latency_buckets)
    SELECT tenant_id, experiment_id, variant_id, variant_key, exposures,
      to_timestamp(last_seen_ms / 1000.0), errors,
      ARRAY(SELECT jsonb_array_elements_text(latency)::bigint)
    FROM jsonb_to_recordset(${rowsParam(json)}) AS x(tenant_id integer, experiment_id integer,
      variant_id integer, variant_key text, exposures bigint, last_seen_ms double precision,
      errors bigint, latency jsonb)
    ON CONFLICT (experiment_id, variant_id, variant_key) DO UPDATE SET
      exposures = exposure_counts.exposures + excluded.exposures,
      last_seen_at = GREATEST(exposure_counts.last_seen_at, excluded.last_seen_at),
      errors = exposure_counts.errors + excluded.errors,
      -- element-wise sum (a row from before migration 0010 has an empty array)
      latency_buckets = ARRAY(SELECT COALESCE(a, 0) + COALESCE(b, 0)
        FROM unnest(exposure_counts.latency_buckets, excluded.latency_buckets) AS u(a, b))`);
}
