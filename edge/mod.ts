/**
 * The public edge: everything served on tenant hosts. Reads KV snapshots only;
 * collaborators that touch Postgres arrive through EdgeDeps (edge/types.ts). createEdge
 * builds the edge's parts once; edge/requests.ts serves each request.
 *
 * Request lifecycle (docs/architecture.md "Edge"):
 * 1. resolve the tenant snapshot (memoised; synchronous when fresh) and its quota
 *    (edge/requests.ts, edge/snapshots.ts, edge/quota.ts);
 * 2. route by path (edge/route.ts): `/~api/...` API proxy, provider asset paths asset
 *    proxy, anything else the site proxy on preview hosts and custom domains;
 * 3. the proxy (edge/api_proxy.ts, edge/assets.ts, edge/site.ts) answers from the cache
 *    or through one coalesced upstream fetch;
 * 4. usage is recorded without waiting, once the response is determined
 *    (edge/usage_record.ts).
 */
import type { Edge, EdgeDeps } from "./types.ts";
import { kvSnapshotSource, SnapshotCache } from "./snapshots.ts";
import { EdgeCache, type EdgeCacheOptions } from "./cache/store.ts";
import { PurgeIndex } from "./cache/purges.ts";
import { VaryIndex } from "./cache/vary.ts";
import { FetchLog } from "./cache/fetch_log.ts";
import type { EdgeContext } from "./context.ts";
import { EdgeRequests } from "./requests.ts";
import { TenantOrigins } from "./tenant_origin.ts";
import { Prewarmer } from "./prewarm.ts";

export type { Edge, EdgeDeps } from "./types.ts";

export type EdgeOptions = {
  /**
   * Web Cache API cache name for the second cache tier; null keeps the cache in
   * memory only. Default: "cachely-edge", or null when KV is in memory (the
   * cache must not outlive the state its keys refer to).
   */
  webCacheName?: string | null;
  /**
   * The database's installation id (table `installation`), carried in the default cache
   * name: a fresh or restored database never reads another database's cached entries. A
   * promise when it is known only once the database answers (edge/boot.ts).
   */
  installationId?: string | Promise<string>;
};

export function createEdge(
  deps: EdgeDeps,
  opts: EdgeOptions = {},
): Edge & {
  cache: EdgeCache;
  snapshots: SnapshotCache;
  prewarm: Prewarmer;
  explain: EdgeRequests["explain"];
} {
  const snapshots = new SnapshotCache(
    kvSnapshotSource(deps.kv),
    deps.clock,
    deps.config.edgeSnapshotTtlMs,
    deps.config.edgeSnapshotMaxStaleMs,
  );
  const cache = new EdgeCache(cacheOptions(deps, opts));
  const purges = new PurgeIndex();
  const origins = new TenantOrigins(deps.config.publicUrl, deps.config.proxyDomain);
  const ec = edgeContext(deps, cache, purges);
  const requests = new EdgeRequests(ec, snapshots, purges, origins);
  // After a publish's entity purge, the answers it purged here are refetched (edge/prewarm.ts).
  const prewarm = new Prewarmer(ec, snapshots, purges);
  return {
    handle: (req, target, info) => requests.handle(req, target, info),
    resolveDomain: (hostname) => snapshots.domain(hostname),
    invalidate: (slug) => {
      snapshots.invalidate(slug);
      prewarm.changed(slug);
    },
    invalidateQuota: (userId) => snapshots.invalidateQuota(userId),
    invalidateAll: () => snapshots.clear(),
    explain: (target, url, method) => requests.explain(target, url, method),
    close: () => {
      cache.close();
      deps.upstream.close();
    },
    cache,
    snapshots,
    prewarm,
  };
}

function cacheOptions(deps: EdgeDeps, opts: EdgeOptions): EdgeCacheOptions {
  const { config } = deps;
  return {
    maxBytes: config.edgeCacheMaxBytes,
    clock: deps.clock,
    webCacheName: opts.webCacheName !== undefined
      ? opts.webCacheName
      : config.kvPath === ":memory:"
      ? null
      : typeof opts.installationId === "string"
      ? `cachely-edge-${opts.installationId}`
      : opts.installationId
      ? opts.installationId.then((id) => `cachely-edge-${id}`)
      : "cachely-edge",
    staleMs: config.staleIfErrorSeconds * 1000,
    memoryLimitBytes: config.edgeMemoryLimitMb === undefined
      ? undefined
      : config.edgeMemoryLimitMb * 1024 * 1024,
  };
}

/** What every proxy shares: the cache tiers and their indexes, the provider origins. */
function edgeContext(deps: EdgeDeps, cache: EdgeCache, purges: PurgeIndex): EdgeContext {
  return {
    deps,
    through: {
      cache,
      clock: deps.clock,
      staleIfErrorMs: deps.config.staleIfErrorSeconds * 1000,
      vary: new VaryIndex(),
      fetches: new FetchLog(),
      purges,
    },
    providers: {
      imageHostAssetOrigin: deps.config.imageHostAssetOrigin,
      imageHostApiOrigin: deps.config.imageHostApiOrigin,
    },
  };
}
