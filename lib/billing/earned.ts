/**
 * GET /api/admin/tenants/{slug}/earned: what one tenant earned in a UTC month and what its
 * traffic cost (every figure is defined in docs/decisions.md "Billing").
 */
import { and, count, eq, gte, lt } from "drizzle-orm";
import type { Services } from "../services.ts";
import { requestLogs, usageDaily } from "../db/schema/mod.ts";
import { billingOwner } from "./owners.ts";
import { accountMonth, overageOf } from "./quota.ts";
import { accountPlan } from "./account.ts";
import { currentPeriod, periodRange } from "../usage/query.ts";
import { addDays, daysInclusive } from "../usage/days.ts";
import { UNIT_PRICES } from "../admin/platform/cost_model.ts";
import type { TenantEarned } from "./admin_view_schema.ts";

const usd = (n: number) => Math.round(n * 1_000_000) / 1_000_000;
const ratio = (a: number, b: number) => b > 0 ? Math.round((a / b) * 1_000_000) / 1_000_000 : 0;

/** How much longer the whole month is than its elapsed part: projects a running month's usage. */
function monthFactor(period: string, now: number): number {
  const { from, to } = periodRange(period);
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  return (end - start) / Math.min(Math.max(now - start, 1), end - start);
}

/** The database rows the tenant wrote in [from, to): daily usage rows plus request-log rows. */
async function rowsWritten(s: Services, tenantId: number, from: string, to: string) {
  const [d] = await s.db.select({ n: count() }).from(usageDaily).where(and(
    eq(usageDaily.tenantId, tenantId),
    gte(usageDaily.day, from),
    lt(usageDaily.day, to),
  ));
  const [l] = await s.db.select({ n: count() }).from(requestLogs).where(and(
    eq(requestLogs.tenantId, tenantId),
    gte(requestLogs.ts, new Date(`${from}T00:00:00Z`)),
    lt(requestLogs.ts, new Date(`${to}T00:00:00Z`)),
  ));
  return Number(d.n) + Number(l.n);
}

export async function tenantEarned(
  s: Services,
  tenant: { id: number; slug: string },
  period: string,
): Promise<TenantEarned> {
  const now = s.clock.now();
  const ownerId = await billingOwner(s, tenant.id);
  const planCode = ownerId ? await accountPlan(s, ownerId) : "free";
  const plan = s.config.plans[planCode];
  const month = ownerId ? await accountMonth(s, ownerId, period) : null;
  const own = month?.tenants.find((t) => t.id === tenant.id)?.usage;
  const tReq = own?.requests ?? 0;
  const tBytes = own?.bytes ?? 0;
  const oReq = month?.quota.requests ?? tReq;
  const oBytes = month?.quota.bytes ?? tBytes;
  const tenantCount = Math.max(1, month?.tenants.length ?? 1);
  const requestShare = oReq > 0 ? ratio(tReq, oReq) : 1 / tenantCount;
  const bytesShare = oBytes > 0 ? ratio(tBytes, oBytes) : 1 / tenantCount;
  const revenueShare = Math.round(((requestShare + bytesShare) / 2) * 1_000_000) / 1_000_000;

  // The current month's overage is projected to its end; a past month's is what was billed.
  const current = period === currentPeriod(now);
  const factor = current ? monthFactor(period, now) : 1;
  const over = s.config.quotas
    ? overageOf(plan, Math.round(oReq * factor), Math.round(oBytes * factor))
    : overageOf(plan, 0, 0);
  const subscriptionUsd = usd(plan.priceUsd * revenueShare);
  const overageUsd = usd(over.requestsUsd * requestShare + over.bytesUsd * bytesShare);

  const { from, to } = periodRange(period);
  const rows = await rowsWritten(s, tenant.id, from, to);
  const days = daysInclusive(from, addDays(to, -1)).length;
  const P = UNIT_PRICES;
  const compute = usd(tReq / 1e6 * P.computePerMillionRequests);
  const database = usd(rows / 1e6 * P.databasePerMillionRowsWritten);
  const kv = usd(tReq / 1e6 * P.kvPerMillionReads + days / 1e6 * P.kvPerMillionWrites);
  const costUsd = usd(compute + database + kv);
  const revenueUsd = usd(subscriptionUsd + overageUsd);
  const marginUsd = usd(revenueUsd - costUsd);
  return {
    tenant: tenant.slug,
    period,
    currency: "USD",
    owner: { userId: ownerId, plan: plan.code, priceUsd: plan.priceUsd },
    usage: {
      tenant: { requests: tReq, bytes: tBytes },
      owner: { requests: oReq, bytes: oBytes, tenants: month?.tenants.length ?? 0 },
    },
    share: { requests: requestShare, bytes: bytesShare, revenue: revenueShare },
    revenue: {
      subscriptionUsd,
      overageUsd,
      overageBasis: current ? "projected" : "billed",
      totalUsd: revenueUsd,
    },
    cost: {
      computeUsd: compute,
      databaseUsd: database,
      kvUsd: kv,
      totalUsd: costUsd,
      costSource: "modeled",
    },
    margin: {
      usd: marginUsd,
      percent: revenueUsd > 0 ? Math.round(marginUsd / revenueUsd * 1000) / 10 : null,
    },
  };
}
