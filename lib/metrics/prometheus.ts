/**
 * GET /metrics in the Prometheus text format (docs/operations.md "Metrics"): this
 * instance's counters, labelled with tenant slugs (never emails, tokens or query strings).
 * 404 while METRICS_TOKEN is unset; 401 unless `Authorization: Bearer <METRICS_TOKEN>`
 * (compared in constant time).
 */
import { inArray } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Instance } from "../instance.ts";
import { tenants } from "../db/schema/mod.ts";
import { timingSafeEqual } from "../crypto/mod.ts";
import { databaseCancels, databaseErrors, databasePool } from "../db/error_counts.ts";
import {
  CACHE_STATES,
  DURATION_BUCKETS,
  type Histogram,
  STATUS_CLASSES,
} from "./request_counters.ts";

/** What the edge reports about its cache (lib/instance.ts). */
export type EdgeCacheStats = () => {
  entries: number;
  bytes: number;
  evictions: number;
  /** Since the oldest tenant snapshot held was read from KV. */
  snapshotAgeSeconds?: number;
  /** KV reads of snapshots that failed. */
  kvReadErrors?: number;
};

const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

function histogram(out: string[], name: string, help: string, h: Histogram): void {
  out.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
  let cum = 0;
  DURATION_BUCKETS.forEach((le, i) => {
    cum += h.counts[i];
    out.push(`${name}_bucket{le="${le}"} ${cum}`);
  });
  cum += h.counts[DURATION_BUCKETS.length];
  out.push(`${name}_bucket{le="+Inf"} ${cum}`, `${name}_sum ${h.sum}`, `${name}_count ${cum}`);
}

/** Per-tenant requests, origin requests and bytes, and the two duration histograms. */
async function requestFamilies(
  s: Services,
  counters: Instance["requestCounters"],
  out: string[],
): Promise<void> {
  const ids = [...counters.tenants.keys()].filter((id) => id > 0);
  const slugs = new Map<number, string>();
  if (ids.length > 0) {
    const rows = await s.db.select({ id: tenants.id, slug: tenants.slug }).from(tenants)
      .where(inArray(tenants.id, ids));
    for (const r of rows) slugs.set(r.id, r.slug);
  }
  const label = (id: number) => esc(slugs.get(id) ?? (id === 0 ? "_other" : `deleted-${id}`));
  out.push(
    "# HELP cachely_requests_total Requests answered on tenant hosts (refused bots excluded)",
    "# TYPE cachely_requests_total counter",
  );
  for (const [id, t] of counters.tenants) {
    CACHE_STATES.forEach((cache, ci) =>
      STATUS_CLASSES.forEach((cls, si) => {
        const n = t.requests[ci * STATUS_CLASSES.length + si];
        if (n > 0) {
          out.push(
            `cachely_requests_total{tenant="${
              label(id)
            }",cache="${cache}",status_class="${cls}"} ${n}`,
          );
        }
      })
    );
  }
  out.push(
    "# HELP cachely_origin_requests_total Upstream requests made for tenant traffic",
    "# TYPE cachely_origin_requests_total counter",
  );
  for (const [id, t] of counters.tenants) {
    out.push(`cachely_origin_requests_total{tenant="${label(id)}"} ${t.originRequests}`);
  }
  out.push(
    "# HELP cachely_origin_bytes_total Bytes fetched from origins",
    "# TYPE cachely_origin_bytes_total counter",
  );
  for (const [id, t] of counters.tenants) {
    out.push(`cachely_origin_bytes_total{tenant="${label(id)}"} ${t.originBytes}`);
  }
  histogram(
    out,
    "cachely_request_duration_seconds",
    "Edge time, request in to response headers out",
    counters.edgeDuration,
  );
  histogram(
    out,
    "cachely_origin_duration_seconds",
    "Upstream time per request that reached the origin",
    counters.originDuration,
  );
}

/**
 * The /metrics exposition: one block per metric family, each its HELP and TYPE lines and samples,
 * read top to bottom against what a scrape shows.
 */
export async function metricsText(s: Services, instance: Instance): Promise<string> {
  const out: string[] = [];
  await requestFamilies(s, instance.requestCounters, out);
  const cache = instance.edgeCacheStats();
  out.push(
    "# TYPE cachely_edge_cache_entries gauge",
    `cachely_edge_cache_entries ${cache.entries}`,
    "# TYPE cachely_edge_cache_bytes gauge",
    `cachely_edge_cache_bytes ${cache.bytes}`,
    "# TYPE cachely_edge_cache_evictions_total counter",
    `cachely_edge_cache_evictions_total ${cache.evictions}`,
  );
  if (cache.snapshotAgeSeconds !== undefined) {
    out.push(
      "# HELP cachely_edge_snapshot_age_seconds Since the oldest tenant snapshot this instance holds was read from KV",
      "# TYPE cachely_edge_snapshot_age_seconds gauge",
      `cachely_edge_snapshot_age_seconds ${cache.snapshotAgeSeconds}`,
    );
  }
  const projector = instance.projectorStatus();
  const caughtUpAge = projector.lastSuccessAt === null
    ? -1
    : Math.max(0, (s.clock.now() - projector.lastSuccessAt) / 1000);
  out.push(
    "# HELP cachely_projector_tenants_behind Tenants whose KV snapshot was behind the database at the last projector tick",
    "# TYPE cachely_projector_tenants_behind gauge",
    `cachely_projector_tenants_behind ${projector.behind}`,
    "# HELP cachely_projector_success_age_seconds Seconds since the projector last caught up (-1: not yet)",
    "# TYPE cachely_projector_success_age_seconds gauge",
    `cachely_projector_success_age_seconds ${caughtUpAge}`,
    "# TYPE cachely_projector_errors_total counter",
    `cachely_projector_errors_total ${projector.errors}`,
  );
  // KV errors: snapshot reads on the edge, and projector ticks that failed on KV
  const kvRead = cache.kvReadErrors;
  const kvWrite = projector.kvErrors;
  if (kvRead !== undefined || kvWrite !== undefined) {
    out.push(
      "# HELP cachely_kv_errors_total KV operations that failed (read: edge snapshot loads; projector: projector ticks)",
      "# TYPE cachely_kv_errors_total counter",
    );
    if (kvRead !== undefined) out.push(`cachely_kv_errors_total{op="read"} ${kvRead}`);
    if (kvWrite !== undefined) out.push(`cachely_kv_errors_total{op="projector"} ${kvWrite}`);
  }
  out.push(...databaseLines());
  const agg = instance.usageAggregator.status();
  const flushAge = agg.lastFlushAt === null
    ? -1
    : Math.max(0, (s.clock.now() - Date.parse(agg.lastFlushAt)) / 1000);
  out.push(
    "# HELP cachely_usage_flush_age_seconds Seconds since the last successful usage flush (-1: none yet)",
    "# TYPE cachely_usage_flush_age_seconds gauge",
    `cachely_usage_flush_age_seconds ${flushAge}`,
    "# TYPE cachely_usage_pending_entries gauge",
    `cachely_usage_pending_entries ${agg.pendingBuckets + agg.pendingLogs}`,
    "# HELP cachely_usage_flush_errors_total Failed usage flushes (database errors)",
    "# TYPE cachely_usage_flush_errors_total counter",
    `cachely_usage_flush_errors_total ${agg.flushErrors}`,
    "# TYPE cachely_usage_dropped_total counter",
    `cachely_usage_dropped_total ${agg.droppedOnOverflow}`,
  );
  return out.join("\n") + "\n";
}

/** The /metrics handler's gate: null to answer, else the status to refuse with. */
export function metricsRefusal(s: Services, authorization: string | null): 404 | 401 | null {
  const token = s.config.metricsToken;
  if (!token) return 404;
  const given = authorization?.startsWith("Bearer ") ? authorization.slice(7) : "";
  return timingSafeEqual(given, token) ? null : 401;
}

/** The database's counters: errors, pool rebuilds, cancel requests (lib/db/error_counts.ts). */
function databaseLines(): string[] {
  return [
    "# HELP cachely_database_errors_total Database errors: requests answered 503, and errors no request awaited",
    "# TYPE cachely_database_errors_total counter",
    `cachely_database_errors_total{where="request"} ${databaseErrors.requests}`,
    `cachely_database_errors_total{where="background"} ${databaseErrors.background}`,
    "# HELP cachely_database_pool_rebuilds_total Pools replaced: statements kept missing the deadline while a fresh connection answered",
    "# TYPE cachely_database_pool_rebuilds_total counter",
    `cachely_database_pool_rebuilds_total ${databasePool.rebuilds}`,
    "# HELP cachely_database_cancels_total Cancel requests for statements past their deadline: sent, or skipped while the in-flight cap was reached",
    "# TYPE cachely_database_cancels_total counter",
    `cachely_database_cancels_total{outcome="sent"} ${databaseCancels.sent}`,
    `cachely_database_cancels_total{outcome="skipped"} ${databaseCancels.skipped}`,
  ];
}
