/**
 * Implementation checks: cachely-check and website-implementation-check (SPEC "Tenants").
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";

export function implementationCheckRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  return app;
}
