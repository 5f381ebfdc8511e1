/**
 * Billing state per account (the user; decisions.md "Billing"). Accounts without a row are
 * on free with status `none`. Every write goes through here so the override rule lives in one place.
 */
import { eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { billingAccounts } from "../db/schema/mod.ts";
import { billingEnabled } from "../config.ts";
import { type PlanCode, planForSubscriptionStatus, planLimits } from "./plans.ts";

export type BillingAccount = typeof billingAccounts.$inferSelect;

export async function findBilling(s: Services, userId: string): Promise<BillingAccount | null> {
  const [row] = await s.db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId));
  return row ?? null;
}

export async function findBillingByCustomer(
  s: Services,
  customerId: string,
): Promise<BillingAccount | null> {
  const [row] = await s.db.select().from(billingAccounts)
    .where(eq(billingAccounts.stripeCustomerId, customerId));
  return row ?? null;
}

/** The plan whose limits apply to this account's tenants. */
export async function accountPlan(s: Services, userId: string): Promise<PlanCode> {
  return (await findBilling(s, userId))?.planCode ?? "free";
}

/** Inserts or updates the account's row with `patch`. */
export async function upsertBilling(
  s: Services,
  userId: string,
  patch: Partial<Omit<BillingAccount, "userId" | "updatedAt">>,
): Promise<BillingAccount> {
  const values = { ...patch, updatedAt: new Date(s.clock.now()) };
  const [row] = await s.db.insert(billingAccounts).values({ userId, ...values })
    .onConflictDoUpdate({ target: billingAccounts.userId, set: values }).returning();
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

/** The public view of an account's billing. Never includes provider ids. */
export function billingView(s: Services, row: BillingAccount | null) {
  const plan = row?.planCode ?? "free";
  const enabled = billingEnabled(s.config);
  return {
    enabled,
    plan,
    status: row?.status ?? "none",
    // Without billing configured no plan limits apply.
    limits: enabled ? planLimits(plan) : null,
    currentPeriodEnd: row?.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false,
    adminOverride: row?.adminOverride ?? false,
    hasCustomer: row?.stripeCustomerId != null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}
