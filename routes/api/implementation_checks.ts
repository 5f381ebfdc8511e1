/**
 * Implementation checks: cachely-check and website-implementation-check (SPEC "Tenants").
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes.
 * Both are read-only, so any member may run them (viewer+, decisions.md).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../lib/http/env.ts";
import { parseJsonBody } from "../../lib/http/validate.ts";
import { requireTenant } from "../../lib/tenants/access.ts";
import { parseSiteUrl, runWebsiteCheck } from "../../lib/checks/website_check.ts";
import { runCachelyCheck } from "../../lib/checks/cachely_check.ts";

const websiteCheckBody = z.object({ url: z.string().min(1).max(2048) }).strict();

export function implementationCheckRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/tenants/:slug/cachely-check", async (c) => {
    const { tenant } = await requireTenant(c, "viewer");
    return c.json(await runCachelyCheck(c.get("services"), tenant));
  });

  app.post("/tenants/:slug/website-implementation-check", async (c) => {
    const { tenant } = await requireTenant(c, "viewer");
    const s = c.get("services");
    const { url } = await parseJsonBody(c, websiteCheckBody, 16 * 1024);
    return c.json(await runWebsiteCheck(s, tenant, parseSiteUrl(s, url)));
  });

  return app;
}
