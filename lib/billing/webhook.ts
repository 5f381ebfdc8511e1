/**
 * The Stripe webhook: signature check (Stripe-Signature, 300 s either way) and the events that
 * change billing. Redelivered events write the same values again, so handling is idempotent.
 */
import type Stripe from "stripe";
import type { Services } from "../services.ts";
import { ApiError, badRequest } from "../errors.ts";
import { findUserById } from "../users/mod.ts";
import { applySubscription, upsertBilling } from "./state.ts";
import { findBillingByCustomer } from "./account.ts";
import { refreshSubscription, subscriptionFacts } from "./subscription.ts";
import { refuseBadText } from "../http/validate.ts";
import { loadStripe } from "./stripe_client.ts";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

const invalidSignature = (why: string) =>
  new ApiError(400, "invalid_signature", `Invalid webhook signature: ${why}`);

/**
 * Verifies `header` over the raw body and returns the event. The SDK only rejects old
 * timestamps, so timestamps from the future are checked here too.
 */
export async function verifyStripeEvent(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowMs: number,
): Promise<Stripe.Event> {
  if (secret === "") throw invalidSignature("no secret");
  if (!header) throw invalidSignature("missing Stripe-Signature header");
  const t = header.split(",").map((p) => p.trim().split("=")).find(([k]) => k === "t")?.[1];
  if (!t || !/^\d{1,12}$/.test(t)) throw invalidSignature("missing timestamp");
  if (Math.abs(Math.floor(nowMs / 1000) - Number(t)) > SIGNATURE_TOLERANCE_SECONDS) {
    throw invalidSignature("timestamp outside the tolerance");
  }
  let event: Stripe.Event;
  const Stripe = await loadStripe();
  try {
    event = await Stripe.webhooks.constructEventAsync(
      rawBody,
      header,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      nowMs,
    );
  } catch (e) {
    if (e instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw invalidSignature("no matching v1 signature");
    }
    throw badRequest("Invalid webhook payload: not a JSON event");
  }
  return checkedEvent(event);
}

/**
 * A correctly signed body is still input: `null`, an event without a data object, or U+0000
 * (which PostgreSQL text cannot hold) used to surface as a 500.
 */
function checkedEvent(event: Stripe.Event): Stripe.Event {
  const data = (event as { data?: { object?: unknown } } | null)?.data?.object;
  if (typeof event?.type !== "string" || typeof data !== "object" || data === null) {
    throw badRequest("Invalid webhook payload: not a JSON event");
  }
  refuseBadText(event);
  return event;
}

/** Applies an event; unknown types are ignored. Returns whether billing changed. */
export async function handleStripeEvent(s: Services, event: Stripe.Event): Promise<boolean> {
  switch (event.type) {
    case "checkout.session.completed":
      return await onCheckoutCompleted(s, event.data.object);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return await onSubscription(s, event.data.object);
    default:
      return false;
  }
}

async function onCheckoutCompleted(s: Services, session: Stripe.Checkout.Session) {
  const customerId = idOf(session.customer);
  const userId = await accountFor(s, customerId, session.client_reference_id);
  if (!userId || !customerId) return false;
  await upsertBilling(s, userId, { stripeCustomerId: customerId });
  const subscriptionId = idOf(session.subscription);
  if (subscriptionId) await refreshSubscription(s, userId, subscriptionId);
  return true;
}

async function onSubscription(s: Services, sub: Stripe.Subscription) {
  const facts = subscriptionFacts(sub);
  const userId = await accountFor(s, facts.customerId, sub.metadata?.userId);
  if (!userId) return false;
  await applySubscription(s, userId, facts);
  return true;
}

/** The account a customer belongs to: its billing row, else the user id we put on the checkout. */
async function accountFor(
  s: Services,
  customerId: string | null,
  userIdHint: string | null | undefined,
): Promise<string | null> {
  if (customerId) {
    const row = await findBillingByCustomer(s, customerId);
    if (row) return row.userId;
  }
  if (userIdHint && (await findUserById(s, userIdHint))) return userIdHint;
  return null;
}

function idOf(v: string | { id: string } | null | undefined): string | null {
  if (!v) return null;
  return typeof v === "string" ? v : v.id;
}
