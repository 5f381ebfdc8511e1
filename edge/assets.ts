/**
 * The asset proxy (SPEC "What the service does" 1, "The image/video host
 * integration"). Two path schemes on the tenant host (docs/decisions.md):
 * - image-host tenants: `/(image|video)/upload/<rest>` and
 *   `/<cloud>/(image|video)/upload/<rest>` → `{asset_host}/<cloud>/(image|video)/upload/<rest>`;
 *   transformation segments are part of the path and so of the key; the query
 *   is dropped from the key and from the upstream request;
 * - other CMS kinds: `/~assets/<host>/<rest>?<query>` → `https://<host>/<rest>?<query>`
 *   for the provider's allow-listed asset hosts only.
 * Range requests are served from a cached whole object when one exists, and
 * forwarded to the upstream otherwise.
 */
import type { EdgeContext, RequestContext } from "./context.ts";
import {
  finishUpstream,
  methodNotAllowed,
  objectResponse,
  otherResponse,
  type Outcome,
} from "./respond.ts";
import { assetKey, normaliseQuery } from "./cache/keys.ts";
import { freshInMemory, readThrough } from "./cache/through.ts";
import { BadPathError, joinUpstream } from "./url_join.ts";
import { fetchUpstream } from "./upstream.ts";
import { oversizeHeaders } from "./http.ts";
import { ifRangeMatches, planRange, rangeResponseParts } from "./range.ts";
import { type CachedObject, cachedObject } from "./cache/store.ts";
import { PROVIDERS } from "../lib/providers/mod.ts";
import { ASSET_PREFIX } from "../sdk/rewrite.ts";

/** Short on purpose (validated per hit); `x-cachely-cache` is the edge marker. */
const ASSET_HEADERS: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["accept-ranges", "bytes"],
];
const UA = "Cachely-Edge/1";
const MAX_ASSET_TTL_MS = 7 * 86_400_000;

/**
 * An asset path of this tenant: its cache key, and where it goes upstream. The
 * upstream URL is built (and the path validated) only on a miss: an invalid
 * path is never stored, so it cannot hit.
 */
export type AssetRoute = { key: string; base: string; rest: string; query: string };

/** Maps a request path to its asset route, or null when it is not an asset path of this tenant. */
export function assetRoute(ec: EdgeContext, rc: RequestContext): AssetRoute | null {
  const { snap, path } = rc;
  if (snap.cms === "cloudinary") {
    const cloud = snap.cloudName;
    if (!cloud) return null;
    let rest = path;
    const prefix = `/${cloud}/`;
    if (rest.startsWith(prefix)) rest = rest.slice(prefix.length - 1);
    if (!rest.startsWith("/image/upload/") && !rest.startsWith("/video/upload/")) return null;
    // SPEC: query parameters on image URLs are stripped from the cache key; they are not
    // forwarded either, so one key always means one upstream representation.
    return {
      key: assetKey(snap.tenantId, snap.versions.assets, rc.tenantOrigin, rest, ""),
      base: `${ec.providers.imageHostAssetOrigin}/${cloud}`,
      rest,
      query: "",
    };
  }
  if (!path.startsWith(ASSET_PREFIX)) return null;
  const slash = path.indexOf("/", ASSET_PREFIX.length);
  if (slash === -1) throw new BadPathError("missing asset path");
  const host = path.slice(ASSET_PREFIX.length, slash).toLowerCase();
  if (!PROVIDERS[snap.cms].assetHosts.includes(host)) return null;
  const query = normaliseQuery(rc.query, []);
  return {
    key: assetKey(snap.tenantId, snap.versions.assets, rc.tenantOrigin, path, query),
    base: `https://${host}`,
    rest: path.slice(slash),
    query,
  };
}

/** Handles an asset request already routed by assetRoute. */
export async function handleAsset(
  ec: EdgeContext,
  rc: RequestContext,
  route: AssetRoute,
): Promise<Outcome> {
  const head = rc.method === "HEAD";
  if (rc.method !== "GET" && !head) return methodNotAllowed(rc.method, "GET, HEAD");
  const range = head ? null : rc.req.headers.get("range");
  const now = ec.deps.clock.now();
  if (range === null) {
    const obj = freshInMemory(ec.through, route.key);
    if (obj) return objectResponse(obj, head, "HIT", now, ASSET_HEADERS, rc.req);
  }
  const tooBig = oversizeHeaders(rc.req);
  if (tooBig) return { res: tooBig, cache: null, bytes: 0 };
  const upstream = joinUpstream(route.base, route.rest, route.query); // BadPathError → 400
  if (range !== null && !/^\s*bytes\s*=\s*0-\s*$/i.test(range)) {
    // a real range: from a whole cached object when there is one, else forwarded
    const obj = ec.through.cache.peek(route.key) ??
      (ec.through.cache.hasSecondTier
        ? await ec.through.cache.lookupSecondTier(route.key)
        : undefined);
    if (obj && ec.through.cache.isFresh(obj, now)) return ranged(obj, rc, range, "HIT", now);
    return await forwardRange(ec, rc, upstream, range);
  }
  const served = await readThrough(ec.through, route.key, () => loadAsset(ec, rc, upstream));
  if (served.kind !== "object") return otherResponse(served, head, ASSET_HEADERS);
  if (range !== null) return ranged(served.obj, rc, range, served.cache, ec.deps.clock.now());
  return objectResponse(
    served.obj,
    head,
    served.cache,
    ec.deps.clock.now(),
    ASSET_HEADERS,
    rc.req,
  );
}

function ranged(
  obj: CachedObject,
  rc: RequestContext,
  range: string,
  cache: "HIT" | "MISS" | "STALE",
  now: number,
): Outcome {
  if (obj.status !== 200 || !ifRangeMatches(rc.req.headers.get("if-range"), obj)) {
    return objectResponse(obj, false, cache, now, ASSET_HEADERS);
  }
  const plan = planRange(range, obj.body.byteLength);
  if (plan.kind === "full") return objectResponse(obj, false, cache, now, ASSET_HEADERS);
  const part = rangeResponseParts(obj, plan);
  const partial = cachedObject(part.status, part.headers, part.body, obj.storedAt, obj.ttlMs);
  return objectResponse(partial, false, cache, now, ASSET_HEADERS);
}

/** Range without a cached whole object: passed to the upstream as is, never cached. */
async function forwardRange(
  ec: EdgeContext,
  rc: RequestContext,
  upstream: URL,
  range: string,
): Promise<Outcome> {
  const headers = new Headers({ "user-agent": UA, range: range.slice(0, 1000) });
  const ifRange = rc.req.headers.get("if-range");
  if (ifRange) headers.set("if-range", ifRange.slice(0, 200));
  const r = await fetchUpstream(ec.deps, { url: upstream, headers, maxBuffer: 0 });
  const loaded = finishUpstream(r, {
    now: ec.deps.clock.now(),
    ttlMs: 0,
    rewrite: (t) => t,
    location: () => null,
  });
  if (loaded.kind === "object") {
    return objectResponse(loaded.obj, false, "BYPASS", ec.deps.clock.now(), ASSET_HEADERS);
  }
  return otherResponse(loaded, false, ASSET_HEADERS);
}

async function loadAsset(ec: EdgeContext, rc: RequestContext, url: URL) {
  const r = await fetchUpstream(ec.deps, {
    url,
    headers: new Headers({ accept: "*/*", "user-agent": UA }),
    maxBuffer: ec.deps.config.edgeCacheMaxObjectBytes,
  });
  const ttlMs = r.kind === "error" ? 0 : assetTtlMs(r.headers, rc.snap.cacheTtl);
  return finishUpstream(r, {
    now: ec.deps.clock.now(),
    ttlMs,
    rewrite: (t) => rc.rewrite(t),
    location: (v) => rc.rewrite(v),
  });
}

/**
 * Assets are named by version (and by assetCacheVersion in the key), so the
 * upstream's own max-age may keep them longer than the API TTL: the larger of
 * the two, capped at 7 days.
 */
export function assetTtlMs(headers: [string, string][], tenantTtlSeconds: number): number {
  let upstream = 0;
  for (const [k, v] of headers) {
    if (k !== "cache-control") continue;
    const m = /(?:s-maxage|max-age)\s*=\s*(\d+)/i.exec(v);
    if (m) upstream = Number(m[1]) * 1000;
  }
  return Math.min(Math.max(tenantTtlSeconds * 1000, upstream), MAX_ASSET_TTL_MS);
}
