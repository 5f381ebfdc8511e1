/**
 * Implementation checks: cachely-check and website-implementation-check (SPEC "Tenants").
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes.
 * Both are read-only, so any member may run them (viewer+, decisions.md).
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { parseSiteUrl, runWebsiteCheck } from "../../lib/checks/website_check.ts";
import { runCachelyCheck } from "../../lib/checks/cachely_check.ts";
import { hitRateLimit } from "../../lib/kv/rate_limit.ts";
import { tooManyRequests } from "../../lib/errors.ts";
import type { Services } from "../../lib/services.ts";
import {
  cachelyCheckResultSchema,
  websiteCheckResultSchema,
} from "../../lib/checks/result_schema.ts";

/**
 * Both checks make the server fetch other hosts on a member's behalf: at most this many
 * per tenant per minute (together), so a tenant cannot turn them into a request cannon.
 */
export const CHECKS_PER_MINUTE = 20;

async function limitChecks(s: Services, tenantId: number): Promise<void> {
  const r = await hitRateLimit(
    s.kv,
    "checks",
    String(tenantId),
    CHECKS_PER_MINUTE,
    60_000,
    s.clock.now(),
  );
  if (!r.allowed) throw tooManyRequests(r.retryAfterSeconds, "Too many implementation checks");
}

const websiteCheckBody = z.object({ url: str().min(1).max(2048) }).strict();

export function implementationCheckRoutes(): Routes {
  const app = new Routes("");

  app.post("/tenants/:slug/cachely-check", {
    access: access.tenant("viewer"),
    summary: "Probes the tenant's website surface and reports whether Cachely serves it",
    response: cachelyCheckResultSchema,
    errors: [429],
  }, async (c, { tenant }) => {
    await limitChecks(c.get("services"), tenant.id);
    return c.json(await runCachelyCheck(c.get("services"), tenant));
  });

  app.post("/tenants/:slug/website-implementation-check", {
    access: access.tenant("viewer"),
    summary: "Fetches a public site page and reports whether it uses Cachely or the CMS directly",
    body: websiteCheckBody,
    bodyMaxBytes: 16 * 1024,
    response: websiteCheckResultSchema,
    errors: [429],
  }, async (c, { tenant, body: { url } }) => {
    const s = c.get("services");
    const target = parseSiteUrl(s, url);
    await limitChecks(s, tenant.id);
    return c.json(await runWebsiteCheck(s, tenant, target));
  });

  return app;
}
