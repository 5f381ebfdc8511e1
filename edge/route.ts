/**
 * Step 2 of the request lifecycle (edge/mod.ts): which proxy serves a path. `/~api/...` is
 * the API proxy; `/~domain` the tenant's verified domain (edge/domain.ts); a provider asset path the asset proxy; anything else the site proxy on
 * preview hosts and custom domains of a tenant with a website origin and siteProxy on;
 * else 404.
 */
import type { EdgeContext, RequestContext } from "./context.ts";
import type { RecordedOutcome } from "./usage_record.ts";
import { handleApi } from "./api_proxy.ts";
import { type AssetRoute, assetRoute, handleAsset } from "./assets.ts";
import { handleSite } from "./site.ts";
import { edgeError } from "./http.ts";
import { DOMAIN_PATH, handleDomain } from "./domain.ts";

/** Paths of the API proxy start with it; what follows `/~api` is the upstream path. */
export const API_PREFIX = "/~api/";

/** A routed request; `kind` is also its usage kind (UsageRecord["kind"]). */
export type PathRoute =
  | { kind: "api" }
  | { kind: "asset"; asset: AssetRoute }
  | { kind: "site"; origin: string }
  | { kind: "other"; domain?: true };

const API: PathRoute = { kind: "api" };
const OTHER: PathRoute = { kind: "other" };
/** `/~domain`: answered by the edge itself, counted as `other`. */
const DOMAIN: PathRoute = { kind: "other", domain: true };

/** Routes by path; may throw BadPathError for an asset path it refuses (400). */
export function routeOf(ec: EdgeContext, rc: RequestContext): PathRoute {
  if (rc.path.startsWith(API_PREFIX)) return API;
  if (rc.path === DOMAIN_PATH) return DOMAIN;
  if (rc.path.startsWith(DOMAIN_PATH + "/")) return OTHER;
  const asset = assetRoute(ec, rc);
  if (asset) return { kind: "asset", asset };
  const { website } = rc.snap;
  if (rc.target.surface !== "tenant" && website.siteProxy && website.origin) {
    return { kind: "site", origin: website.origin };
  }
  return OTHER;
}

/** Answers a routed request through its proxy (`other`: 404). */
export function serveRoute(
  ec: EdgeContext,
  rc: RequestContext,
  route: PathRoute,
): Promise<RecordedOutcome> {
  switch (route.kind) {
    case "api":
      return handleApi(ec, rc, rc.path.slice(API_PREFIX.length - 1));
    case "asset":
      return handleAsset(ec, rc, route.asset);
    case "site":
      return handleSite(ec, rc, route.origin);
    case "other":
      return Promise.resolve(route.domain ? handleDomain(rc) : notFound());
  }
}

function notFound(): RecordedOutcome {
  return { res: edgeError(404, "not_found", "Not found"), cache: null, bytes: 0 };
}
