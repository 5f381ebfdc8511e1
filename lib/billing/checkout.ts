/**
 * Starting a checkout for the pro plan (SPEC "Usage, demos, user, billing"): the account's
 * Stripe customer is created on first use and remembered, then a subscription checkout
 * session is opened for it. The billing account is the signed-in user (decisions.md "Billing").
 */
import type { Services } from "../services.ts";
import type { User } from "../users/mod.ts";
import { ApiError } from "../errors.ts";
import { findBilling } from "./account.ts";
import { upsertBilling } from "./state.ts";
import { callStripe, notConfigured, stripeClient } from "./stripe_client.ts";

/** The checkout URL to send the browser to; 400 when the account already subscribes. */
export async function startCheckout(
  s: Services,
  user: Pick<User, "id" | "email">,
): Promise<string> {
  const stripe = await stripeClient(s.config);
  const price = s.config.stripe.pricePro;
  if (!price) throw notConfigured("The pro price");
  const row = await findBilling(s, user.id);
  if (row && (row.status === "active" || row.status === "trialing")) {
    throw new ApiError(400, "already_subscribed", "The account already has a subscription");
  }
  let customerId = row?.stripeCustomerId;
  if (!customerId) {
    const customer = await callStripe(() =>
      stripe.customers.create({ email: user.email, metadata: { userId: user.id } })
    );
    customerId = customer.id;
    await upsertBilling(s, user.id, { stripeCustomerId: customerId });
  }
  const dashboard = new URL("/dashboard", s.config.publicUrl);
  const session = await callStripe(() =>
    stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customerId,
      client_reference_id: user.id,
      line_items: [{ price, quantity: 1 }],
      subscription_data: { metadata: { userId: user.id } },
      success_url: `${dashboard}?billing=success`,
      cancel_url: `${dashboard}?billing=cancel`,
    })
  );
  if (!session.url) {
    throw new ApiError(502, "payment_provider_error", "Checkout session has no url");
  }
  return session.url;
}
