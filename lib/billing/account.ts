/**
 * Reads of an account's billing row (decisions.md "Billing"). Apart from the writes in state.ts,
 * which republish the quota, so quota evaluation can read the plan without an import cycle.
 */
import { eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { billingAccounts } from "../db/schema/mod.ts";
import type { PlanCode } from "./plans.ts";

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
