/**
 * Tenant analytics, bandwidth-daily and request logs (SPEC "Tenants").
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";

export function analyticsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  return app;
}
