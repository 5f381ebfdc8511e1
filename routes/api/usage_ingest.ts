/**
 * Usage ingest and check for an edge deployed apart from the app (X-Ingest-Key), and public demo data (SPEC "Usage, demos, user, billing").
 * Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { eq } from "drizzle-orm";
import { parseWith } from "../../lib/http/validate.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { tenants } from "../../lib/db/schema/mod.ts";
import {
  INGEST_MAX_BODY_BYTES,
  ingestRecords,
  ingestSchemaFor,
  isBatchBody,
} from "../../lib/usage/ingest.ts";
import { currentPeriod, PERIOD_RE, tenantPeriodUsage } from "../../lib/usage/query.ts";
import { DEMO_TENANT_SLUG, demoFor, isDemoProvider } from "../../lib/demos/mod.ts";
import { proxyBase } from "../../lib/tenants/service.ts";
import { usageCheck, usageCheckShape } from "../../lib/billing/usage_check.ts";
import { demoSchema } from "../../lib/demos/mod.ts";
import { usageTotalsSchema } from "../../lib/usage/view_schema.ts";

const checkQuery = z.object({
  tenant: str().min(1).max(100),
  period: str().regex(PERIOD_RE, "must be YYYY-MM").optional(),
});

const PROVIDER_ID_RE = /^[a-z0-9-]{1,40}$/;

export function usageIngestRoutes(): Routes {
  const app = new Routes("");

  app.post(
    "/usage/ingest",
    {
      access: access.machineKey("ingest"),
      summary: "Records usage counted by an edge deployed apart from the app (one or a batch)",
      response: z.strictObject({
        ok: z.literal(true),
        accepted: z.number().int().describe("Records counted"),
      }),
      errors: [404, 413, 503],
      // One record or { records: [...] }; its bounds depend on the clock, so the handler checks
      // the shape (ingestSchemaFor) with the field paths it reports.
      body: z.unknown(),
      bodyMaxBytes: INGEST_MAX_BODY_BYTES,
    },
    async (c, { body: raw }) => {
      const s = c.get("services");
      const schema = ingestSchemaFor(raw, s.clock.now());
      const { records } = parseWith(schema, raw);
      const prefix = isBatchBody(raw) ? (i: number) => `records.${i}.` : () => "";
      const accepted = await ingestRecords(s, c.get("instance").usageAggregator, records, prefix);
      return c.json({ ok: true, accepted });
    },
  );

  // The tenant's own month plus its billing account's plan limits, use and verdict.
  app.get("/usage/check", {
    access: access.machineKey("ingest"),
    summary: "Reports a tenant's month of usage and whether its plan lets traffic through",
    query: checkQuery,
    response: z.strictObject({
      tenant: str(),
      period: str(),
      usage: usageTotalsSchema.extend({ from: str(), to: str() }),
      ...usageCheckShape,
    }),
    errors: [404],
  }, async (c, { query: q }) => {
    const s = c.get("services");
    const period = q.period ?? currentPeriod(s.clock.now());
    const [tenant] = await s.db.select({ id: tenants.id, slug: tenants.slug }).from(tenants)
      .where(eq(tenants.slug, q.tenant.toLowerCase()));
    if (!tenant) throw notFound("Tenant");
    const { period: _p, ...usage } = await tenantPeriodUsage(s, tenant.id, period);
    return c.json({
      tenant: tenant.slug,
      period,
      usage,
      ...await usageCheck(s, tenant.id, period),
    });
  });

  app.get("/demos/:provider", {
    access: access.public,
    summary: "Shows a provider's sample API body and asset URL before and after Cachely",
    response: demoSchema,
    errors: [404],
  }, (c) => {
    const s = c.get("services");
    const id = c.req.param("provider");
    if (!PROVIDER_ID_RE.test(id)) {
      throw badRequest("Invalid provider: must match ^[a-z0-9-]{1,40}$", {
        fields: [{ path: "provider", message: "must match ^[a-z0-9-]{1,40}$" }],
      });
    }
    if (!isDemoProvider(id)) throw notFound("Provider");
    c.header("cache-control", "public, max-age=300");
    return c.json(demoFor(id, s.config, proxyBase(s, DEMO_TENANT_SLUG)));
  });

  return app;
}
