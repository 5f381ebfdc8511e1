/**
 * Billing state per account (the user; decisions.md "Billing"). Accounts without a row are
 * on free with status `none`. Every write goes through here so the override rule lives in one place.
 */
import { sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { billingAccounts } from "../db/schema/mod.ts";
import type { Config } from "../config.ts";
import { type Plan, planForSubscriptionStatus, planLimits } from "./plans.ts";
import { publishQuota } from "./quota_publish.ts";
import { overageOf, type QuotaState } from "./quota.ts";
import { type BillingAccount, findBilling } from "./account.ts";

/** True when billing (and so plan limits) is configured. */
export function billingEnabled(config: Config): boolean {
  return config.stripe.secretKey !== undefined;
}

/**
 * Inserts or updates the account's row with `patch`. A plan change stamps planChangedAt (in
 * the same statement) and republishes the account's quota snapshot for the edge at once.
 */
export async function upsertBilling(
  s: Services,
  userId: string,
  patch: Partial<Omit<BillingAccount, "userId" | "updatedAt" | "planChangedAt">>,
): Promise<BillingAccount> {
  const now = new Date(s.clock.now());
  const values = { ...patch, updatedAt: now };
  const before = patch.planCode ? await findBilling(s, userId) : null;
  const [row] = await s.db.insert(billingAccounts).values({
    userId,
    ...values,
    ...(patch.planCode && patch.planCode !== "free" ? { planChangedAt: now } : {}),
  }).onConflictDoUpdate({
    target: billingAccounts.userId,
    set: {
      ...values,
      ...(patch.planCode
        ? {
          planChangedAt:
            sql`CASE WHEN ${billingAccounts.planCode} IS DISTINCT FROM ${patch.planCode}
            THEN ${now.toISOString()}::timestamptz ELSE ${billingAccounts.planChangedAt} END`,
        }
        : {}),
    },
  }).returning();
  if (patch.planCode && (before?.planCode ?? "free") !== row.planCode) {
    // Fail-open: the edge keeps the last snapshot; the next flush or backfill republishes.
    await publishQuota(s, userId).catch((e) =>
      s.log.warn("quota publish after plan change failed", { error: String(e) })
    );
  }
  return row;
}

export type SubscriptionFacts = {
  customerId: string;
  subscriptionId: string;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
};

/** Records a subscription's state; the plan follows its status unless an admin override is set. */
export async function applySubscription(
  s: Services,
  userId: string,
  f: SubscriptionFacts,
): Promise<BillingAccount> {
  const current = await findBilling(s, userId);
  return await upsertBilling(s, userId, {
    stripeCustomerId: f.customerId,
    stripeSubscriptionId: f.subscriptionId,
    status: f.status,
    currentPeriodEnd: f.currentPeriodEnd,
    cancelAtPeriodEnd: f.cancelAtPeriodEnd,
    ...(current?.adminOverride ? {} : { planCode: planForSubscriptionStatus(f.status) }),
  });
}

/**
 * The public view of an account's billing. Never includes provider ids. With `month` (the
 * account's quota state) it adds `usage` and `overage` (decisions.md "Quotas").
 */
export function billingView(s: Services, row: BillingAccount | null, month?: QuotaState) {
  const plan = row?.planCode ?? "free";
  const enabled = billingEnabled(s.config);
  const p = s.config.plans[plan];
  return {
    enabled,
    plan,
    status: row?.status ?? "none",
    quotas: s.config.quotas,
    // With QUOTAS=off no plan limits apply.
    limits: s.config.quotas ? { ...planLimits(p), priceUsd: p.priceUsd } : null,
    ...(month ? { usage: usageView(month), overage: overageView(p, month, s.clock.now()) } : {}),
    currentPeriodEnd: row?.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false,
    adminOverride: row?.adminOverride ?? false,
    hasCustomer: row?.stripeCustomerId != null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

function usageView(q: QuotaState) {
  return {
    period: q.period,
    requests: q.requests,
    bytes: q.bytes,
    percent: q.percent,
    level: q.level,
    reason: q.reason,
    paused: q.paused,
    resumesAt: q.resumesAt,
  };
}

/**
 * Overage so far this month and projected to the month's end at the month-to-date daily rate
 * (decisions.md "Quotas"); null on plans that pause instead of metering.
 */
function overageView(plan: Plan, q: QuotaState, now: number) {
  if (!q.enabled || plan.overLimit !== "meter") return null;
  const [y, m] = q.period.split("-").map(Number);
  const start = Date.UTC(y, m - 1, 1);
  const end = Date.UTC(y, m, 1);
  const elapsed = Math.min(Math.max(now - start, 1), end - start);
  const factor = (end - start) / elapsed;
  const round = (n: number) => Math.round(n * 100) / 100;
  const projected = overageOf(plan, Math.round(q.requests * factor), Math.round(q.bytes * factor));
  return {
    period: q.period,
    toDate: {
      requests: q.overage.requests,
      bytes: q.overage.bytes,
      usd: round(q.overage.totalUsd),
    },
    projected: {
      requests: projected.requests,
      bytes: projected.bytes,
      usd: round(projected.totalUsd),
    },
  };
}
