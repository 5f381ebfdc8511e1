/**
 * Read model of the Usage & analytics page: per-day series of one UTC month beside the
 * previous month (requests, bytes, hits -> hit ratio, latency quantiles) and AI tokens per
 * day, or the same per hour of the last 48 hours; tenant-isolated.
 */
import { and, eq, gte, lt } from "drizzle-orm";
import type { Services } from "../services.ts";
import { aiUsageDaily, usageDaily } from "../db/schema/mod.ts";
import { periodRange, previousPeriod } from "../usage/query.ts";
import { addDays, daysInclusive } from "../usage/days.ts";
import { cacheHitRatio } from "../usage/figures.ts";
import { latencyOf, type LatencyQuantiles } from "../usage/latency_sketch.ts";
import { HOURLY_DEFAULT_HOURS, tenantHourlySeries } from "../usage/analytics.ts";

/** p50/p95/p99 per point in ms (0 where nothing was measured). */
export type QuantileSeries = { p50: number[]; p95: number[]; p99: number[] };
export type LatencySeries = { edge: QuantileSeries; origin: QuantileSeries };

export type DaySeries = {
  days: string[];
  requests: number[];
  bytes: number[];
  hitRatio: number[];
  latency: LatencySeries;
};

/** Quantiles of each point as chart series. */
export function latencySeries(
  points: { edge: LatencyQuantiles; origin: LatencyQuantiles }[],
): LatencySeries {
  const of = (q: (p: typeof points[number]) => LatencyQuantiles) => ({
    p50: points.map((p) => q(p)?.p50Ms ?? 0),
    p95: points.map((p) => q(p)?.p95Ms ?? 0),
    p99: points.map((p) => q(p)?.p99Ms ?? 0),
  });
  return { edge: of((p) => p.edge), origin: of((p) => p.origin) };
}

async function monthSeries(s: Services, tenantId: number, period: string): Promise<DaySeries> {
  const { from, to } = periodRange(period);
  const rows = await s.db.select().from(usageDaily).where(and(
    eq(usageDaily.tenantId, tenantId),
    gte(usageDaily.day, from),
    lt(usageDaily.day, to),
  ));
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days = daysInclusive(from, addDays(to, -1));
  const pick = (f: (r: typeof rows[number]) => number) =>
    days.map((d) => (byDay.has(d) ? f(byDay.get(d)!) : 0));
  return {
    days,
    requests: pick((r) => r.requests),
    bytes: pick((r) => r.bytes),
    hitRatio: pick(cacheHitRatio),
    latency: latencySeries(days.map((d) => {
      const r = byDay.get(d);
      return latencyOf(r?.edgeLatency ?? [], r?.originLatency ?? []);
    })),
  };
}

/** The last 48 hours, hour by hour (the page's hour view). */
export async function hourCharts(s: Services, tenantId: number) {
  const h = await tenantHourlySeries(s, tenantId, HOURLY_DEFAULT_HOURS);
  return {
    hours: h.points.map((p) => p.hour),
    requests: h.points.map((p) => p.requests),
    bytes: h.points.map((p) => p.bytes),
    hitRatio: h.points.map((p) => p.cacheHitRatio),
    latency: latencySeries(h.points.map((p) => p.latency)),
  };
}

/** This month and last month by day of month, plus AI tokens per day of this month. */
export async function usageCharts(s: Services, tenantId: number, period: string) {
  const prev = previousPeriod(period);
  const { from, to } = periodRange(period);
  const [current, previous, ai] = await Promise.all([
    monthSeries(s, tenantId, period),
    monthSeries(s, tenantId, prev),
    s.db.select().from(aiUsageDaily).where(and(
      eq(aiUsageDaily.tenantId, tenantId),
      gte(aiUsageDaily.day, from),
      lt(aiUsageDaily.day, to),
    )),
  ]);
  const aiByDay = new Map(ai.map((r) => [r.day, r]));
  return {
    period,
    previousPeriod: prev,
    current,
    previous,
    aiTokens: {
      input: current.days.map((d) => aiByDay.get(d)?.inputTokens ?? 0),
      output: current.days.map((d) => aiByDay.get(d)?.outputTokens ?? 0),
    },
  };
}
