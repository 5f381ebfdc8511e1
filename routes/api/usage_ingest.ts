/**
 * Usage ingest and check for an edge deployed apart from the app (X-Ingest-Key), and public demo data (SPEC "Usage, demos, user, billing").
 * Paths are relative to /api.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";

export function usageIngestRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  return app;
}
