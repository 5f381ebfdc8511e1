/**
 * Master-admin operations: overview, bandwidth, log pruning, user admin (SPEC "Master-admin endpoints").
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";

export function adminOpsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  return app;
}
