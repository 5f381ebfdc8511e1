/**
 * Master-admin platform endpoints: app logs, usage stream and diagnostics, cost model, database init and backfills (SPEC "Master-admin endpoints").
 * Paths are relative to /api.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";

export function adminPlatformRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  return app;
}
