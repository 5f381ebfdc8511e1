/**
 * Usage endpoints (SPEC "Tenants": GET /api/tenants/usage and .../{slug}/usage).
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { listTenantsFor } from "../../lib/tenants/service.ts";
import {
  currentPeriod,
  emptyPeriodUsage,
  PERIOD_RE,
  previousPeriod,
  sumPeriodUsage,
  tenantPeriodReport,
  usageByTenant,
} from "../../lib/usage/query.ts";
import { tenantsUsageSchema, tenantUsageSchema } from "../../lib/usage/view_schema.ts";

const periodQuery = z.object({
  period: str().regex(PERIOD_RE, "must be YYYY-MM").optional(),
});

export function usageRoutes(): Routes {
  const app = new Routes("");

  // Every tenant the caller can see, with this period's totals (decisions.md).
  app.get("/tenants/usage", {
    access: access.session,
    summary: "Lists every tenant the caller can see with a month's usage, and their sum",
    query: periodQuery,
    response: tenantsUsageSchema,
  }, async (c, { auth, query }) => {
    const s = c.get("services");
    const period = query.period ?? currentPeriod(s.clock.now());
    const rows = await listTenantsFor(s, auth.user.id, auth.isAdmin);
    const byTenant = await usageByTenant(s, rows.map((r) => r.tenant.id), period);
    const tenants = rows.map((r) => ({
      slug: r.tenant.slug,
      role: r.role,
      usage: byTenant.get(r.tenant.id) ?? emptyPeriodUsage(period),
    }));
    const totals = sumPeriodUsage(period, tenants.map((t) => t.usage));
    return c.json({ period, total: tenants.length, tenants, totals });
  });

  app.get("/tenants/:slug/usage", {
    access: access.tenant("viewer"),
    summary: "Reports the tenant's usage for a month and the month before",
    query: periodQuery,
    response: tenantUsageSchema,
  }, async (c, { tenant, query }) => {
    const s = c.get("services");
    const period = query.period ?? currentPeriod(s.clock.now());
    const [current, previous] = await Promise.all([
      tenantPeriodReport(s, tenant.id, period),
      tenantPeriodReport(s, tenant.id, previousPeriod(period)),
    ]);
    return c.json({ current, previous, period });
  });

  return app;
}
