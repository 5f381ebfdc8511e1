/**
 * This process's running edge and loops, as the management app sees them: what the edge
 * counts and holds, and how the projector loop is doing. Built by the composition root
 * (lib/bootstrap.ts) once they run, after `Services` (the projector needs Services), and
 * handed beside Services to the management app (app.ts) and to the code that reads it.
 */
import type { RequestCounters } from "./metrics/request_counters.ts";
import type { EdgeCacheStats } from "./metrics/prometheus.ts";
import type { ProjectorStatus } from "./edge_config/loop.ts";
import type { UsageAggregator } from "./usage/aggregator.ts";
import type { EdgeExplainer } from "./cache/explain.ts";

export type Instance = {
  /** The edge's request counters for GET /metrics (lib/metrics). */
  requestCounters: RequestCounters;
  /** The edge cache's size for GET /metrics. */
  edgeCacheStats: EdgeCacheStats;
  /** Asks this instance's edge why a URL is (not) cached (lib/cache/explain.ts). */
  edgeExplain: EdgeExplainer;
  /** The projector loop's state for GET /metrics. */
  projectorStatus: () => ProjectorStatus;
  /** The edge's usage aggregator: ingest records into it; status endpoints read it. */
  usageAggregator: UsageAggregator;
};
