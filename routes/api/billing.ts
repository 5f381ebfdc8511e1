/**
 * Billing (SPEC "Usage, demos, user, billing"): state, checkout, portal, sync, the payment-provider webhook, and the master-admin plan override.
 * Paths are relative to /api.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";

export function billingRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  return app;
}
