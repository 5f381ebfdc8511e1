/**
 * Response shapes of the usage aggregator's in-memory counters (UsageAggregator.status(),
 * ThresholdGate.status()), as GET /api/admin/usage-aggregator-status and
 * /api/admin/usage-diagnostic answer them (SPEC "Master-admin endpoints").
 */
import { z } from "zod";
import { count, isoTime } from "../base/shapes.ts";

const isoOrNull = isoTime.nullable();

export const aggregatorStatusSchema = z.strictObject({
  enabled: z.boolean(),
  flushIntervalMs: z.number().nonnegative(),
  flushMaxEntries: count,
  requestLogSampleRate: z.number().min(0).max(1),
  enqueuedDeltas: count,
  droppedWhenDisabled: count,
  sampledLogs: count,
  skippedLogs: count,
  flushes: count,
  flushErrors: count,
  lastFlushAt: isoOrNull,
  lastFlushDurationMs: z.number().nonnegative().nullable(),
  lastFlushBucketCount: count,
  lastFlushLogCount: count,
  lastError: z.string().nullable(),
  pendingBuckets: count,
  pendingLogs: count,
  prunes: count,
  lastPruneAt: isoOrNull,
  lastPruneRowsDeleted: count,
  droppedOnOverflow: count,
});
export type AggregatorStatus = z.infer<typeof aggregatorStatusSchema>;

export const thresholdGateStatusSchema = z.strictObject({
  enabled: z.boolean(),
  intervalMs: z.number().nonnegative(),
  allowed: count,
  skippedThrottled: count,
  skippedDisabled: count,
  evictedEntries: count,
  trackedOrgs: count,
});

/** GET /api/admin/usage-aggregator-status (SPEC names every field). */
export const aggregatorStatusResponseSchema = z.strictObject({
  generatedAt: isoTime,
  aggregator: aggregatorStatusSchema,
  thresholdGate: thresholdGateStatusSchema,
});
