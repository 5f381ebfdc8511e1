/**
 * Reads of flushed usage for the management API: monthly totals per tenant from
 * usage_daily. Figures trail live traffic by up to one flush interval.
 */
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { usageDaily } from "../db/schema/mod.ts";
import { cacheHitRatio } from "./figures.ts";

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
};

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

function totalsOf(r: Partial<Record<keyof UsageTotals, unknown>> | undefined): UsageTotals {
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

const SUMMED = [
  "requests",
  "bytes",
  "hits",
  "misses",
  "stale",
  "bypass",
  "errors",
  "blocked",
] as const;

/** Several tenants' usage of one period added up, the hit ratio computed from the sums. */
export function sumPeriodUsage(period: string, parts: Iterable<UsageTotals>): PeriodUsage {
  const sum: Partial<Record<keyof UsageTotals, number>> = {};
  for (const u of parts) for (const k of SUMMED) sum[k] = (sum[k] ?? 0) + u[k];
  return { period, ...periodRange(period), ...totalsOf(sum) };
}
