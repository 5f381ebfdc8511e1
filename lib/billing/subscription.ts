/** Reading a Stripe subscription into the facts billing stores, and re-reading it on sync. */
import type Stripe from "stripe";
import type { Services } from "../services.ts";
import { applySubscription, type SubscriptionFacts } from "./state.ts";
import type { BillingAccount } from "./account.ts";
import { callStripe, stripeClient } from "./stripe_client.ts";

export function subscriptionFacts(sub: Stripe.Subscription): SubscriptionFacts {
  // Since API version 2025-03-31 the period lives on the items; older payloads carry it on top.
  const end = sub.items?.data?.[0]?.current_period_end ??
    (sub as unknown as { current_period_end?: number }).current_period_end;
  return {
    customerId: typeof sub.customer === "string" ? sub.customer : sub.customer.id,
    subscriptionId: sub.id,
    status: sub.status,
    currentPeriodEnd: typeof end === "number" ? new Date(end * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
  };
}

/** Fetches the subscription from Stripe and records it for `userId`. */
export async function refreshSubscription(
  s: Services,
  userId: string,
  subscriptionId: string,
): Promise<BillingAccount> {
  const stripe = await stripeClient(s.config);
  const sub = await callStripe(() => stripe.subscriptions.retrieve(subscriptionId));
  return await applySubscription(s, userId, subscriptionFacts(sub));
}
