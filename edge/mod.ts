/**
 * The public edge: everything served on tenant hosts. Reads KV snapshots only;
 * collaborators that touch Postgres arrive through EdgeDeps (edge/types.ts).
 *
 * Request lifecycle (docs/architecture.md "Edge"):
 * 1. resolve the tenant snapshot (memoised; synchronous when fresh);
 * 2. route by path: `/~api/…` API proxy, provider asset paths asset proxy,
 *    anything else the site proxy on preview hosts and custom domains;
 * 3. the proxy answers from the cache or through one coalesced upstream fetch;
 * 4. usage is recorded without waiting, once the response is determined.
 */
import type {
  CacheOutcome,
  Edge,
  EdgeDeps,
  EdgeTarget,
  RequestInfo,
  UsageRecord,
} from "./types.ts";
import { kvSnapshotSource, SnapshotCache } from "./snapshots.ts";
import { EdgeCache } from "./cache/store.ts";
import { PurgeIndex } from "./cache/purges.ts";
import { VaryIndex } from "./cache/vary.ts";
import { type EdgeContext, RequestContext } from "./context.ts";
import type { Outcome } from "./respond.ts";
import { edgeError, splitTarget } from "./http.ts";
import { apiHit, handleApi } from "./api_proxy.ts";
import { assetRoute, handleAsset } from "./assets.ts";
import { handleSite } from "./site.ts";
import { BadPathError } from "./url_join.ts";
import { isPaused, pausedResponse } from "./quota.ts";
import { type OriginTally, withOriginTally } from "./origin_tally.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import type { Assignment } from "./experiments.ts";

type ApiExperiment = Assignment | null;

export type { Edge, EdgeDeps, EdgeTarget } from "./types.ts";
export { edgeError } from "./http.ts";

/** Longest request target accepted (path plus query), in characters. */
export const MAX_URL_LENGTH = 8192;

export type EdgeOptions = {
  /**
   * Web Cache API cache name for the second cache tier; null keeps the cache in
   * memory only. Default: "cachely-edge", or null when KV is in memory (the
   * cache must not outlive the state its keys refer to).
   */
  webCacheName?: string | null;
  /**
   * The database's installation id (table `installation`), carried in the default cache
   * name: a fresh or restored database never reads another database's cached entries.
   */
  installationId?: string;
};

export function createEdge(
  deps: EdgeDeps,
  opts: EdgeOptions = {},
): Edge & { cache: EdgeCache; snapshots: SnapshotCache } {
  const snapshots = new SnapshotCache(
    kvSnapshotSource(deps.kv),
    deps.clock,
    deps.config.edgeSnapshotTtlMs,
    deps.config.edgeSnapshotMaxStaleMs,
  );
  const cache = new EdgeCache({
    maxBytes: deps.config.edgeCacheMaxBytes,
    clock: deps.clock,
    webCacheName: opts.webCacheName !== undefined
      ? opts.webCacheName
      : deps.config.kvPath === ":memory:"
      ? null
      : opts.installationId
      ? `cachely-edge-${opts.installationId}`
      : "cachely-edge",
    staleMs: deps.config.staleIfErrorSeconds * 1000,
    memoryLimitBytes: deps.config.edgeMemoryLimitMb === undefined
      ? undefined
      : deps.config.edgeMemoryLimitMb * 1024 * 1024,
  });
  const purges = new PurgeIndex();
  const ec: EdgeContext = {
    deps,
    through: {
      cache,
      clock: deps.clock,
      staleIfErrorMs: deps.config.staleIfErrorSeconds * 1000,
      vary: new VaryIndex(),
      purges,
    },
    providers: {
      imageHostAssetOrigin: deps.config.imageHostAssetOrigin,
      imageHostApiOrigin: deps.config.imageHostApiOrigin,
    },
  };
  const quotas = deps.config.quotas;
  const scheme = new URL(deps.config.publicUrl).protocol;
  const proxyDomain = deps.config.proxyDomain;
  // tenant and preview origins per slug, so a hit builds no origin string
  const origins = [new Map<string, string>(), new Map<string, string>()];
  const originOf = (slug: string, preview: boolean): string => {
    const m = origins[preview ? 1 : 0];
    let o = m.get(slug);
    if (o === undefined) {
      o = `${scheme}//${slug}.${preview ? "preview." : ""}${proxyDomain}`;
      if (m.size >= 10_000) m.clear();
      m.set(slug, o);
    }
    return o;
  };

  /**
   * A fresh in-memory API hit on a tenant or preview host is answered synchronously:
   * returning a Response instead of a promise spares Deno.serve a promise chain per
   * request (bench/ANALYSIS.md). Everything else goes through handleAsync.
   */
  function handle(
    req: Request,
    target: EdgeTarget,
    info: RequestInfo,
  ): Response | Promise<Response> {
    if (target.surface !== "domain") {
      const snap = snapshots.get(target.slug);
      if (snap !== null && !(snap instanceof Promise) && !quotaPending(snap)) {
        if (snap.purges !== undefined) purges.sync(snap.tenantId, snap.purges);
        const url = req.url;
        if (url.length <= MAX_URL_LENGTH) {
          const [path, query] = splitTarget(url);
          if (path.startsWith("/~api/")) {
            const start = deps.clock.now();
            const t0 = performance.now();
            try {
              const rc = new RequestContext(
                req,
                req.method,
                target,
                info,
                snap,
                originOf(target.slug, target.surface === "preview"),
                path,
                query,
                ec.providers,
              );
              const hit = apiHit(ec, rc, path.slice(5));
              if (hit) {
                record(snap, req, path, "api", hit, start, t0);
                return hit.res;
              }
            } catch {
              // handleAsync answers it again, with its error handling
            }
          }
        }
      }
    }
    return handleAsync(req, target, info);
  }

  /**
   * True when the quota check cannot pass synchronously (its snapshot is loading, or the
   * account is paused): handleAsync then answers, with the 429 where one is due.
   */
  function quotaPending(snap: EdgeSnapshot): boolean {
    const owner = snap.ownerId;
    if (!quotas || !owner) return false;
    const q = snapshots.quota(owner);
    return q instanceof Promise || isPaused(q, deps.clock.now());
  }

  async function handleAsync(
    req: Request,
    target: EdgeTarget,
    info: RequestInfo,
  ): Promise<Response> {
    const start = deps.clock.now();
    const t0 = performance.now();
    let snap: EdgeSnapshot | null = null;
    let kind: UsageRecord["kind"] = "other";
    let out: Outcome & { experiment?: ApiExperiment };
    let path = "/";
    const tally: OriginTally = { requests: 0, bytes: 0, ms: 0 };
    try {
      const found = target.surface === "domain" ? snapshots.domain(target.hostname) : target.slug;
      const slug = found instanceof Promise ? await found : found;
      const got = slug ? snapshots.get(slug) : null;
      snap = got instanceof Promise ? await got : got;
      if (!snap) return edgeError(404, "unknown_tenant", "Unknown tenant");
      if (snap.purges !== undefined) purges.sync(snap.tenantId, snap.purges);
      const owner = snap.ownerId;
      if (quotas && owner) {
        // One memoised lookup on a hit; a failed read serves the request (fail-open).
        let q = snapshots.quota(owner);
        if (q instanceof Promise) q = await q.catch(() => null);
        if (isPaused(q, start)) {
          return pausedResponse(q, start, req, req.url.includes("/~api/"));
        }
      }
      const url = req.url;
      if (url.length > MAX_URL_LENGTH) {
        const res = edgeError(413, "request_too_large", "Request too large: URL over 8 KiB");
        record(snap, req, "/", kind, { res, cache: null, bytes: 0 }, start, t0);
        return res;
      }
      const [p, query] = splitTarget(url);
      path = p;
      const tenantOrigin = target.surface === "domain"
        ? `${scheme}//${hostOf(req, target.hostname)}`
        : originOf(target.slug, target.surface === "preview");
      const rc = new RequestContext(
        req,
        req.method,
        target,
        info,
        snap,
        tenantOrigin,
        path,
        query,
        ec.providers,
      );
      if (path.startsWith("/~api/")) {
        kind = "api";
        out = await withOriginTally(tally, () => handleApi(ec, rc, path.slice(5)));
      } else {
        const route = assetRoute(ec, rc);
        if (route) {
          kind = "asset";
          out = await withOriginTally(tally, () => handleAsset(ec, rc, route));
        } else if (
          target.surface !== "tenant" && snap.website.siteProxy && snap.website.origin
        ) {
          kind = "site";
          const origin = snap.website.origin;
          out = await withOriginTally(tally, () => handleSite(ec, rc, origin));
        } else {
          out = { res: edgeError(404, "not_found", "Not found"), cache: null, bytes: 0 };
        }
      }
    } catch (e) {
      if (e instanceof BadPathError) {
        out = {
          res: edgeError(400, "invalid_path", `Invalid path: ${e.message}`),
          cache: null,
          bytes: 0,
        };
      } else {
        deps.log.error("edge request failed", {
          tenant: snap?.slug,
          error: e instanceof Error ? e.name : "unknown",
        });
        out = { res: edgeError(500, "internal", "Internal error"), cache: null, bytes: 0 };
      }
    }
    if (snap) record(snap, req, path, kind, out, start, t0, tally);
    return out.res;
  }

  function record(
    snap: EdgeSnapshot,
    req: Request,
    path: string,
    kind: UsageRecord["kind"],
    out: Outcome & { experiment?: ApiExperiment },
    start: number,
    /** performance.now() at the start: edge time is monotonic, whatever the clock does. */
    t0: number,
    tally?: OriginTally,
  ): void {
    const a = out.experiment;
    const method = req.method;
    try {
      deps.usage.record({
        tenantId: snap.tenantId,
        ts: start,
        method,
        path,
        status: out.res.status,
        bytes: out.bytes,
        cache: out.cache as CacheOutcome | null,
        kind,
        durationMs: performance.now() - t0,
        ...(out.blocked ? { blocked: true } : {}),
        ...(tally && tally.requests > 0
          ? { originRequests: tally.requests, originBytes: tally.bytes, originMs: tally.ms }
          : {}),
        experiment: a && a.countExposure
          ? { experimentId: a.experimentId, variantId: a.variantId, variantKey: a.variantKey }
          : null,
      });
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
    if (tally) tally.late = (bytes, ms) => recordBackground(snap, method, path, kind, bytes, ms);
  }

  /** The origin request of a refresh that outlived its request (stale-while-revalidate). */
  function recordBackground(
    snap: EdgeSnapshot,
    method: string,
    path: string,
    kind: UsageRecord["kind"],
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

  return {
    handle,
    resolveDomain: async (hostname) => await snapshots.domain(hostname),
    invalidate: (slug) => snapshots.invalidate(slug),
    invalidateQuota: (userId) => snapshots.invalidateQuota(userId),
    invalidateAll: () => snapshots.clear(),
    close: () => {
      cache.close();
      deps.upstream.close();
    },
    cache,
    snapshots,
  };
}

/**
 * The custom-domain host the visitor used, port included (local set-ups), when
 * it is a plain host name; otherwise the routed hostname.
 */
function hostOf(req: Request, routed: string): string {
  let h = req.headers.get("host");
  if (!h) {
    const url = req.url;
    const s = url.indexOf("://") + 3;
    const e = url.indexOf("/", s);
    h = url.slice(s, e === -1 ? url.length : e);
  }
  h = h.toLowerCase().replace(/\.$/, "");
  return /^[a-z0-9.-]+(:\d{1,5})?$/.test(h) && h.startsWith(routed) ? h : routed;
}
