/**
 * Tenant analytics, bandwidth-daily and request logs (SPEC "Tenants"), viewer+.
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { currentPeriod, PERIOD_RE } from "../../lib/usage/query.ts";
import { isUtcDay, rangeError, resolveDayRange } from "../../lib/usage/days.ts";
import {
  HOURLY_DEFAULT_HOURS,
  HOURLY_MAX_HOURS,
  listRequestLogs,
  tenantAnalytics,
  tenantBandwidthDaily,
  tenantHourlySeries,
} from "../../lib/usage/analytics.ts";
import {
  bandwidthSeriesSchema,
  hourlySeriesSchema,
  requestLogPageSchema,
  tenantAnalyticsSchema,
} from "../../lib/usage/view_schema.ts";

const periodQuery = z.object({
  period: str().regex(PERIOD_RE, "must be YYYY-MM").optional(),
});

const day = str().refine(isUtcDay, "must be a date YYYY-MM-DD");
const rangeQuery = z.object({ from: day.optional(), to: day.optional() });

/** A day (UTC midnight) or a date-time with Z or an offset; never a zone-less local time. */
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/i;
const timestamp = str()
  .refine((v) => TIMESTAMP_RE.test(v) && Number.isFinite(Date.parse(v)), {
    message: "must be an ISO 8601 date or date-time with a zone",
  })
  .transform((v) => new Date(/T/i.test(v) ? v : `${v}T00:00:00Z`));

const hoursQuery = z.object({
  hours: str().regex(/^\d{1,4}$/, `must be an integer from 1 to ${HOURLY_MAX_HOURS}`)
    .transform(Number)
    .pipe(
      z.number().int().min(1, "must be at least 1").max(
        HOURLY_MAX_HOURS,
        `must be at most ${HOURLY_MAX_HOURS}`,
      ),
    )
    .default(HOURLY_DEFAULT_HOURS),
});

const logsQuery = z.object({
  limit: str().regex(/^\d+$/, "must be an integer from 1 to 200").transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(200, "must be at most 200"))
    .default(50),
  beforeId: str().regex(/^[1-9]\d{0,15}$/, "must be a positive integer").transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, "must be a positive integer"))
    .optional(),
  status: str()
    .regex(/^[1-5](\d\d|xx)$/i, "must be a status code like 404 or a class like 4xx")
    .transform((v) => {
      if (!/x/i.test(v)) return Number(v);
      const min = Number(v[0]) * 100;
      return { min, max: min + 100 };
    })
    .optional(),
  cache: str().transform((v) => v.toUpperCase())
    .pipe(z.enum(["HIT", "MISS", "STALE", "BYPASS"], "must be HIT, MISS, STALE or BYPASS"))
    .optional(),
  kind: z.enum(["api", "asset", "site", "other"], "must be api, asset, site or other").optional(),
  path: str().startsWith("/", "must start with /").max(2048, "must be at most 2048 characters")
    .optional(),
  from: timestamp.optional(),
  to: timestamp.optional(),
});

export function analyticsRoutes(): Routes {
  const app = new Routes("");

  app.get("/tenants/:slug/analytics", {
    access: access.tenant("viewer"),
    summary: "Reports a month of the tenant's traffic: exact totals and sampled breakdowns",
    query: periodQuery,
    response: tenantAnalyticsSchema,
  }, async (c, { tenant, query }) => {
    const s = c.get("services");
    const period = query.period ?? currentPeriod(s.clock.now());
    return c.json(await tenantAnalytics(s, tenant.id, period));
  });

  app.get("/tenants/:slug/bandwidth-daily", {
    access: access.tenant("viewer"),
    summary: "Lists the tenant's bytes and requests per day over a date range",
    query: rangeQuery,
    response: bandwidthSeriesSchema,
  }, async (c, { tenant, query }) => {
    const s = c.get("services");
    const { from, to } = resolveDayRange(s.clock.now(), query.from, query.to);
    return c.json(await tenantBandwidthDaily(s, tenant.id, from, to));
  });

  app.get("/tenants/:slug/usage-hourly", {
    access: access.tenant("viewer"),
    summary: "Lists the tenant's exact counters per UTC hour (default the last 48 hours)",
    query: hoursQuery,
    response: hourlySeriesSchema,
  }, async (c, { tenant, query }) => {
    return c.json(await tenantHourlySeries(c.get("services"), tenant.id, query.hours));
  });

  app.get("/tenants/:slug/logs", {
    access: access.tenant("viewer"),
    summary: "Lists the tenant's sampled request logs, newest first, with filters",
    query: logsQuery,
    response: requestLogPageSchema,
  }, async (c, { tenant, query: q }) => {
    if (q.from && q.to && q.from > q.to) throw rangeError("from", "from must not be after to");
    return c.json(
      await listRequestLogs(c.get("services"), tenant.id, {
        limit: q.limit,
        beforeId: q.beforeId,
        status: q.status,
        cache: q.cache,
        kind: q.kind,
        pathPrefix: q.path,
        from: q.from,
        to: q.to,
      }),
    );
  });

  return app;
}
