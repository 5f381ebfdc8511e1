/**
 * This instance's request counters for GET /metrics: monotonic per-tenant counts by
 * cache state and status class, origin requests, and histograms of edge and origin time. Fed
 * from the usage record each request already makes (lib/usage/aggregator.ts); one Map lookup
 * and a few array increments per request. Bounded: at most MAX_TENANTS tenants are tracked
 * (more are counted under tenant id 0).
 */
import type { UsageRecord } from "../../edge/types.ts";

export const CACHE_STATES = ["HIT", "MISS", "STALE", "BYPASS", "none"] as const;
export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
/** Histogram bounds in seconds (Prometheus `le`), log-spaced 1 ms ... 10 s. */
export const DURATION_BUCKETS = [
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
];
const MAX_TENANTS = 10_000;
const SLOTS = CACHE_STATES.length * STATUS_CLASSES.length;

export class Histogram {
  readonly counts = new Float64Array(DURATION_BUCKETS.length + 1);
  sum = 0;
  observe(seconds: number): void {
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i++;
    this.counts[i]++;
    this.sum += seconds;
  }
}

export type TenantCounters = {
  requests: Float64Array;
  originRequests: number;
  originBytes: number;
};

export class RequestCounters {
  readonly tenants = new Map<number, TenantCounters>();
  readonly edgeDuration = new Histogram();
  readonly originDuration = new Histogram();

  record(r: UsageRecord): void {
    if (r.blocked) return;
    let t = this.tenants.get(r.tenantId);
    if (t === undefined) {
      const id = this.tenants.size < MAX_TENANTS ? r.tenantId : 0;
      t = this.tenants.get(id);
      if (t === undefined) {
        t = { requests: new Float64Array(SLOTS), originRequests: 0, originBytes: 0 };
        this.tenants.set(id, t);
      }
    }
    // A background refresh (stale-while-revalidate) is an origin request, not a request.
    if (!r.background) {
      const c = r.cache;
      const ci = c === "HIT" ? 0 : c === "MISS" ? 1 : c === "STALE" ? 2 : c === "BYPASS" ? 3 : 4;
      const si = Math.min(4, Math.max(0, Math.floor(r.status / 100) - 1));
      t.requests[ci * STATUS_CLASSES.length + si]++;
      this.edgeDuration.observe(r.durationMs / 1000);
    }
    if (r.originRequests) {
      t.originRequests += r.originRequests;
      t.originBytes += r.originBytes ?? 0;
      this.originDuration.observe((r.originMs ?? 0) / 1000);
    }
  }
}
