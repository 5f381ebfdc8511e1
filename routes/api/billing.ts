/**
 * Billing (SPEC "Usage, demos, user, billing"): state, checkout, portal, sync, the payment-provider webhook, and the master-admin plan override.
 * Paths are relative to /api. The billing account is the signed-in user (decisions.md "Billing").
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { readBodyText } from "../../lib/http/validate.ts";
import { ApiError, forbidden, notFound } from "../../lib/errors.ts";
import { findUserById } from "../../lib/users/mod.ts";
import { PLAN_CODES } from "../../lib/billing/plans.ts";
import { billingView, upsertBilling } from "../../lib/billing/state.ts";
import { startCheckout } from "../../lib/billing/checkout.ts";
import { findBilling } from "../../lib/billing/account.ts";
import { callStripe, stripeClient } from "../../lib/billing/stripe_client.ts";
import { refreshSubscription } from "../../lib/billing/subscription.ts";
import { accountMonth } from "../../lib/billing/quota.ts";
import { handleStripeEvent, verifyStripeEvent } from "../../lib/billing/webhook.ts";
import { billingViewSchema } from "../../lib/billing/view_schema.ts";

const urlSchema = z.strictObject({ url: str().describe("Where to send the browser") });
const syncedSchema = z.strictObject({
  ok: z.literal(true),
  synced: z.boolean().describe("false when there is no subscription to read"),
  billing: billingViewSchema,
});

const WEBHOOK_MAX_BYTES = 256 * 1024;
const syncQuery = z.object({ userId: str().trim().min(1).max(100).optional() });
const overrideBody = z.object({
  planCode: z.enum(PLAN_CODES),
  /** false hands the plan back to the payment provider; default true (SPEC: sets the flag). */
  adminOverride: z.boolean().optional(),
}).strict();

// Long: the route table of billing: 6 declarations (state, checkout, portal, sync, the signed
// webhook, the admin override), each its access, schemas and summary beside a handler of under 20
// lines; one block per route, found by its path.
export function billingRoutes(): Routes {
  const app = new Routes("");

  app.get(
    "/billing/state",
    {
      access: access.session,
      summary: "Reports the caller's plan, subscription, month of usage and overage",
      response: billingViewSchema,
    },
    async (c, { auth }) => {
      const s = c.get("services");
      const { quota } = await accountMonth(s, auth.user.id);
      return c.json(billingView(s, await findBilling(s, auth.user.id), quota));
    },
  );

  app.post(
    "/billing/checkout",
    {
      access: access.session,
      summary: "Starts a checkout for the pro plan and answers its URL",
      response: urlSchema,
      errors: [400, 502],
    },
    async (c, { auth }) => {
      return c.json({ url: await startCheckout(c.get("services"), auth.user) });
    },
  );

  app.post(
    "/billing/portal",
    {
      access: access.session,
      summary: "Opens the payment provider's billing portal and answers its URL",
      response: urlSchema,
      errors: [400, 502],
    },
    async (c, { auth }) => {
      const s = c.get("services");
      const stripe = await stripeClient(s.config);
      const customerId = (await findBilling(s, auth.user.id))?.stripeCustomerId;
      if (!customerId) {
        throw new ApiError(400, "no_billing_customer", "No billing customer yet: check out first");
      }
      const session = await callStripe(() =>
        stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: new URL("/dashboard", s.config.publicUrl).toString(),
        })
      );
      return c.json({ url: session.url });
    },
  );

  app.post("/billing/sync", {
    access: access.session,
    summary:
      "Reads the subscription from the payment provider again (own account, or any for admins)",
    query: syncQuery,
    response: syncedSchema,
    errors: [403, 404, 502],
  }, async (c, { auth, query }) => {
    const s = c.get("services");
    const userId = query.userId ?? auth.user.id;
    if (userId !== auth.user.id) {
      if (!auth.isAdmin) throw forbidden("Only the account itself or a master admin may sync it");
      if (!(await findUserById(s, userId))) throw notFound("User");
    }
    const row = await findBilling(s, userId);
    if (!s.config.stripe.secretKey || !row?.stripeSubscriptionId) {
      return c.json({ ok: true, synced: false, billing: billingView(s, row) });
    }
    const updated = await refreshSubscription(s, userId, row.stripeSubscriptionId);
    return c.json({ ok: true, synced: true, billing: billingView(s, updated) });
  });

  app.post(
    "/billing/webhook",
    {
      access: access.webhookSecret("signature"),
      summary: "Payment-provider webhook: applies a signed subscription event",
      response: z.strictObject({ received: z.literal(true) }),
      errors: [403, 413],
    },
    async (c) => {
      const s = c.get("services");
      const secret = s.config.stripe.webhookSecret;
      if (!secret) throw forbidden("Billing webhook is not configured", "webhook_not_configured");
      const raw = await readBodyText(c.req.raw, WEBHOOK_MAX_BYTES, s.config.bodyIdleTimeoutMs);
      const event = await verifyStripeEvent(
        raw,
        c.req.header("stripe-signature"),
        secret,
        s.clock.now(),
      );
      await handleStripeEvent(s, event);
      return c.json({ received: true });
    },
  );

  app.patch("/admin/billing/:orgId", {
    access: access.masterAdmin,
    summary: "Sets an account's plan by hand (master admin), or hands it back to the provider",
    body: overrideBody,
    response: z.strictObject({ ok: z.literal(true), billing: billingViewSchema }),
    errors: [404],
  }, async (c, { body }) => {
    const s = c.get("services");
    const userId = c.req.param("orgId");
    if (!(await findUserById(s, userId))) throw notFound("Account");
    const row = await upsertBilling(s, userId, {
      planCode: body.planCode,
      adminOverride: body.adminOverride ?? true,
    });
    return c.json({ ok: true, billing: billingView(s, row) });
  });

  return app;
}
