/** Pure pieces of the aggregator: bucket arithmetic (latency sketches included) and request-log rows. */
import type { UsageRecord } from "../../edge/types.ts";
import type { RequestLogEntry, UsageBucket } from "./types.ts";
import { emptySketch, mergeSketch } from "./latency_sketch.ts";

/** Longest path kept in a request log row. */
const MAX_PATH_CHARS = 2048;

export function emptyBucket(tenantId: number, day: string): UsageBucket {
  return {
    tenantId,
    day,
    requests: 0,
    bytes: 0,
    hits: 0,
    misses: 0,
    stale: 0,
    bypass: 0,
    errors: 0,
    blocked: 0,
    status1xx: 0,
    status2xx: 0,
    status3xx: 0,
    status4xx: 0,
    status5xx: 0,
    originRequests: 0,
    originBytes: 0,
    edgeLatency: emptySketch(),
    originLatency: emptySketch(),
  };
}

/** A copy that shares no array with `b` (the sketches are added to in place). */
export function copyBucket<B extends UsageBucket>(b: B): B {
  const c = { ...b };
  if (b.edgeLatency) c.edgeLatency = b.edgeLatency.slice();
  if (b.originLatency) c.originLatency = b.originLatency.slice();
  return c;
}

export function addBucket(into: UsageBucket, b: UsageBucket): void {
  into.requests += b.requests;
  into.bytes += b.bytes;
  into.hits += b.hits;
  into.misses += b.misses;
  into.stale += b.stale;
  into.bypass += b.bypass;
  into.errors += b.errors;
  into.blocked += b.blocked;
  into.status1xx += b.status1xx;
  into.status2xx += b.status2xx;
  into.status3xx += b.status3xx;
  into.status4xx += b.status4xx;
  into.status5xx += b.status5xx;
  into.originRequests += b.originRequests;
  into.originBytes += b.originBytes;
  if (b.edgeLatency) into.edgeLatency = mergeSketch(into.edgeLatency ?? [], b.edgeLatency);
  if (b.originLatency) into.originLatency = mergeSketch(into.originLatency ?? [], b.originLatency);
}

/** A request's path as logs and path counters keep it: without the query, bounded in length. */
export function requestPath(raw: string): string {
  // The query string is dropped: it can carry preview tokens or visitor data.
  const q = raw.indexOf("?");
  return (q === -1 ? raw : raw.slice(0, q)).slice(0, MAX_PATH_CHARS);
}

export function logEntry(r: UsageRecord): RequestLogEntry {
  const path = requestPath(r.path);
  return {
    tenantId: r.tenantId,
    ts: r.ts,
    method: r.method.slice(0, 16),
    path,
    status: r.status,
    bytes: byteCount(r.bytes),
    cache: r.cache,
    durationMs: Math.max(0, Math.round(r.durationMs)),
    kind: r.kind,
    originStatus: r.originStatus ?? null,
    experimentId: r.experiment?.experimentId ?? null,
    variantId: r.experiment?.variantId ?? null,
  };
}

/**
 * A record's byte count as a non-negative integer. Not `| 0`: that wraps above 2 GiB,
 * and a streamed video can be larger than that.
 */
export function byteCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}
