/**
 * Read model of the Usage & analytics page: per-day series of one UTC month beside the
 * previous month (requests, bytes, hits → hit ratio) and AI tokens per day, tenant-isolated.
 */
import { and, eq, gte, lt } from "drizzle-orm";
import type { Services } from "../services.ts";
import { aiUsageDaily, usageDaily } from "../db/schema/mod.ts";
import { periodRange, previousPeriod } from "../usage/query.ts";
import { addDays, daysInclusive } from "../usage/days.ts";
import { cacheHitRatio } from "../usage/figures.ts";

export type DaySeries = { days: string[]; requests: number[]; bytes: number[]; hitRatio: number[] };

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
