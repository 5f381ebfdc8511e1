/**
 * Cost of UsageAggregator.record(), the only usage work on a visitor's request
 * (`deno bench bench/usage_record_bench.ts`).
 */
import { UsageAggregator } from "../lib/usage/aggregator.ts";
import { silentLogger } from "../lib/log.ts";
import type { UsageRecord } from "../edge/types.ts";

const agg = new UsageAggregator({
  target: { write: () => Promise.resolve({ discarded: 0 }) },
  clock: { now: () => Date.now() },
  log: silentLogger,
  flushIntervalMs: 3_600_000,
  flushMaxEntries: 1_000_000_000,
  requestLogSampleRate: 0.01,
});
const rec: UsageRecord = {
  tenantId: 1,
  ts: Date.now(),
  method: "GET",
  path: "/~api/data.json",
  status: 200,
  bytes: 2048,
  cache: "HIT",
  kind: "api",
  durationMs: 0,
};
const withExperiment: UsageRecord = {
  ...rec,
  experiment: { experimentId: 1, variantId: 2, variantKey: "bold" },
};

Deno.bench("UsageAggregator.record() of a cache hit", () => {
  agg.record(rec);
});

Deno.bench("UsageAggregator.record() with an experiment exposure", () => {
  agg.record(withExperiment);
});
