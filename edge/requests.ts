/**
 * One request on the edge, the lifecycle of edge/mod.ts: resolve the tenant's snapshot and
 * its quota (step 1), route by path (step 2, edge/route.ts), answer through the proxy
 * (step 3) and record usage (step 4, edge/usage_record.ts). A fresh in-memory API hit on a
 * tenant or preview host is answered synchronously (`handle`); everything else goes
 * through `answer`.
 */
import { withCacheStatus } from "./cache_status.ts";
import type { EdgeDeps, EdgeTarget, RequestInfo } from "./types.ts";
import type { SnapshotCache } from "./snapshots.ts";
import type { PurgeIndex } from "./cache/purges.ts";
import { type EdgeContext, RequestContext } from "./context.ts";
import type { TenantOrigins } from "./tenant_origin.ts";
import { edgeError, splitTarget } from "./http.ts";
import { apiHit } from "./api_proxy.ts";
import { API_PREFIX, routeOf, serveRoute } from "./route.ts";
import { type RecordedOutcome, recordRequest, type UsageKind } from "./usage_record.ts";
import { BadPathError } from "../lib/net/url_join.ts";
import { isPaused, pausedResponse } from "./quota.ts";
import { type OriginTally, withOriginTally } from "./origin_tally.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import type { QuotaSnapshot } from "../lib/kv/quota.ts";
import { isTransientKvError } from "../lib/kv/retry.ts";
import { RETRY_AFTER_SECONDS } from "../lib/errors.ts";
import { explain, type Explanation } from "./explain.ts";

/** Longest request target accepted (path plus query), in characters. */
export const MAX_URL_LENGTH = 8192;

export class EdgeRequests {
  private readonly deps: EdgeDeps;
  private readonly quotas: boolean;

  constructor(
    private readonly ec: EdgeContext,
    private readonly snapshots: SnapshotCache,
    private readonly purges: PurgeIndex,
    private readonly origins: TenantOrigins,
  ) {
    this.deps = ec.deps;
    this.quotas = ec.deps.config.quotas;
  }

  /**
   * A Response directly for a fresh in-memory API hit: returning one instead of a promise
   * spares Deno.serve a promise chain per request (bench/ANALYSIS.md).
   */
  handle(req: Request, target: EdgeTarget, info: RequestInfo): Response | Promise<Response> {
    if (target.surface !== "domain") {
      const snap = this.snapshots.get(target.slug);
      if (snap !== null && !(snap instanceof Promise) && !this.quotaPending(snap)) {
        const hit = this.apiHitNow(req, target, info, snap);
        if (hit !== null) return hit;
      }
    }
    return this.answer(req, target, info);
  }

  /** The synchronous API hit, or null: `answer` then serves it, with its error handling. */
  private apiHitNow(
    req: Request,
    target: EdgeTarget,
    info: RequestInfo,
    snap: EdgeSnapshot,
  ): Response | null {
    if (snap.purges !== undefined) this.purges.sync(snap.tenantId, snap.purges);
    const url = req.url;
    if (url.length > MAX_URL_LENGTH) return null;
    const [path, query] = splitTarget(url);
    if (!path.startsWith(API_PREFIX)) return null;
    const start = this.deps.clock.now();
    const t0 = performance.now();
    try {
      const rc = this.context(req, target, info, snap, path, query);
      const hit = apiHit(this.ec, rc, path.slice(API_PREFIX.length - 1));
      if (!hit) return null;
      recordRequest(this.deps, snap, req, path, "api", hit, start, t0);
      return hit.res;
    } catch {
      return null;
    }
  }

  /**
   * True when the quota check cannot pass synchronously (its snapshot is loading, or the
   * account is paused): `answer` then answers, with the 429 where one is due.
   */
  private quotaPending(snap: EdgeSnapshot): boolean {
    const q = this.quotaOf(snap);
    if (q === null) return false;
    return q instanceof Promise || isPaused(q, this.deps.clock.now());
  }

  /** Every request but a synchronous hit; answers the 404, 413, 429, 400 and 500 too. */
  async answer(req: Request, target: EdgeTarget, info: RequestInfo): Promise<Response> {
    const deps = this.deps;
    const start = deps.clock.now();
    const t0 = performance.now();
    let snap: EdgeSnapshot | null = null;
    let kind: UsageKind = "other";
    let out: RecordedOutcome;
    let path = "/";
    const tally: OriginTally = { requests: 0, bytes: 0, ms: 0 };
    try {
      const got = this.snapshotOf(target);
      snap = got instanceof Promise ? await got : got;
      if (!snap) return withCacheStatus(edgeError(404, "unknown_tenant", "Unknown tenant"), "GET");
      if (snap.purges !== undefined) this.purges.sync(snap.tenantId, snap.purges);
      // One memoised lookup on a hit; a failed read serves the request (fail-open).
      const quota = this.quotaOf(snap);
      const q = quota instanceof Promise ? await quota : quota;
      if (isPaused(q, start)) {
        return withCacheStatus(pausedResponse(q, start, req, req.url.includes("/~api/")), "GET");
      }
      const url = req.url;
      if (url.length > MAX_URL_LENGTH) {
        const res = edgeError(413, "request_too_large", "Request too large: URL over 8 KiB");
        const refused = { res, cache: null, bytes: 0 };
        recordRequest(deps, snap, req, "/", kind, refused, start, t0);
        return withCacheStatus(res, "GET");
      }
      const [p, query] = splitTarget(url);
      path = p;
      const rc = this.context(req, target, info, snap, path, query);
      const route = routeOf(this.ec, rc);
      kind = route.kind;
      out = await withOriginTally(tally, () => serveRoute(this.ec, rc, route));
    } catch (e) {
      out = failure(e, deps, snap);
    }
    if (snap) recordRequest(deps, snap, req, path, kind, out, start, t0, tally);
    // A cache outcome means the proxy set Cache-Status itself; reading a hit clone's headers
    // to check would build its Headers (~800 ns per asset hit, bench/hit_min_batch.ts).
    return out.cache === null ? withCacheStatus(out.res, req.method) : out.res;
  }

  /**
   * What this instance knows about `url` on `target` (edge/explain.ts), with the slug of the
   * tenant it belongs to; null for an unknown tenant or domain.
   */
  async explain(
    target: EdgeTarget,
    url: URL,
    method: string,
  ): Promise<{ slug: string; explanation: Explanation } | null> {
    const got = this.snapshotOf(target);
    const snap = got instanceof Promise ? await got : got;
    if (!snap) return null;
    if (snap.purges !== undefined) this.purges.sync(snap.tenantId, snap.purges);
    const origin = this.origins.of(new Request(url), target);
    const explanation = await explain(this.ec, snap, target, origin, url, method);
    return { slug: snap.slug, explanation };
  }

  /** Step 1: the tenant's snapshot (memoised; synchronous when fresh), null when unknown. */
  private snapshotOf(
    target: EdgeTarget,
  ): EdgeSnapshot | null | Promise<EdgeSnapshot | null> {
    const found = target.surface === "domain"
      ? this.snapshots.domain(target.hostname)
      : target.slug;
    if (found instanceof Promise) {
      return found.then((slug) => slug ? this.snapshots.get(slug) : null);
    }
    return found ? this.snapshots.get(found) : null;
  }

  /**
   * The account's quota snapshot when quotas are on (memoised; synchronous when fresh);
   * null when there is none or it cannot be read (fail-open).
   */
  private quotaOf(snap: EdgeSnapshot): QuotaSnapshot | null | Promise<QuotaSnapshot | null> {
    const owner = snap.ownerId;
    if (!this.quotas || !owner) return null;
    const q = this.snapshots.quota(owner);
    return q instanceof Promise ? q.catch(() => null) : q;
  }

  /** The one place a RequestContext is built. */
  private context(
    req: Request,
    target: EdgeTarget,
    info: RequestInfo,
    snap: EdgeSnapshot,
    path: string,
    query: string,
  ): RequestContext {
    return new RequestContext(
      req,
      req.method,
      target,
      info,
      snap,
      this.origins.of(req, target),
      path,
      query,
      this.ec.providers,
    );
  }
}

/**
 * A thrown request: an invalid path is the visitor's 400; KV still busy after its retries
 * (a file locked by another process, KV Connect unreachable) a 503 to retry; anything else a
 * logged 500.
 */
function failure(
  e: unknown,
  deps: EdgeDeps,
  snap: EdgeSnapshot | null,
): RecordedOutcome {
  if (e instanceof BadPathError) {
    return {
      res: edgeError(400, "invalid_path", `Invalid path: ${e.message}`),
      cache: null,
      bytes: 0,
    };
  }
  const busy = isTransientKvError(e);
  deps.log.error("edge request failed", {
    tenant: snap?.slug,
    error: e instanceof Error ? e.name : "unknown",
    ...(busy ? { kv: "busy" } : {}),
  });
  if (busy) {
    const res = edgeError(
      503,
      "unavailable",
      "Service temporarily unavailable, try again shortly",
      {
        "retry-after": String(RETRY_AFTER_SECONDS),
      },
    );
    return { res, cache: null, bytes: 0 };
  }
  return { res: edgeError(500, "internal", "Internal error"), cache: null, bytes: 0 };
}
