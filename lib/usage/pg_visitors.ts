/**
 * experiment_visitors in PostgreSQL (lib/usage/visitor_windows.ts): one row per visitor
 * per experiment arm per window, whichever instance saw them and however often (at most
 * MAX_VISITORS_PER_ARM_WINDOW per arm and window from each instance, held in memory: no
 * count is read here). Rows merge (OR, GREATEST, LEAST), so a flush written twice counts
 * nothing twice.
 */
import { lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { experimentVisitors } from "../db/schema/mod.ts";
import type { VisitorDelta } from "./visitor_windows.ts";

/** Rows are kept two days: guardrails judge the last 24 hours (lib/experiments/arm_health.ts). */
export const VISITOR_RETENTION_MS = 2 * 86_400_000;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export async function writeVisitors(tx: Tx, rows: VisitorDelta[]): Promise<void> {
  const json = rows.map((v) => ({
    tenant_id: v.tenantId,
    experiment_id: v.experimentId,
    variant_id: v.variantId,
    variant_key: v.variantKey,
    window_ms: v.windowStart,
    visitor_hash: v.visitor,
    network_hash: v.network,
    first_ms: v.firstSeenAt,
    errored: v.errored,
    slowest: v.slowest,
  }));
  await tx.execute(sql`
    INSERT INTO experiment_visitors AS t (tenant_id, experiment_id, variant_id, variant_key,
      window_start, visitor_hash, network_hash, first_seen_at, errored, slowest)
    SELECT tenant_id, experiment_id, variant_id, variant_key, to_timestamp(window_ms / 1000.0),
      visitor_hash, network_hash, to_timestamp(first_ms / 1000.0), errored, slowest
    FROM jsonb_to_recordset(${JSON.stringify(json)}::jsonb) AS j(tenant_id integer,
      experiment_id integer, variant_id integer, variant_key text, window_ms double precision,
      visitor_hash bigint, network_hash bigint, first_ms double precision, errored boolean,
      slowest smallint)
    ON CONFLICT (experiment_id, variant_id, variant_key, window_start, visitor_hash)
    DO UPDATE SET
      errored = t.errored OR excluded.errored,
      slowest = GREATEST(t.slowest, excluded.slowest),
      first_seen_at = LEAST(t.first_seen_at, excluded.first_seen_at)`);
}

/** Deletes rows of windows that started before `before`. */
export async function pruneVisitors(db: Db, before: Date): Promise<void> {
  await db.delete(experimentVisitors).where(lt(experimentVisitors.windowStart, before));
}
