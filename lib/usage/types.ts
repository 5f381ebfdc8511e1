import type { VisitorDelta } from "./visitor_windows.ts";

/** Rows the usage aggregator writes: per-(tenant, UTC day) buckets, sampled logs, exposures. */

/** Deltas for one `usage_daily` row. */
export type UsageBucket = {
  tenantId: number;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  requests: number;
  bytes: number;
  hits: number;
  misses: number;
  stale: number;
  bypass: number;
  /** Responses with status >= 500 (decisions.md). */
  errors: number;
  /** Bots refused on the asset path; not counted in requests or bytes. */
  blocked: number;
  /** Responses per status class; refused bots are not counted. */
  status1xx: number;
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
  /** Upstream requests made for this traffic, and the bytes they brought back. */
  originRequests: number;
  originBytes: number;
  /**
   * Edge time (request in -> response headers out) and origin time of requests that reached
   * the origin, as counts per lib/usage/latency_sketch.ts bucket (maybe trimmed of trailing
   * zeros). Absent in buckets built by hand.
   */
  edgeLatency?: number[];
  originLatency?: number[];
};

/** Deltas for one `usage_hourly` row: a bucket of one UTC hour (`hour` = its start, ISO). */
export type HourBucket = UsageBucket & { hour: string };

/** One sampled `request_logs` row. */
export type RequestLogEntry = {
  tenantId: number;
  ts: number;
  method: string;
  path: string;
  status: number;
  bytes: number;
  cache: string | null;
  durationMs: number;
  kind: string;
  /** The origin's status when the request reached it (null: answered without it). */
  originStatus?: number | null;
  experimentId: number | null;
  variantId: number | null;
};

/** Deltas for one `exposure_counts` row. */
export type ExposureDelta = {
  tenantId: number;
  experimentId: number;
  variantId: number;
  variantKey: string;
  exposures: number;
  lastSeenAt: number;
  /** Answers with status >= 500 among the exposures (guardrails). */
  errors: number;
  /** Answer-time counts per lib/usage/latency.ts bucket. */
  latency: number[];
};

export type UsageBatch = {
  /** Per (tenant, day): the sums of `hours`. */
  buckets: UsageBucket[];
  /** Per (tenant, hour); absent in batches built by hand. */
  hours?: HourBucket[];
  logs: RequestLogEntry[];
  exposures: ExposureDelta[];
  /** Experiment visitors per arm and window (guardrails); absent in batches built by hand. */
  visitors?: VisitorDelta[];
  /** Requests per path per tenant-day (Top paths); absent in batches built by hand. */
  paths?: PathDelta[];
};

/** Deltas for one `path_counts` row. */
export type PathDelta = {
  tenantId: number;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The request path without its query string. */
  path: string;
  requests: number;
  /** Answers with status >= 400. */
  errors: number;
  bytes: number;
};

/**
 * Where flushes go: Postgres in production (pg_target.ts), anything in tests. `write`
 * must be all-or-nothing, because a failed batch is merged back and retried.
 */
export type UsageFlushTarget = {
  /** Writes a batch; returns how many entries it had to discard (e.g. deleted tenants). */
  write(batch: UsageBatch): Promise<{ discarded: number }>;
  /**
   * Deletes request logs older than `before`, and the other kept rows past their retention
   * counted back from `now` (the app clock's time); returns the request-log rows removed.
   */
  pruneLogs?(before: Date, now: number): Promise<number>;
};
