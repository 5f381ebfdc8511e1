/**
 * Master-admin quota endpoints (SPEC "Master-admin endpoints"): republish every account's
 * edge quota snapshot, and a tenant's earnings for a month. Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { notFound } from "../../lib/errors.ts";
import { currentPeriod, PERIOD_RE } from "../../lib/usage/query.ts";
import { findTenantBySlug } from "../../lib/tenants/service.ts";
import { backfillQuotaSnapshots } from "../../lib/billing/quota_backfill.ts";
import { tenantEarned } from "../../lib/billing/earned.ts";
import { quotaBackfillSchema, tenantEarnedSchema } from "../../lib/billing/admin_view_schema.ts";

const periodQuery = z.object({
  period: str().regex(PERIOD_RE, "must be YYYY-MM").optional(),
}).strict();

export function adminQuotaRoutes(): Routes {
  const app = new Routes("");

  app.post("/admin/quota-snapshots/backfill", {
    access: access.masterAdmin,
    summary: "Recomputes and republishes every account's edge quota snapshot",
    response: quotaBackfillSchema,
  }, async (c) => {
    return c.json(await backfillQuotaSnapshots(c.get("services")));
  });

  app.get("/admin/tenants/:slug/earned", {
    access: access.masterAdmin,
    summary: "A tenant's revenue share, modeled cost and margin for one month",
    response: tenantEarnedSchema,
    errors: [404],
    query: periodQuery,
  }, async (c, { query }) => {
    const s = c.get("services");
    const period = query.period ?? currentPeriod(s.clock.now());
    const tenant = await findTenantBySlug(s, c.req.param("slug").toLowerCase());
    if (!tenant) throw notFound("Tenant");
    return c.json(await tenantEarned(s, tenant, period));
  });

  return app;
}
