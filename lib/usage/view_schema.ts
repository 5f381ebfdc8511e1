/**
 * Response shapes of the usage and analytics reads: `UsageTotals`/`PeriodUsage`
 * (lib/usage/query.ts) and the analytics, bandwidth and request-log answers
 * (lib/usage/analytics.ts). Kept next to the builders; response validation in the tests
 * checks they agree (docs/architecture.md "Declaring an API route").
 */
import { z } from "zod";
import { count, isoTime } from "../base/shapes.ts";
import { ROLES } from "../base/roles.ts";

const day = z.string().describe("YYYY-MM-DD (UTC)");

export const usageTotalsSchema = z.strictObject({
  requests: count,
  bytes: count,
  hits: count,
  misses: count,
  stale: count,
  bypass: count,
  errors: count,
  blocked: count.describe("Bots refused on the asset path (not in requests or bytes)"),
  cacheHitRatio: z.number().describe("hits / (hits + misses + stale), 0 when none"),
  originRequests: count.describe("Upstream requests this traffic made (saved: the rest)"),
  originBytes: count.describe("Bytes fetched from the origin"),
  statusClasses: z.strictObject({
    "1xx": count,
    "2xx": count,
    "3xx": count,
    "4xx": count,
    "5xx": count,
  }).describe("Exact responses per status class"),
});

/** A UTC month's totals; `to` is exclusive. */
export const periodUsageSchema = usageTotalsSchema.extend({
  period: z.string().describe("YYYY-MM"),
  from: day,
  to: day.describe("First day after the period"),
});

/** GET /api/tenants/usage. */
export const tenantsUsageSchema = z.strictObject({
  period: z.string(),
  total: count,
  tenants: z.array(z.strictObject({
    slug: z.string(),
    role: z.enum(ROLES),
    usage: periodUsageSchema,
  })),
  totals: periodUsageSchema,
});

const quantilesSchema = z.strictObject({
  p50Ms: z.number().nonnegative(),
  p95Ms: z.number().nonnegative(),
  p99Ms: z.number().nonnegative(),
}).nullable().describe("Milliseconds (0.1 ms precision); null when nothing was measured");

/** lib/usage/query.ts Latency: quantiles read off merged log-scale buckets (decisions.md). */
export const latencySchema = z.strictObject({
  edge: quantilesSchema.describe("Request in to response headers out"),
  origin: quantilesSchema.describe("Upstream time of each request that reached the origin"),
});

const periodReportSchema = periodUsageSchema.extend({ latency: latencySchema });

/** GET .../{slug}/usage. */
export const tenantUsageSchema = z.strictObject({
  current: periodReportSchema,
  previous: periodReportSchema,
  period: z.string(),
});

const withErrorRate = { errorRate: z.number().describe("errors / requests, 4 decimals") };

/** GET .../{slug}/usage-hourly. */
export const hourlySeriesSchema = z.strictObject({
  from: z.string().describe("Start of the first hour (ISO)"),
  hours: count,
  points: z.array(
    usageTotalsSchema.omit({ blocked: true, statusClasses: true }).extend({
      hour: z.string().describe("Start of the UTC hour (ISO)"),
      latency: latencySchema,
    }),
  ),
});

/** `tenantAnalytics`: exact totals beside breakdowns of the sampled request logs. */
export const tenantAnalyticsSchema = z.strictObject({
  period: z.string(),
  from: day,
  to: day,
  totals: usageTotalsSchema.extend(withErrorRate),
  previous: periodUsageSchema.extend(withErrorRate),
  ai: z.strictObject({
    inputTokens: count,
    outputTokens: count,
    modelCalls: count,
    totalTokens: count,
  }),
  topPaths: z.array(z.strictObject({
    path: z.string(),
    requests: count.describe("Requests counted for the path (every one, not a sample)"),
    errors: count.describe("Of them, answers with status >= 400"),
    bytes: count,
    overcount: count.describe(
      "How much of requests the path inherited on entering a day already holding its 1,000 " +
        "busiest paths (0: exact)",
    ),
  })).describe("The month's busiest paths by exact per-day counters"),
  sampled: z.strictObject({
    logs: count,
    note: z.string(),
    byKind: z.array(z.strictObject({ kind: z.string(), requests: count, bytes: count })),
    statusClasses: z.record(z.string(), count).describe("1xx \u2026 5xx"),
    topPaths: z.array(z.strictObject({
      path: z.string(),
      requests: count.describe("Request logs kept for the path"),
      estimatedRequests: count.describe(
        "Requests the logs stand for: errors once, sampled successes scaled by the rate",
      ),
      bytes: count,
    })).describe("Ranked by estimatedRequests"),
  }),
});

/** `bandwidthSeries`: a point for every day of [from, to]. */
export const bandwidthSeriesSchema = z.strictObject({
  from: day,
  to: day,
  points: z.array(z.strictObject({ day, bytes: count, requests: count })),
  totals: z.strictObject({ bytes: count, requests: count }),
});

/** `listRequestLogs`: a page of request logs, newest first. */
export const requestLogPageSchema = z.strictObject({
  entries: z.array(z.strictObject({
    id: z.number().int(),
    ts: isoTime,
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    bytes: count,
    cache: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    kind: z.string().nullable(),
    originStatus: z.number().int().nullable().describe(
      "The origin's own status when the request reached it (an origin 500 the visitor got as 502)",
    ),
    experimentId: z.number().int().nullable(),
    variantId: z.number().int().nullable(),
  })),
  hasMore: z.boolean(),
  nextBeforeId: z.number().int().nullable().describe("Pass as beforeId for the next page"),
});
