/**
 * GET /api/admin/cloudflare-cost: a modeled platform cost for one UTC month. The name
 * comes from a Cloudflare-hosted predecessor; Cachely has no billing API to read live
 * figures from, so the answer is always `modeled`, priced from the period's flushed
 * usage with the unit prices below, and memoised per period for COST_CACHE_TTL_MS.
 */
import { and, count, gte, lt, sql } from "drizzle-orm";
import type { Services } from "../../services.ts";
import { requestLogs, tenants, usageDaily } from "../../db/schema/mod.ts";
import { periodRange } from "../../usage/query.ts";
import { addDays, daysInclusive } from "../../usage/days.ts";
import type { PlatformCost } from "./view_schema.ts";

export const COST_CACHE_TTL_MS = 10 * 60_000;

/** USD unit prices of the model (list prices of the predecessor's platform, 2024). */
export const UNIT_PRICES = {
  /** compute: per million proxied requests ("workersCost") */
  computePerMillionRequests: 0.3,
  /** database: per million rows written (usage_daily + request_logs rows of the period; "d1Cost") */
  databasePerMillionRowsWritten: 1.0,
  /** KV: per million reads, one snapshot/host read per request as an upper bound ("kvCost") */
  kvPerMillionReads: 0.5,
  /** KV: per million writes, one snapshot write per tenant per day of the period */
  kvPerMillionWrites: 5.0,
} as const;

type CostReport = Awaited<ReturnType<typeof computeCost>>;
type CacheEntry = { at: number; report: CostReport };

// Per Services object, so separate apps (tests) never share figures.
const caches = new WeakMap<Services, Map<string, CacheEntry>>();

export async function platformCost(s: Services, period: string): Promise<PlatformCost> {
  let cache = caches.get(s);
  if (!cache) caches.set(s, cache = new Map());
  const now = s.clock.now();
  let entry = cache.get(period);
  if (!entry || now - entry.at >= COST_CACHE_TTL_MS || now < entry.at) {
    entry = { at: now, report: await computeCost(s, period) };
    cache.set(period, entry);
  }
  return {
    period,
    costSource: "modeled" as const,
    costConfidence: "low" as const,
    fetchedAt: new Date(entry.at).toISOString(),
    cacheAgeMs: now - entry.at,
    cost: entry.report.cost,
    inputs: entry.report.inputs,
    unitPrices: UNIT_PRICES,
    currency: "USD",
    fallbackReason: "live_cost_not_configured",
  };
}

const usd = (n: number) => Math.round(n * 1_000_000) / 1_000_000;

async function computeCost(s: Services, period: string) {
  const { from, to } = periodRange(period);
  const [u] = await s.db.select({
    requests: sql<string>`coalesce(sum(${usageDaily.requests}), 0)`,
    bytes: sql<string>`coalesce(sum(${usageDaily.bytes}), 0)`,
    rows: count(),
  }).from(usageDaily).where(and(gte(usageDaily.day, from), lt(usageDaily.day, to)));
  const [l] = await s.db.select({ rows: count() }).from(requestLogs).where(and(
    gte(requestLogs.ts, new Date(`${from}T00:00:00Z`)),
    lt(requestLogs.ts, new Date(`${to}T00:00:00Z`)),
  ));
  const [t] = await s.db.select({ n: count() }).from(tenants);
  const days = daysInclusive(from, addDays(to, -1)).length;

  const inputs = {
    requests: Number(u.requests),
    bytes: Number(u.bytes),
    usageDailyRows: Number(u.rows),
    requestLogRows: Number(l.rows),
    tenants: Number(t.n),
    daysInPeriod: days,
    kvReads: Number(u.requests),
    kvWrites: Number(t.n) * days,
  };
  const P = UNIT_PRICES;
  const workersCost = usd(inputs.requests / 1e6 * P.computePerMillionRequests);
  const d1Cost = usd(
    (inputs.usageDailyRows + inputs.requestLogRows) / 1e6 * P.databasePerMillionRowsWritten,
  );
  const kvCost = usd(
    inputs.kvReads / 1e6 * P.kvPerMillionReads + inputs.kvWrites / 1e6 * P.kvPerMillionWrites,
  );
  return {
    inputs,
    cost: { workersCost, d1Cost, kvCost, totalCost: usd(workersCost + d1Cost + kvCost) },
  };
}
