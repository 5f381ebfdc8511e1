/**
 * Services are built once at entry (main.ts, or the test harness) and handed to
 * every route and to the edge. Nothing below reads the environment.
 */
import type { RequestCounters } from "./metrics/request_counters.ts";
import type { EdgeCacheStats } from "./metrics/prometheus.ts";
import type { ProjectorStatus } from "./edge_config/loop.ts";
import type { Config } from "./config.ts";
import type { Db, DbHandle } from "./db/client.ts";
import type { Clock } from "./clock.ts";
import type { Logger, LogRing } from "./log.ts";
import type { UsageAggregator } from "./usage/aggregator.ts";
import type { UpstreamClient } from "./net/upstream_types.ts";
import type { EdgeExplainer } from "./cache/explain.ts";
import { Background } from "./background.ts";

/** Fired after a tenant's KV snapshot is rewritten, so an in-process edge drops its memo. */
export type SnapshotListener = (slug: string) => void;

export type Services = {
  config: Config;
  db: Db;
  dbHandle: DbHandle;
  kv: Deno.Kv;
  clock: Clock;
  log: Logger;
  /** Recent log entries of this process (GET /api/admin/logs); set by bootstrap. */
  logRing?: LogRing;
  /** fetch used for server-side requests (upstreams, mail, DNS-over-HTTP); injectable in tests. */
  fetch: typeof fetch;
  /** DNS resolution (domain verification, SSRF checks); injectable in tests. */
  resolveDns: typeof Deno.resolveDns;
  /**
   * The client behind every fetch of a user-supplied URL (lib/net/guarded_fetch.ts): it
   * connects to the SSRF-checked address; set by bootstrap (edge/upstream_client.ts).
   */
  userUrlClient: UpstreamClient;
  snapshotListeners: Set<SnapshotListener>;
  /**
   * Writes a tenant's snapshot to KV at its current generation (lib/edge_config/projector.ts),
   * set by bootstrap. Domain code reaches it only through lib/edge_config/changes.ts.
   */
  edgeProjection?: { project(slug: string): Promise<unknown> };
  /** Fired after an account's quota snapshot is rewritten (userId), likewise. */
  quotaListeners: Set<(userId: string) => void>;
  /** Work started by a request and not waited for (lib/background.ts). */
  background: Background;
  /** This instance's request counters for GET /metrics (lib/metrics), set by bootstrap. */
  requestCounters?: RequestCounters;
  /** The edge cache's size for GET /metrics, set by bootstrap. */
  edgeCacheStats?: EdgeCacheStats;
  /** Asks this instance's edge why a URL is (not) cached (lib/cache/explain.ts), set by bootstrap. */
  edgeExplain?: EdgeExplainer;
  /** The edge projector loop's state for GET /metrics, set by bootstrap. */
  projectorStatus?: () => ProjectorStatus;
  /** The edge's usage aggregator, set by bootstrap (status endpoint, tests, shutdown). */
  usageAggregator?: UsageAggregator;
};

export function createServices(
  parts:
    & Omit<
      Services,
      "db" | "snapshotListeners" | "quotaListeners" | "fetch" | "resolveDns" | "background"
    >
    & {
      fetch?: typeof fetch;
      resolveDns?: typeof Deno.resolveDns;
    },
): Services {
  return {
    ...parts,
    db: parts.dbHandle.db,
    fetch: parts.fetch ?? globalThis.fetch.bind(globalThis),
    resolveDns: parts.resolveDns ?? Deno.resolveDns,
    snapshotListeners: new Set(),
    quotaListeners: new Set(),
    background: new Background(parts.log),
  };
}
