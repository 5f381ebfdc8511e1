/** Usage from the edge: the aggregator wired to Postgres with the configured bounds. */
import type { Services } from "../services.ts";
import { UsageAggregator } from "./aggregator.ts";
import { postgresFlushTarget } from "./pg_target.ts";
import { ThresholdGate } from "./threshold_gate.ts";
import { RequestCounters } from "../metrics/request_counters.ts";

export { UsageAggregator } from "./aggregator.ts";
export { ThresholdGate } from "./threshold_gate.ts";

/** Builds the aggregator for a program's services (not started; bootstrap starts it). */
export function createUsageAggregator(s: Services): UsageAggregator {
  s.requestCounters = new RequestCounters();
  return new UsageAggregator({
    metrics: s.requestCounters,
    target: postgresFlushTarget(s.db),
    clock: s.clock,
    log: s.log,
    flushIntervalMs: s.config.usage.flushIntervalMs,
    flushMaxEntries: s.config.usage.flushMaxEntries,
    requestLogSampleRate: s.config.usage.requestLogSampleRate,
    requestLogMaxPerSecond: s.config.usage.requestLogMaxPerSecond,
    // Enabled once a check is registered (bootstrap registers the quota check).
    thresholdGate: new ThresholdGate({ enabled: false, intervalMs: s.config.quotaCheckIntervalMs }),
  });
}
