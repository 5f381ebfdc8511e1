/** Usage from the edge: the aggregator with the configured bounds, writing to `target`. */
import type { Config } from "../config.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { UsageFlushTarget } from "./types.ts";
import { UsageAggregator } from "./aggregator.ts";
import { ThresholdGate } from "./threshold_gate.ts";
import { RequestCounters } from "../metrics/request_counters.ts";

export { UsageAggregator } from "./aggregator.ts";
export { ThresholdGate } from "./threshold_gate.ts";

/**
 * Builds the aggregator and the request counters it feeds (not started; the edge's start-up
 * starts it). No PostgreSQL here: lib/bootstrap.ts hands the database target in.
 */
export function createUsageAggregator(
  config: Config,
  clock: Clock,
  log: Logger,
  target: UsageFlushTarget,
): { usage: UsageAggregator; counters: RequestCounters } {
  const counters = new RequestCounters();
  const usage = new UsageAggregator({
    metrics: counters,
    target,
    clock,
    log,
    flushIntervalMs: config.usage.flushIntervalMs,
    flushMaxEntries: config.usage.flushMaxEntries,
    requestLogSampleRate: config.usage.requestLogSampleRate,
    requestLogMaxPerSecond: config.usage.requestLogMaxPerSecond,
    // Enabled once a check is registered (bootstrap registers the quota check).
    thresholdGate: new ThresholdGate({ enabled: false, intervalMs: config.quotaCheckIntervalMs }),
  });
  return { usage, counters };
}
