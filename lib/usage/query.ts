/**
 * Reads of flushed usage for the management API: monthly totals per tenant from
 * usage_daily. Figures trail live traffic by up to one flush interval.
 */
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { usageDaily } from "../db/schema/mod.ts";
import { cacheHitRatio } from "./figures.ts";
import { latencyOf, type LatencyQuantiles, mergeSketch } from "./latency_sketch.ts";

/** `YYYY-MM` with a real month. */
export const PERIOD_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

export type UsageTotals = {
  requests: number;
  bytes: number;
  hits: number;
  misses: number;
  stale: number;
  bypass: number;
  errors: number;
  /** Bots refused on the asset path (not in requests or bytes). */
  blocked: number;
  /** lib/usage/figures.ts cacheHitRatio. */
  cacheHitRatio: number;
  /** Upstream requests and bytes this traffic made; the rest was saved by the cache. */
  originRequests: number;
  originBytes: number;
  /** Exact responses per status class (refused bots not counted). */
  statusClasses: StatusClasses;
};

export type StatusClasses = {
  "1xx": number;
  "2xx": number;
  "3xx": number;
  "4xx": number;
  "5xx": number;
};
export const STATUS_CLASS_KEYS = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

export type PeriodUsage = UsageTotals & { period: string; from: string; to: string };

/** The UTC calendar month containing `now`, as `YYYY-MM`. */
export function currentPeriod(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

export function previousPeriod(period: string): string {
  const [y, m] = period.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 2, 1));
  return d.toISOString().slice(0, 7);
}

/** First day of the month and first day of the next, as `YYYY-MM-DD` (half-open range). */
export function periodRange(period: string): { from: string; to: string } {
  const [y, m] = period.split("-").map(Number);
  return {
    from: new Date(Date.UTC(y, m - 1, 1)).toISOString().slice(0, 10),
    to: new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10),
  };
}

type Row = Partial<Record<keyof typeof sums, unknown>>;

function totalsOf(r: Row | undefined): UsageTotals {
  const n = (v: unknown) => Number(v ?? 0);
  const hits = n(r?.hits);
  return {
    requests: n(r?.requests),
    bytes: n(r?.bytes),
    hits,
    misses: n(r?.misses),
    stale: n(r?.stale),
    bypass: n(r?.bypass),
    errors: n(r?.errors),
    blocked: n(r?.blocked),
    cacheHitRatio: cacheHitRatio({ hits, misses: n(r?.misses), stale: n(r?.stale) }),
    originRequests: n(r?.originRequests),
    originBytes: n(r?.originBytes),
    statusClasses: {
      "1xx": n(r?.status1xx),
      "2xx": n(r?.status2xx),
      "3xx": n(r?.status3xx),
      "4xx": n(r?.status4xx),
      "5xx": n(r?.status5xx),
    },
  };
}

const sums = {
  requests: sql<string>`coalesce(sum(${usageDaily.requests}), 0)`,
  bytes: sql<string>`coalesce(sum(${usageDaily.bytes}), 0)`,
  hits: sql<string>`coalesce(sum(${usageDaily.hits}), 0)`,
  misses: sql<string>`coalesce(sum(${usageDaily.misses}), 0)`,
  stale: sql<string>`coalesce(sum(${usageDaily.stale}), 0)`,
  bypass: sql<string>`coalesce(sum(${usageDaily.bypass}), 0)`,
  errors: sql<string>`coalesce(sum(${usageDaily.errors}), 0)`,
  blocked: sql<string>`coalesce(sum(${usageDaily.blocked}), 0)`,
  originRequests: sql<string>`coalesce(sum(${usageDaily.originRequests}), 0)`,
  originBytes: sql<string>`coalesce(sum(${usageDaily.originBytes}), 0)`,
  status1xx: sql<string>`coalesce(sum(${usageDaily.status1xx}), 0)`,
  status2xx: sql<string>`coalesce(sum(${usageDaily.status2xx}), 0)`,
  status3xx: sql<string>`coalesce(sum(${usageDaily.status3xx}), 0)`,
  status4xx: sql<string>`coalesce(sum(${usageDaily.status4xx}), 0)`,
  status5xx: sql<string>`coalesce(sum(${usageDaily.status5xx}), 0)`,
};

/** Totals per tenant for one period; tenants without rows are absent from the map. */
export async function usageByTenant(
  s: Services,
  tenantIds: number[],
  period: string,
): Promise<Map<number, PeriodUsage>> {
  const out = new Map<number, PeriodUsage>();
  if (tenantIds.length === 0) return out;
  const { from, to } = periodRange(period);
  const rows = await s.db.select({ tenantId: usageDaily.tenantId, ...sums }).from(usageDaily)
    .where(and(
      inArray(usageDaily.tenantId, tenantIds),
      gte(usageDaily.day, from),
      lt(usageDaily.day, to),
    )).groupBy(usageDaily.tenantId);
  for (const r of rows) out.set(r.tenantId, { period, from, to, ...totalsOf(r) });
  return out;
}

/** One tenant's totals for a period (zeros when it had no traffic). */
export async function tenantPeriodUsage(
  s: Services,
  tenantId: number,
  period: string,
): Promise<PeriodUsage> {
  const { from, to } = periodRange(period);
  const [r] = await s.db.select(sums).from(usageDaily).where(and(
    eq(usageDaily.tenantId, tenantId),
    gte(usageDaily.day, from),
    lt(usageDaily.day, to),
  ));
  return { period, from, to, ...totalsOf(r) };
}

export function emptyPeriodUsage(period: string): PeriodUsage {
  return { period, ...periodRange(period), ...totalsOf(undefined) };
}

/** The plain counters of UsageTotals (the hourly series lists the same). */
export const SUMMED = [
  "requests",
  "bytes",
  "hits",
  "misses",
  "stale",
  "bypass",
  "errors",
  "blocked",
  "originRequests",
  "originBytes",
] as const;

/** Several tenants' usage of one period added up, the hit ratio computed from the sums. */
export function sumPeriodUsage(period: string, parts: Iterable<UsageTotals>): PeriodUsage {
  const sum: Record<string, number> = {};
  for (const u of parts) {
    for (const k of SUMMED) sum[k] = (sum[k] ?? 0) + u[k];
    for (const c of STATUS_CLASS_KEYS) {
      sum[`status${c}`] = (sum[`status${c}`] ?? 0) + u.statusClasses[c];
    }
  }
  return { period, ...periodRange(period), ...totalsOf(sum) };
}

/** Edge and origin p50/p95/p99 (ms), null where nothing was measured. */
export type Latency = { edge: LatencyQuantiles; origin: LatencyQuantiles };

/**
 * One tenant's latency over a period: the daily sketches merged (summed bucket by bucket
 * across days and the instances that flushed them), quantiles read off the sum.
 */
export async function tenantPeriodLatency(
  s: Services,
  tenantId: number,
  period: string,
): Promise<Latency> {
  const { from, to } = periodRange(period);
  const rows = await s.db.select({ edge: usageDaily.edgeLatency, origin: usageDaily.originLatency })
    .from(usageDaily).where(and(
      eq(usageDaily.tenantId, tenantId),
      gte(usageDaily.day, from),
      lt(usageDaily.day, to),
    ));
  const edge: number[] = [];
  const origin: number[] = [];
  for (const r of rows) {
    mergeSketch(edge, r.edge);
    mergeSketch(origin, r.origin);
  }
  return latencyOf(edge, origin);
}

/** A tenant's totals for a period with its latency (GET .../{slug}/usage's current, previous). */
export async function tenantPeriodReport(
  s: Services,
  tenantId: number,
  period: string,
): Promise<PeriodUsage & { latency: Latency }> {
  const [usage, latency] = await Promise.all([
    tenantPeriodUsage(s, tenantId, period),
    tenantPeriodLatency(s, tenantId, period),
  ]);
  return { ...usage, latency };
}
