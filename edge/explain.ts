/**
 * "Why isn't this URL cached?" (docs/decisions.md "HTTP caching: Cache-Status"): what this
 * edge instance knows about a URL on a tenant's host, without fetching it. The request is
 * routed and keyed as a visitor's GET would be (edge/route.ts and the proxies' own plans), then
 * read from what the edge holds: the cached object's metadata (both tiers), the last origin
 * answer for the key (edge/cache/fetch_log.ts), the variants the key is known to vary on and
 * the purge records of the tenant's snapshot. Never touches the origin or PostgreSQL, and
 * nothing of it runs on the request path.
 */
import type { EdgeContext } from "./context.ts";
import { RequestContext } from "./context.ts";
import type { Blocker, EdgeTarget, Explanation } from "./types.ts";

export type { Explanation };
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { API_PREFIX, type PathRoute, routeOf } from "./route.ts";
import { apiCachePlan } from "./api_proxy.ts";
import { sitePlan } from "./site.ts";
import { assetForwarded } from "./assets.ts";
import { variantKey } from "./cache/vary.ts";
import { cachingRules } from "./caching.ts";
import { lookupKey } from "./cache/through.ts";
import { lastPurgeMatching } from "./cache/purges.ts";
import { BadPathError, checkPath } from "../lib/net/url_join.ts";
import { extensionAllowed } from "../lib/providers/content_types.ts";
import type { CachedObject } from "./cache/store.ts";

const CACHED_METHODS = new Set(["GET", "HEAD"]);

/** The explanation for `url` (on `target`) with `snap`; `method` as the visitor would send it. */
export async function explain(
  ec: EdgeContext,
  snap: EdgeSnapshot,
  target: EdgeTarget,
  tenantOrigin: string,
  url: URL,
  method: string,
): Promise<Explanation> {
  const req = new Request(url, { method: "GET" });
  const rc = new RequestContext(
    req,
    "GET",
    target,
    { clientIp: "0.0.0.0" },
    snap,
    tenantOrigin,
    url.pathname,
    url.search.slice(1),
    ec.providers,
  );
  const blockers: Blocker[] = [];
  if (!CACHED_METHODS.has(method)) {
    blockers.push({
      code: "method",
      message: `${method} is never cached: only GET and HEAD are (other methods are ${
        target.surface === "domain" || target.surface === "preview" ? "passed on or " : ""
      }refused)`,
    });
  }
  let route: PathRoute;
  try {
    route = routeOf(ec, rc);
    if (route.kind !== "asset") checkPath(rc.path);
  } catch (e) {
    if (!(e instanceof BadPathError)) throw e;
    blockers.push({ code: "path", message: `Invalid path (answered 400): ${e.message}` });
    return empty("other", snap, blockers);
  }
  const primary = planKey(rc, route, blockers);
  const mode = cachingRules(snap, route.kind === "asset" ? "assets" : "site");
  const cacheMode = route.kind !== "api" && mode.origin ? "origin" : "fixed";
  if (primary === null) return { ...empty(route.kind, snap, blockers), cacheMode };
  const through = ec.through;
  const vary = through.vary?.get(primary) ?? null;
  // A key that varies: the variant of a request without negotiation headers
  const key = vary === null || vary === "" || route.kind === "api" || route.kind === "other"
    ? primary
    : route.kind === "site"
    ? lookupKey(through, primary, sitePlan(rc).opts.variant) ?? primary
    : variantKey(primary, vary, assetForwarded(rc.req)) ?? primary;
  let obj: CachedObject | undefined = through.cache.peek(key);
  if (obj === undefined && through.cache.hasSecondTier) {
    obj = await through.cache.lookupSecondTier(key);
  }
  const now = ec.deps.clock.now();
  const note = through.fetches?.get(primary);
  return {
    kind: route.kind,
    cacheMode,
    eligible: blockers.length === 0,
    blockers,
    key: primary,
    varyOn: vary === "" ? null : vary,
    stored: obj === undefined ? null : {
      storedAt: obj.storedAt,
      ttlMs: obj.ttlMs,
      status: obj.status,
      fresh: through.cache.isFresh(obj, now),
      purged: through.purges?.purged(primary, obj) ?? false, // a variant key parses as its path
    },
    lastFetch: note === undefined ? null : { at: note.at, cacheStatus: note.status },
    lastPurge: lastPurgeMatching(snap.purges ?? [], primary, snap.tenantId, obj),
  };
}

function empty(kind: PathRoute["kind"], snap: EdgeSnapshot, blockers: Blocker[]): Explanation {
  return {
    kind,
    cacheMode: snap.caching?.cacheMode === "origin" && kind !== "api" ? "origin" : "fixed",
    eligible: false,
    blockers,
    key: null,
    varyOn: null,
    stored: null,
    lastFetch: null,
    lastPurge: null,
  };
}

/** The primary key of a routed GET, adding what keeps it out of the cache to `blockers`. */
function planKey(rc: RequestContext, route: PathRoute, blockers: Blocker[]): string | null {
  switch (route.kind) {
    case "api": {
      const p = apiCachePlan(rc, rc.path.slice(API_PREFIX.length - 1));
      if (p.refused !== null) {
        blockers.push({ code: "draft", message: `Refused (400): ${p.refused}` });
        return null;
      }
      if (p.link) {
        blockers.push({ code: "preview-link", message: "A preview link: fetched, never stored" });
      } else if (p.preview) {
        const param = rc.snap.api.previewParam;
        blockers.push({
          code: "bypass-param",
          message: `The preview parameter ${param} skips the cache (drafts)`,
        });
      }
      if (p.experiment) {
        blockers.push({
          code: "experiment",
          message: "An active experiment matches this route: each variant has its own entry",
        });
      }
      return p.key;
    }
    case "asset": {
      const a = route.asset;
      if (a.kind === "redirect") {
        blockers.push({ code: "redirect", message: `Redirected (301) to ${a.location}` });
        return null;
      }
      if (!extensionAllowed(a.plan.allowed, a.rest)) {
        blockers.push({
          code: "type",
          message: "The file type is outside the tenant's allowed types (403)",
        });
      }
      return a.key;
    }
    case "site": {
      const p = sitePlan(rc);
      if (p.preview) {
        blockers.push({ code: "preview-link", message: "A preview link: fetched, never stored" });
      }
      return p.primary;
    }
    case "other":
      blockers.push({
        code: "not-served",
        message: rc.target.surface === "tenant" && rc.snap.website.siteProxy
          ? "Not an API or asset path: website pages are served on the preview host and custom domains"
          : "Not an API, asset or website path of this tenant (404)",
      });
      return null;
  }
}
