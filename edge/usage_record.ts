/**
 * Step 4 of the request lifecycle (edge/mod.ts): one UsageRecord per answered request,
 * handed to EdgeDeps.usage without waiting, and the request's span attributes when tracing
 * is on. Usage must never break a response.
 */
import type { CacheOutcome, EdgeDeps, UsageRecord } from "./types.ts";
import type { Outcome } from "./respond.ts";
import type { OriginTally } from "./origin_tally.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import type { Assignment } from "./experiments.ts";

export type UsageKind = UsageRecord["kind"];

/** An outcome as usage sees it: API answers carry their experiment assignment. */
export type RecordedOutcome = Outcome & { experiment?: Assignment | null };

/**
 * Records one request. With a tally (the async path), the upstream requests it made are
 * counted, and one made in its context later (a refresh that outlives it) is reported
 * through recordBackground.
 */
export function recordRequest(
  deps: EdgeDeps,
  snap: EdgeSnapshot,
  req: Request,
  path: string,
  kind: UsageKind,
  out: RecordedOutcome,
  start: number,
  /** performance.now() at the start: edge time is monotonic, whatever the clock does. */
  t0: number,
  tally?: OriginTally,
): void {
  const a = out.experiment;
  const method = req.method;
  try {
    // One literal shape per request; the rare fields are added after, so a hit's record
    // is built without the object spreads (and their throwaway objects) it used to take.
    const r: UsageRecord = {
      tenantId: snap.tenantId,
      ts: start,
      method,
      path,
      status: out.res.status,
      bytes: out.bytes,
      cache: out.cache as CacheOutcome | null,
      kind,
      durationMs: performance.now() - t0,
      experiment: a && a.countExposure
        ? {
          experimentId: a.experimentId,
          variantId: a.variantId,
          variantKey: a.variantKey,
          visitor: a.visitor,
          network: a.network,
        }
        : null,
    };
    if (out.blocked) r.blocked = true;
    if (tally && tally.requests > 0) {
      r.originRequests = tally.requests;
      r.originBytes = tally.bytes;
      r.originMs = tally.ms;
      if (tally.status !== undefined) r.originStatus = tally.status;
    }
    deps.usage.record(r);
  } catch {
    // usage must never break a response
  }
  if (deps.tracing) {
    deps.tracing.annotate({
      tenant: snap.slug,
      cache: out.cache as CacheOutcome | null,
      kind,
      upstreamRequests: tally?.requests ?? 0,
      upstreamMs: tally?.ms ?? 0,
      upstreamStatus: tally?.status,
    });
  }
  if (tally) {
    tally.late = (bytes, ms) => recordBackground(deps, snap, method, path, kind, bytes, ms);
  }
}

/** The origin request of a refresh that outlived its request (stale-while-revalidate). */
function recordBackground(
  deps: EdgeDeps,
  snap: EdgeSnapshot,
  method: string,
  path: string,
  kind: UsageKind,
  bytes: number,
  ms: number,
): void {
  try {
    deps.usage.record({
      tenantId: snap.tenantId,
      ts: deps.clock.now(),
      method,
      path,
      status: 0,
      bytes: 0,
      cache: null,
      kind,
      durationMs: 0,
      background: true,
      originRequests: 1,
      originBytes: bytes,
      originMs: ms,
    });
  } catch {
    // usage must never break a refresh
  }
}
