/**
 * An account's month: its plan, its month-to-date requests and bytes across the tenants it
 * pays for, and what that means (README "Plans", decisions.md "Quotas"). Figures come from
 * the shared usage tables, so every instance computes the same answer.
 */
import type { Services } from "../services.ts";
import type { Plan } from "./plans.ts";
import { accountPlan } from "./account.ts";
import { billedTenants } from "./owners.ts";
import { currentPeriod, type PeriodUsage, usageByTenant } from "../usage/query.ts";
import type { QuotaLevel } from "../kv/quota.ts";

const TEN_GB = 10_000_000_000;

/** Epoch ms of the first instant of the UTC month after `period` (`YYYY-MM`). */
export function nextPeriodStart(period: string): number {
  const [y, m] = period.split("-").map(Number);
  return Date.UTC(y, m, 1);
}

export type Overage = {
  requests: number;
  bytes: number;
  requestsUsd: number;
  bytesUsd: number;
  totalUsd: number;
};

const usd = (n: number) => Math.round(n * 1_000_000) / 1_000_000;

/** Usage above the included amounts and its price (zero for plans that pause). */
export function overageOf(plan: Plan, requests: number, bytes: number): Overage {
  const metered = plan.overLimit === "meter";
  const r = metered ? Math.max(0, requests - plan.monthlyRequests) : 0;
  const b = metered ? Math.max(0, bytes - plan.monthlyBytes) : 0;
  const requestsUsd = usd((r / 1_000_000) * plan.overageUsdPerMillionRequests);
  const bytesUsd = usd((b / TEN_GB) * plan.overageUsdPer10Gb);
  return { requests: r, bytes: b, requestsUsd, bytesUsd, totalUsd: usd(requestsUsd + bytesUsd) };
}

export type QuotaState = {
  enabled: boolean;
  plan: Plan["code"];
  period: string;
  requests: number;
  bytes: number;
  limits: { requests: number; bytes: number } | null;
  /** Share of each included amount used, in percent (one decimal). */
  percent: { requests: number; bytes: number } | null;
  level: QuotaLevel;
  reason: "requests" | "bandwidth" | null;
  paused: boolean;
  resumesAt: string;
  overage: Overage;
};

/** What a plan makes of a month's totals. Pure; `enabled` is QUOTAS. */
export function evaluateQuota(
  plan: Plan,
  enabled: boolean,
  period: string,
  requests: number,
  bytes: number,
): QuotaState {
  const rq = plan.monthlyRequests > 0 ? requests / plan.monthlyRequests : Infinity;
  const rb = plan.monthlyBytes > 0 ? bytes / plan.monthlyBytes : Infinity;
  const worst = Math.max(requests > 0 ? rq : 0, bytes > 0 ? rb : 0);
  const level: QuotaLevel = !enabled ? 0 : worst >= 1 ? 100 : worst >= 0.8 ? 80 : 0;
  const reason = level < 100 ? null : (requests > 0 && rq >= 1) ? "requests" : "bandwidth";
  const pct = (x: number) => Number.isFinite(x) ? Math.round(x * 1000) / 10 : 100;
  return {
    enabled,
    plan: plan.code,
    period,
    requests,
    bytes,
    limits: enabled ? { requests: plan.monthlyRequests, bytes: plan.monthlyBytes } : null,
    percent: enabled
      ? { requests: pct(requests > 0 ? rq : 0), bytes: pct(bytes > 0 ? rb : 0) }
      : null,
    level,
    reason,
    paused: level === 100 && plan.overLimit === "pause",
    resumesAt: new Date(nextPeriodStart(period)).toISOString(),
    overage: enabled ? overageOf(plan, requests, bytes) : overageOf(plan, 0, 0),
  };
}

export type AccountMonth = {
  quota: QuotaState;
  /** The tenants the account pays for, with this period's usage (zeros when none). */
  tenants: { id: number; slug: string; usage: PeriodUsage | null }[];
};

/** The account's plan and month-to-date totals for `period` (default the current month). */
export async function accountMonth(
  s: Services,
  userId: string,
  period = currentPeriod(s.clock.now()),
): Promise<AccountMonth> {
  const plan = s.config.plans[await accountPlan(s, userId)];
  const owned = await billedTenants(s, userId);
  const usage = await usageByTenant(s, owned.map((t) => t.id), period);
  let requests = 0;
  let bytes = 0;
  for (const u of usage.values()) {
    requests += u.requests;
    bytes += u.bytes;
  }
  return {
    quota: evaluateQuota(plan, s.config.quotas, period, requests, bytes),
    tenants: owned.map((t) => ({ ...t, usage: usage.get(t.id) ?? null })),
  };
}
