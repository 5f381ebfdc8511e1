/**
 * The site proxy: a tenant with a website origin (and siteProxy on) has its
 * pages served on `<slug>.preview.<PROXY_DOMAIN>` and on its active custom
 * domains, cached under htmlCacheVersion for the tenant's TTL, with provider
 * asset URLs rewritten to the host the visitor used.
 */
import type { EdgeContext, RequestContext } from "./context.ts";
import {
  addConditional,
  finishUpstream,
  methodNotAllowed,
  objectResponse,
  otherResponse,
  type Outcome,
} from "./respond.ts";
import { siteKey } from "./cache/keys.ts";
import { normaliseQuery } from "../lib/cache/query.ts";
import {
  freshInMemory,
  type Loaded,
  lookupKey,
  type ReadOptions,
  readThrough,
  type Served,
} from "./cache/through.ts";
import { PREVIEW_TOKEN_PARAM } from "../lib/preview/link_token.ts";
import { BadPathError, checkPath, joinUpstream, parseBase } from "../lib/net/url_join.ts";
import { fetchUpstream, RequestHeaders } from "./upstream.ts";
import { edgeError, oversizeHeaders } from "./http.ts";
import { offloadable, previewRequested, withCdnHeaders } from "./cdn.ts";
import type { CachedObject } from "./cache/store.ts";
import { cachingRules, forwardedEncoding, safeValue } from "./caching.ts";
import { requestNoCache } from "./cache/freshness.ts";
import { variantKey } from "./cache/vary.ts";
import { passedOnFields } from "./passed_on.ts";
import { compileLocaleLookup } from "../lib/base/locales.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";

const SITE_HEADERS: [string, string][] = [["x-cachely-edge", "1"]];
const UA = "Cachely-Edge/1";

/** Handles a site request for a tenant whose snapshot has a website origin. */
export async function handleSite(
  ec: EdgeContext,
  rc: RequestContext,
  origin: string,
): Promise<Outcome> {
  const head = rc.method === "HEAD";
  if (rc.method !== "GET" && !head) return methodNotAllowed(rc.method, "GET, HEAD");
  const snap = rc.snap;
  const { query, primary, rules, forwarded, opts, preview } = sitePlan(rc);
  const key = preview ? null : lookupKey(ec.through, primary, opts.variant);
  const hit = key !== null && !opts.revalidate ? freshInMemory(ec.through, key) : undefined;
  if (hit) {
    return objectResponse(
      hit,
      head,
      "HIT",
      ec.through.cache.templates,
      ec.deps.clock.now(),
      siteHeaders(rc, hit),
      rc.req,
    );
  }
  try {
    checkPath(rc.path); // after the hit path: an invalid path is never stored
  } catch (e) {
    if (!(e instanceof BadPathError)) throw e;
    return {
      res: edgeError(400, "invalid_path", `Invalid path: ${e.message}`),
      cache: null,
      bytes: 0,
    };
  }
  const tooBig = oversizeHeaders(rc.req);
  if (tooBig) return { res: tooBig, cache: null, bytes: 0 };
  const url = joinUpstream(origin, rc.path, query);
  const base = parseBase(origin);
  const load = async (prev?: CachedObject): Promise<Loaded> => {
    const passed = rules.origin ? passedOnFields(rc.req) : undefined;
    const headers = new RequestHeaders({ ...passed, ...forwarded, "user-agent": UA });
    addConditional(headers, prev);
    const r = await fetchUpstream(ec.deps, {
      url,
      headers: headers.pairs,
      maxBuffer: ec.deps.config.edgeCacheMaxObjectBytes,
    });
    return finishUpstream(r, {
      now: ec.deps.clock.now(),
      authorized: rc.req.headers.has("authorization"),
      ttlMs: snap.cacheTtl * 1000,
      rules,
      prev,
      rewrite: (t) => rc.rewrite(t),
      // the site's own absolute redirects stay on the host the visitor used
      location: (v) => {
        try {
          const loc = new URL(v, url);
          if (loc.origin === base.origin && loc.pathname.startsWith(base.basePath + "/")) {
            return `${loc.pathname.slice(base.basePath.length)}${loc.search}`;
          }
          return rc.rewrite(loc.href);
        } catch {
          return null;
        }
      },
    });
  };
  if (preview) return previewPage(await load(), head, ec.deps.clock.now());
  const served = await readThrough(ec.through, primary, load, opts);
  if (served.kind !== "object") return otherResponse(served, head, SITE_HEADERS);
  return servedPage(ec, served, head, rc);
}

/**
 * What the cache does with a page request before anything is served: its key, the headers it
 * forwards (and keys variants by), and whether it is a preview link's (never stored). Also
 * read by the "why isn't this URL cached?" explanation (edge/explain.ts).
 */
export function sitePlan(rc: RequestContext) {
  const snap = rc.snap;
  const query = normaliseQuery(rc.query, [snap.api.previewParam]);
  let primary = siteKey(snap.tenantId, snap.versions.html, rc.tenantOrigin, rc.path, query);
  const rules = cachingRules(snap, "site");
  // Origin mode: the visitor's negotiation headers go to the origin and key its variants.
  let forwarded = rules.origin ? siteForwarded(rc.req) : FIXED_FORWARDED;
  const lookup = localeLookup(snap);
  if (lookup !== null) {
    // The tenant's locales: Accept-Language becomes one of them, for the origin and the key.
    const locale = lookup(rc.req.headers.get("accept-language"));
    forwarded = { ...forwarded, "accept-language": locale };
    // Fixed mode keys it itself (origin mode keys it when the origin says it varies on it).
    if (!rules.origin) primary += `|l=${locale}`;
  }
  const opts: ReadOptions = rules.origin
    ? {
      revalidate: requestNoCache(rc.req),
      variant: (vary) => variantKey(primary, vary, forwarded, rc.req),
    }
    : {};
  // A page opened with a preview link may render drafts: fetched, never stored, private.
  const preview = rc.query.includes("preview") &&
    new URLSearchParams(rc.query).has(PREVIEW_TOKEN_PARAM);
  return { query, primary, rules, forwarded, opts, preview };
}

/** The answer for a page served as an object (HIT, MISS or STALE). */
function servedPage(
  ec: EdgeContext,
  served: Served & { kind: "object" },
  head: boolean,
  rc: RequestContext,
): Outcome {
  const now = ec.deps.clock.now();
  const obj = served.obj;
  // A stale copy (the upstream failed) or an object a CDN must not keep: Cachely only.
  const extra = served.cache !== "STALE" && offloadable(obj) ? siteHeaders(rc, obj) : SITE_HEADERS;
  return objectResponse(
    obj,
    head,
    served.cache,
    ec.through.cache.templates,
    now,
    extra,
    rc.req,
    served.fetched,
  );
}

/** A page fetched for a preview link: never stored, private. */
function previewPage(r: Loaded, head: boolean, now: number): Outcome {
  const out = r.kind === "object"
    ? objectResponse(r.obj, head, "BYPASS", null, now, SITE_HEADERS, undefined, r.fetched)
    : otherResponse(r, head, SITE_HEADERS);
  out.res.headers.set("cache-control", "private, no-store");
  return out;
}

const FIXED_FORWARDED: Readonly<Record<string, string>> = { accept: "text/html,*/*;q=0.8" };

/** The tenant's Accept-Language lookup, compiled once per snapshot; null without locales. */
const lookups = new WeakMap<EdgeSnapshot, ((header: string | null) => string) | null>();
function localeLookup(snap: EdgeSnapshot): ((header: string | null) => string) | null {
  let l = lookups.get(snap);
  if (l === undefined) {
    const locales = snap.caching?.locales;
    l = locales?.length ? compileLocaleLookup(locales) : null;
    lookups.set(snap, l);
  }
  return l;
}

/**
 * The negotiation headers an origin-mode site fetch carries (docs/decisions.md "HTTP
 * caching"): the visitor's Accept and Accept-Language (bounded), Accept-Encoding as the
 * upstream clients can decode it. Values with characters a header cannot carry are dropped.
 */
function siteForwarded(req: Request): Record<string, string> {
  const out: Record<string, string> = {
    accept: safeValue(req.headers.get("accept")) ?? FIXED_FORWARDED.accept,
  };
  const lang = safeValue(req.headers.get("accept-language"));
  if (lang !== null) out["accept-language"] = lang;
  const enc = forwardedEncoding(req.headers.get("accept-encoding"));
  if (enc !== "") out["accept-encoding"] = enc;
  return out;
}

/**
 * SITE_HEADERS plus the CDN headers (edge/cdn.ts) for an offloading tenant, unless the
 * page came with a cookie or the request is a preview-bypass one.
 */
function siteHeaders(
  rc: RequestContext,
  obj: CachedObject,
): readonly (readonly [string, string])[] {
  const snap = rc.snap;
  if (snap.cdnOffload !== true || obj.noCdn) return SITE_HEADERS;
  // Negotiated to the tenant's locales: a CDN keyed by URL would mix the languages.
  if (localeLookup(snap) !== null) return SITE_HEADERS;
  if (rc.query !== "" && previewRequested(rc.query, snap.api.previewParam)) return SITE_HEADERS;
  const ttl = cachingRules(snap, "site").origin ? null : snap.cacheTtl;
  return withCdnHeaders(snap, SITE_HEADERS, "site", "html", null, ttl);
}
