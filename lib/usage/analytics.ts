/**
 * Tenant analytics reads: a month's exact totals (usage_daily, ai_usage_daily) beside
 * breakdowns of the sampled request logs, a zero-filled daily bandwidth series, and the
 * filtered, keyset-paginated request log listing. Every query is scoped to one tenant.
 */
import { and, desc, eq, gte, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { requestLogs, usageDaily, usageHourly } from "../db/schema/mod.ts";
import { sumUsage } from "../ai/usage.ts";
import { latencyOf } from "./latency_sketch.ts";
import {
  type Latency,
  periodRange,
  type PeriodUsage,
  previousPeriod,
  SUMMED,
  tenantPeriodUsage,
} from "./query.ts";
import { daysInclusive, zeroFill } from "./days.ts";
import { cacheHitRatio, errorRate } from "./figures.ts";
import { topPaths } from "./pg_paths.ts";

const HOUR_MS = 3_600_000;

export const TOP_PATHS = 10;
export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

// Shown to customers: it names no server setting (they cannot change it).
const SAMPLED_NOTE = "Breakdowns count request logs: every error, and successes sampled at " +
  "the server's log sampling rate, so they are not every request; topPaths ranks by " +
  "estimatedRequests (errors once, each sampled success scaled by the sampling rate); " +
  "totals (statusClasses included), previous and ai are exact.";

const count = sql<string>`count(*)`;
const sumBytes = sql<string>`coalesce(sum(${requestLogs.bytes}), 0)`;

/**
 * Requests a path's logs stand for: no exact per-path counter exists, so every error log
 * counts once (all are kept) and every success log 1 / rate (they are sampled at the rate
 * now configured; the per-second cap and an earlier rate make this an estimate).
 */
function estimatedRequests(rate: number) {
  const weight = rate > 0 ? 1 / rate : 1;
  return sql<
    string
  >`round(sum(case when ${requestLogs.status} >= 400 then 1 else ${weight}::float8 end))`;
}

/** Exact usage with errorRate = errors / requests (4 decimals, 0 without traffic). */
function withErrorRate(u: PeriodUsage) {
  return { ...u, errorRate: errorRate(u) };
}

/** The analytics object for one tenant and UTC month (`to` exclusive, as in /usage). */
export async function tenantAnalytics(s: Services, tenantId: number, period: string) {
  const { from, to } = periodRange(period);
  const inPeriod = and(
    eq(requestLogs.tenantId, tenantId),
    gte(requestLogs.ts, new Date(`${from}T00:00:00Z`)),
    lt(requestLogs.ts, new Date(`${to}T00:00:00Z`)),
  );
  const estimated = estimatedRequests(s.config.usage.requestLogSampleRate);
  const [current, previous, ai, kinds, statuses, paths, counted] = await Promise.all([
    tenantPeriodUsage(s, tenantId, period),
    tenantPeriodUsage(s, tenantId, previousPeriod(period)),
    sumUsage(s, tenantId, from, to),
    s.db.select({ kind: requestLogs.kind, requests: count, bytes: sumBytes })
      .from(requestLogs).where(inPeriod).groupBy(requestLogs.kind),
    s.db.select({ status: requestLogs.status, requests: count })
      .from(requestLogs).where(inPeriod).groupBy(requestLogs.status),
    s.db.select({ path: requestLogs.path, requests: count, bytes: sumBytes, estimated })
      .from(requestLogs).where(inPeriod).groupBy(requestLogs.path)
      .orderBy(desc(estimated), desc(count), desc(sumBytes), requestLogs.path).limit(TOP_PATHS),
    topPaths(s.db, tenantId, from, to, TOP_PATHS),
  ]);

  const byKind = kinds
    .map((k) => ({ kind: k.kind ?? "other", requests: Number(k.requests), bytes: Number(k.bytes) }))
    .sort((a, b) => b.requests - a.requests || a.kind.localeCompare(b.kind));
  const statusClasses = Object.fromEntries(STATUS_CLASSES.map((c) => [c, 0])) as Record<
    string,
    number
  >;
  for (const r of statuses) {
    const cls = `${Math.floor(r.status / 100)}xx`;
    if (cls in statusClasses) statusClasses[cls] += Number(r.requests);
  }
  const { period: _p, from: _f, to: _t, ...totals } = withErrorRate(current);
  return {
    period,
    from,
    to,
    totals,
    previous: withErrorRate(previous),
    ai: { ...ai, totalTokens: ai.inputTokens + ai.outputTokens },
    topPaths: counted,
    sampled: {
      logs: byKind.reduce((n, k) => n + k.requests, 0),
      note: SAMPLED_NOTE,
      byKind,
      statusClasses,
      topPaths: paths.map((p) => ({
        path: p.path,
        requests: Number(p.requests),
        estimatedRequests: Number(p.estimated),
        bytes: Number(p.bytes),
      })),
    },
  };
}

/**
 * Bytes and requests per day of [from, to] (inclusive), summed over the tenants `where`
 * selects (all of them without it), with a point for every day.
 */
export async function bandwidthSeries(s: Services, from: string, to: string, where?: SQL) {
  const rows = await s.db.select({
    day: usageDaily.day,
    bytes: sql<string>`coalesce(sum(${usageDaily.bytes}), 0)`,
    requests: sql<string>`coalesce(sum(${usageDaily.requests}), 0)`,
  }).from(usageDaily)
    .where(and(gte(usageDaily.day, from), lte(usageDaily.day, to), where))
    .groupBy(usageDaily.day);
  const points = zeroFill(daysInclusive(from, to), rows, ["bytes", "requests"] as const);
  const totals = { bytes: 0, requests: 0 };
  for (const p of points) {
    totals.bytes += p.bytes;
    totals.requests += p.requests;
  }
  return { from, to, points, totals };
}

/** Hours the hourly series covers by default, and at most (usage_hourly keeps 7 days). */
export const HOURLY_DEFAULT_HOURS = 48;
export const HOURLY_MAX_HOURS = 168;

const HOUR_FIELDS = SUMMED.filter((f) => f !== "blocked");

/**
 * One tenant's exact counters per UTC hour for the `hours` hours ending with the current
 * one, a zero point for every hour (oldest first), hit ratio as everywhere else, and the
 * hour's latency quantiles (from its sketches, merged across instances).
 */
export async function tenantHourlySeries(s: Services, tenantId: number, hours: number) {
  const last = Math.floor(s.clock.now() / HOUR_MS) * HOUR_MS;
  const first = last - (hours - 1) * HOUR_MS;
  const rows = await s.db.select().from(usageHourly).where(and(
    eq(usageHourly.tenantId, tenantId),
    gte(usageHourly.hour, new Date(first)),
    lte(usageHourly.hour, new Date(last)),
  ));
  const byHour = new Map(rows.map((r) => [r.hour.getTime(), r]));
  const points = [];
  for (let t = first; t <= last; t += HOUR_MS) {
    const r = byHour.get(t);
    const p = { hour: new Date(t).toISOString() } as
      & { hour: string; cacheHitRatio: number; latency: Latency }
      & Record<typeof HOUR_FIELDS[number], number>;
    for (const f of HOUR_FIELDS) p[f] = Number(r?.[f] ?? 0);
    p.cacheHitRatio = cacheHitRatio(p);
    p.latency = latencyOf(r?.edgeLatency ?? [], r?.originLatency ?? []);
    points.push(p);
  }
  return { from: new Date(first).toISOString(), hours, points };
}

/** One tenant's bandwidth series. */
export function tenantBandwidthDaily(s: Services, tenantId: number, from: string, to: string) {
  return bandwidthSeries(s, from, to, eq(usageDaily.tenantId, tenantId));
}

export type LogFilter = {
  limit: number;
  beforeId?: number;
  /** An exact status, or a class as [min, max). */
  status?: number | { min: number; max: number };
  cache?: string;
  kind?: string;
  pathPrefix?: string;
  from?: Date;
  to?: Date;
};

/**
 * Request logs newest first (ts, then id). `beforeId` is the last id of the previous
 * page; the next page continues after that row's (ts, id), so the cursor stays an id
 * while the scan follows the (tenant_id, ts) index. A cursor that is not one of this
 * tenant's rows (another tenant's, or pruned) gives an empty page.
 */
export async function listRequestLogs(s: Services, tenantId: number, f: LogFilter) {
  const where: (SQL | undefined)[] = [eq(requestLogs.tenantId, tenantId)];
  if (typeof f.status === "number") where.push(eq(requestLogs.status, f.status));
  if (typeof f.status === "object") {
    where.push(gte(requestLogs.status, f.status.min), lt(requestLogs.status, f.status.max));
  }
  if (f.cache) where.push(eq(requestLogs.cache, f.cache));
  if (f.kind) where.push(eq(requestLogs.kind, f.kind));
  if (f.pathPrefix) where.push(sql`starts_with(${requestLogs.path}, ${f.pathPrefix})`);
  if (f.from) where.push(gte(requestLogs.ts, f.from));
  if (f.to) where.push(lt(requestLogs.ts, f.to));
  if (f.beforeId !== undefined) {
    where.push(sql`(${requestLogs.ts}, ${requestLogs.id}) < (
      SELECT c.ts, c.id FROM request_logs c WHERE c.id = ${f.beforeId} AND c.tenant_id = ${tenantId})`);
  }
  const rows = await s.db.select().from(requestLogs).where(and(...where))
    .orderBy(desc(requestLogs.ts), desc(requestLogs.id)).limit(f.limit + 1);
  const entries = rows.slice(0, f.limit).map((r) => ({
    id: r.id,
    ts: r.ts.toISOString(),
    method: r.method,
    path: r.path,
    status: r.status,
    bytes: r.bytes,
    cache: r.cache,
    durationMs: r.durationMs,
    kind: r.kind,
    originStatus: r.originStatus,
    experimentId: r.experimentId,
    variantId: r.variantId,
  }));
  const hasMore = rows.length > f.limit;
  return { entries, hasMore, nextBeforeId: hasMore ? entries[entries.length - 1].id : null };
}
