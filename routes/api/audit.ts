/** Audit events (SPEC "Tenants": audit-events). Paths are relative to /api. */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { auditPageSchema, listAudit } from "../../lib/audit/mod.ts";

const positiveInt = (max: number) =>
  str().regex(/^[1-9]\d{0,15}$/, "must be a positive integer").transform(Number)
    .pipe(z.number().int().max(max));

// SPEC "Limits": audit events page, limit 1 to 200, default 50; beforeId is a keyset cursor.
const querySchema = z.object({
  limit: str().regex(/^\d+$/, "must be an integer from 1 to 200").transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(200, "must be at most 200"))
    .default(50),
  beforeId: positiveInt(Number.MAX_SAFE_INTEGER).optional(),
});

export function auditRoutes(): Routes {
  const app = new Routes("");

  app.get("/tenants/:slug/audit-events", {
    access: access.tenant("viewer"),
    summary: "Lists the tenant's audit events, newest first, a page at a time",
    query: querySchema,
    response: auditPageSchema,
  }, async (c, { tenant, query: q }) => {
    return c.json(await listAudit(c.get("services"), tenant.id, q.limit, q.beforeId));
  });

  return app;
}
