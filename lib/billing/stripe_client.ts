/**
 * The Stripe SDK client, pointed at STRIPE_API_BASE when set (tests use a loopback fake).
 * Deno has fetch, so the SDK's fetch client is used rather than Node's http.
 */
import type Stripe from "stripe";
import type { Config } from "../config.ts";
import { ApiError } from "../errors.ts";

export function notConfigured(what = "Billing"): ApiError {
  return new ApiError(400, "billing_not_configured", `${what} is not configured`);
}

let sdk: Promise<typeof import("stripe")> | undefined;
/**
 * The Stripe SDK, imported once on first use rather than at start-up (cold start, resident
 * memory). A literal specifier, so Deno Deploy resolves it.
 */
export const loadStripe = async (): Promise<typeof Stripe> =>
  (await (sdk ??= import("stripe"))).default;

/** A client for the configured key; 400 billing_not_configured without one. */
export async function stripeClient(config: Config): Promise<Stripe> {
  const key = config.stripe.secretKey;
  if (!key) throw notConfigured();
  const Stripe = await loadStripe();
  const base = config.stripe.apiBase ? new URL(config.stripe.apiBase) : null;
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 0,
    ...(base
      ? {
        host: base.hostname,
        port: base.port || (base.protocol === "http:" ? "80" : "443"),
        protocol: base.protocol === "http:" ? "http" : "https",
      }
      : {}),
  });
}

/** Runs a provider call; its failures become a 502 that names no secret. */
export async function callStripe<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof (await loadStripe()).errors.StripeError) {
      throw new ApiError(502, "payment_provider_error", `Payment provider error: ${e.type}`);
    }
    throw e;
  }
}
