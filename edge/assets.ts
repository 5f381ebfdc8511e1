/**
 * The asset proxy (SPEC "What the service does" 1, "The image/video host
 * integration"). Clean tenant URLs, one rule set (sdk/providers.ts):
 * a path of the tenant's provider (e.g. Contentful `/<asset>/<token>/<file>`,
 * Prismic `/<repo>/<file>`, Shopify `/cdn/shop/...`, the image host's
 * `/(image|video)/upload/...`) is routed by file type to one of the origins
 * derived from the tenant's identifier; the query is kept (sorted) or dropped
 * per provider (docs/providers.md). Old `/~assets/<host>/<path>` URLs answer 301
 * to the clean form when the identifier maps them, else are served as before.
 *
 * Before any cache lookup, scrapers and AI crawlers are refused (403, no bytes).
 * A response whose type is outside the tenant's allow-list is 403 and never
 * cached; SVG gets a script-forbidding CSP; every answer carries nosniff.
 * Range requests are served from a cached whole object when one exists, a closed
 * range from cached 1 MiB slices of the object (edge/slices.ts), and anything else
 * is forwarded to the upstream.
 */
import type { EdgeContext, RequestContext } from "./context.ts";
import {
  addConditional,
  type Finishing,
  finishUpstream,
  methodNotAllowed,
  objectResponse,
  otherResponse,
  type Outcome,
} from "./respond.ts";
import { assetKey } from "./cache/keys.ts";
import { normaliseQuery } from "../lib/cache/query.ts";
import {
  freshInMemory,
  type Loaded,
  lookupKey,
  type ReadOptions,
  readThrough,
  type Served,
} from "./cache/through.ts";
import { cachingRules, forwardedEncoding, safeValue } from "./caching.ts";
import { requestNoCache } from "./cache/freshness.ts";
import { variantKey } from "./cache/vary.ts";
import { BadPathError, checkPath, joinUpstream } from "../lib/net/url_join.ts";
import { fetchUpstream, RequestHeaders, type UpstreamResult } from "./upstream.ts";
import { edgeError, oversizeHeaders } from "./http.ts";
import { ifRangeMatches, planRange, rangeResponseParts } from "./range.ts";
import type { CachedObject } from "./cache/store.ts";
import { partialObject } from "./cache/object.ts";
import {
  answerPart,
  asSlice,
  closedRange,
  knownOverBound,
  serveSlices,
  SLICE_BYTES,
  sliceRange,
  streamRange,
  streamSlices,
  templatedPart,
} from "./slices.ts";
import {
  compileProviderRoutes,
  definitionOf,
  type ProviderConfig,
  type ProviderRoutes,
  providerSources,
} from "../lib/providers/mod.ts";
import {
  compileTypeAllowList,
  extensionAllowed,
  SVG_CSP,
  type TypeAllowList,
} from "../lib/providers/content_types.ts";
import { isBlockedBot } from "../lib/providers/bots.ts";
import { compileStripQuery } from "../lib/providers/query_types.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { ASSET_PREFIX } from "../sdk/rewrite.ts";
import { offloadable, previewRequested, withCdnHeaders } from "./cdn.ts";

/** Short on purpose (validated per hit); `x-cachely-cache` is the edge marker. */
const ASSET_HEADERS: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["accept-ranges", "bytes"],
  ["x-content-type-options", "nosniff"],
];
const NOSNIFF = { "x-content-type-options": "nosniff" };
const EMPTY = new Uint8Array(0);
const UA = "Cachely-Edge/1";
/** Default asset TTL when a snapshot predates asset settings: one day. */
const DEFAULT_ASSET_TTL_S = 86_400;

/** Everything the asset path needs from a snapshot, compiled once per snapshot object. */
type AssetPlan = {
  routes: ProviderRoutes;
  /** Hosts still served under `/~assets/<host>/` (URLs issued before clean URLs). */
  legacyHosts: readonly string[];
  allowed: TypeAllowList;
  ttlMs: number;
  /**
   * Appended to the tenant origin in asset keys: a tenant that narrows its
   * allow-list never gets an object stored under the wider one.
   */
  keyOrigin: (tenantOrigin: string) => string;
  bots: { blockBots: boolean; allowImageSearchBots: boolean };
  referer: string | null;
  /** The tenant's stripQueryTypes: whether a path's kept query is dropped; null -> never. */
  stripsQuery: ((path: string) => boolean) | null;
  /**
   * ASSET_HEADERS plus the CDN headers when the tenant offloads (edge/cdn.ts), else
   * ASSET_HEADERS itself, so a tenant without offload pays one comparison per hit.
   */
  shared: readonly (readonly [string, string])[];
};

const plans = new WeakMap<EdgeSnapshot, AssetPlan>();

/** FNV-1a, base 36: a short stable tag of a tenant's allow-list. */
function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** The provider config of a snapshot (older snapshots have kind and cloud only). */
export function snapshotProvider(snap: EdgeSnapshot): ProviderConfig {
  return snap.provider ?? { cms: snap.cms, cloudName: snap.cloudName };
}

function planFor(ec: EdgeContext, snap: EdgeSnapshot): AssetPlan {
  let p = plans.get(snap);
  if (!p) {
    const a = snap.assets;
    const cfg = snapshotProvider(snap);
    const ttlS = a?.ttl ?? DEFAULT_ASSET_TTL_S;
    p = {
      routes: compileProviderRoutes(cfg, {
        imageHostOrigin: ec.providers.imageHostAssetOrigin,
      }),
      legacyHosts: legacyHostsOf(snap, cfg, ec),
      allowed: compileTypeAllowList(a?.allowedTypes),
      ttlMs: ttlS * 1000,
      keyOrigin: a?.allowedTypes
        ? ((tag) => (o: string) => o + tag)(`#t=${shortHash(a.allowedTypes.join(","))}`)
        : (o: string) => o,
      bots: {
        blockBots: a?.blockBots ?? true,
        allowImageSearchBots: a?.allowImageSearchBots ?? false,
      },
      referer: a?.referer ?? null,
      stripsQuery: compileStripQuery(a?.stripQueryTypes),
      shared: withCdnHeaders(
        snap,
        ASSET_HEADERS,
        "asset",
        "assets",
        null,
        cachingRules(snap, "assets").origin ? null : ttlS,
      ),
    };
    plans.set(snap, p);
  }
  return p;
}

/**
 * Hosts whose old `/~assets/<host>/` URLs are still fetched: the provider's
 * legacy list minus the hosts its identifier rules cover (those answer 301 for
 * the tenant's own URLs and 404 for anyone else's, e.g. another Contentful space).
 */
function legacyHostsOf(snap: EdgeSnapshot, cfg: ProviderConfig, ec: EdgeContext): string[] {
  const legacy = definitionOf(snap.cms).upstream.assetHosts;
  if (legacy.length === 0) return [];
  const covered = new Set(
    providerSources(cfg, { imageHostOrigin: ec.providers.imageHostAssetOrigin }).map((r) => r.host),
  );
  return legacy.filter((h) => !covered.has(h));
}

/**
 * An asset path of this tenant: its cache key, and where it goes upstream (or a
 * redirect for an old URL). The upstream URL is built (and the path validated)
 * only on a miss: an invalid path is never stored, so it cannot hit.
 */
export type AssetRoute =
  | { kind: "fetch"; key: string; base: string; rest: string; query: string; plan: AssetPlan }
  | { kind: "redirect"; location: string };

/** Normalised kept queries, memoised (hot routes repeat a few query strings). */
const queryMemo = new Map<string, string>();

function keptQuery(raw: string, previewParam: string): string {
  if (raw === "") return "";
  const memoKey = `${previewParam}\n${raw}`;
  let q = queryMemo.get(memoKey);
  if (q === undefined) {
    // the preview-bypass parameter is never forwarded
    q = normaliseQuery(raw, [previewParam]);
    if (memoKey.length <= 512) {
      if (queryMemo.size >= 4096) queryMemo.clear();
      queryMemo.set(memoKey, q);
    }
  }
  return q;
}

/** Maps a request path to its asset route, or null when it is not an asset path of this tenant. */
export function assetRoute(ec: EdgeContext, rc: RequestContext): AssetRoute | null {
  const { snap, path } = rc;
  const plan = planFor(ec, snap);
  if (path.startsWith(ASSET_PREFIX)) return legacyRoute(rc, plan);
  // Beside a website (preview host, custom domain with the site proxy), only paths
  // with the provider's recognisable shape are assets; the rest is the site's.
  const strict = rc.target.surface !== "tenant" && snap.website.siteProxy &&
    snap.website.origin !== null;
  const t = plan.routes.route(path, strict);
  if (!t) {
    if (!strict) checkPath(path); // `..`, encoded separators -> 400 rather than 404
    return null;
  }
  const query = t.query === "keep" && !plan.stripsQuery?.(t.path)
    ? keptQuery(rc.query, snap.api.previewParam)
    : "";
  return {
    kind: "fetch",
    key: assetKey(
      snap.tenantId,
      snap.versions.assets,
      plan.keyOrigin(rc.tenantOrigin),
      t.path,
      query,
    ),
    base: t.origin,
    rest: t.path,
    query,
    plan,
  };
}

/**
 * `/~assets/<host>/<path>`: 301 to the clean URL when the tenant's rules map it
 * (links in sites, e-mails and built pages keep working), else served from the
 * provider's legacy host list as before.
 */
function legacyRoute(rc: RequestContext, plan: AssetPlan): AssetRoute | null {
  const { path } = rc;
  const slash = path.indexOf("/", ASSET_PREFIX.length);
  if (slash === -1) throw new BadPathError("missing asset path");
  const host = path.slice(ASSET_PREFIX.length, slash).toLowerCase();
  const rest = checkPath(path.slice(slash));
  const source = `https://${host}${rest}${rc.query ? `?${rc.query}` : ""}`;
  const clean = rc.rewrite(source);
  if (
    clean !== source && clean.startsWith(rc.tenantOrigin + "/") && !clean.includes(ASSET_PREFIX)
  ) {
    return { kind: "redirect", location: clean };
  }
  if (!plan.legacyHosts.includes(host)) return null;
  const query = normaliseQuery(rc.query, [rc.snap.api.previewParam]);
  return {
    kind: "fetch",
    key: assetKey(
      rc.snap.tenantId,
      rc.snap.versions.assets,
      plan.keyOrigin(rc.tenantOrigin),
      path,
      query,
    ),
    base: `https://${host}`,
    rest,
    query,
    plan,
  };
}

/**
 * Handles an asset request already routed by assetRoute.
 * Long: the asset request's decision ladder in the order it must run (redirect, bots, fresh hit,
 * size and type refusals, ranges from a whole object or from slices, read-through, CDN headers);
 * each rung returns, and splitting it would pass the same six locals (head, range, now, forwarded,
 * opts, upstream) to every piece.
 */
export async function handleAsset(
  ec: EdgeContext,
  rc: RequestContext,
  route: AssetRoute,
): Promise<Outcome> {
  const head = rc.method === "HEAD";
  if (rc.method !== "GET" && !head) return methodNotAllowed(rc.method, "GET, HEAD");
  if (route.kind === "redirect") {
    return {
      res: new Response(null, {
        status: 301,
        headers: { location: route.location, "cache-control": "public, max-age=86400", ...NOSNIFF },
      }),
      cache: null,
      bytes: 0,
    };
  }
  // Bots first: no cache lookup, no upstream fetch, no bytes.
  if (isBlockedBot(rc.req.headers.get("user-agent") ?? "", route.plan.bots)) {
    return {
      res: edgeError(403, "bot_blocked", "Forbidden: automated clients are not served", NOSNIFF),
      cache: null,
      bytes: 0,
      blocked: true,
    };
  }
  const range = head ? null : rc.req.headers.get("range");
  const now = ec.deps.clock.now();
  const rules = cachingRules(rc.snap, "assets");
  // Origin mode: the visitor's Accept and Accept-Encoding go to the origin (image CDNs
  // negotiate AVIF/WebP) and key the variants it says it varies on.
  const forwarded = rules.origin ? assetForwarded(rc.req) : FIXED_FORWARDED;
  const opts: ReadOptions = rules.origin
    ? {
      revalidate: requestNoCache(rc.req),
      variant: (vary) => variantKey(route.key, vary, forwarded),
    }
    : {};
  if (range === null && !opts.revalidate) {
    const key = lookupKey(ec.through, route.key, opts.variant);
    const obj = key === null ? undefined : freshInMemory(ec.through, key);
    if (obj) {
      const extra = hitHeaders(rc, route.plan, obj);
      return objectResponse(obj, head, "HIT", ec.through.cache.templates, now, extra, rc.req);
    }
  }
  const tooBig = oversizeHeaders(rc.req);
  if (tooBig) return { res: tooBig, cache: null, bytes: 0 };
  // An extension outside the allow-list is refused without fetching (never stored, so
  // this check is needed on the miss path only).
  if (!extensionAllowed(route.plan.allowed, route.rest)) {
    return {
      res: edgeError(403, "type_not_allowed", "Forbidden: content type not allowed"),
      cache: null,
      bytes: 0,
    };
  }
  const upstream = joinUpstream(route.base, route.rest, route.query); // BadPathError -> 400
  if (range !== null && !/^\s*bytes\s*=\s*0-\s*$/i.test(range)) {
    // a real range: from a whole cached object when there is one, else forwarded
    const obj = ec.through.cache.peek(route.key) ??
      (ec.through.cache.hasSecondTier
        ? await ec.through.cache.lookupSecondTier(route.key)
        : undefined);
    if (obj && !opts.revalidate && ec.through.cache.isFresh(obj, now)) {
      return ranged(ec, obj, rc, range, "HIT", now);
    }
    const sliced = await fromSlices(ec, rc, route.plan, route.key, upstream, range, now);
    return sliced || await forwardRange(ec, rc, route.plan, upstream, range);
  }
  // bytes=0- of an object its cached first slice shows to be over the bound: from the
  // slices too, instead of streaming the whole from the origin for every viewer.
  if (
    range !== null &&
    knownOverBound(ec.through, route.key, ec.deps.config.edgeCacheMaxObjectBytes, now)
  ) {
    const sliced = await fromSlices(ec, rc, route.plan, route.key, upstream, range, now);
    if (sliced) return sliced;
  }
  const served = await readThrough(
    ec.through,
    route.key,
    (prev) => loadAsset(ec, rc, route.plan, upstream, forwarded, prev),
    opts,
  );
  if (served.kind !== "object") return refusedOr(otherResponse(served, head, ASSET_HEADERS));
  if (range !== null) {
    return ranged(ec, served.obj, rc, range, served.cache, ec.deps.clock.now(), served.fetched);
  }
  const obj = served.obj;
  // A stale copy (the upstream failed) or an object a CDN must not keep: Cachely only.
  const extra = served.cache !== "STALE" && offloadable(obj)
    ? hitHeaders(rc, route.plan, obj)
    : ASSET_HEADERS;
  return objectResponse(
    obj,
    head,
    served.cache,
    ec.through.cache.templates,
    ec.deps.clock.now(),
    extra,
    rc.req,
    served.fetched,
  );
}

/**
 * The headers of a whole-object answer: with the CDN headers when the tenant offloads,
 * unless the object came with a cookie or the request is a preview-bypass one. Range
 * requests never get them (see ranged()).
 */
function hitHeaders(
  rc: RequestContext,
  plan: AssetPlan,
  obj: CachedObject,
): readonly (readonly [string, string])[] {
  if (plan.shared === ASSET_HEADERS) return ASSET_HEADERS;
  if (obj.noCdn) return ASSET_HEADERS;
  if (rc.query !== "" && previewRequested(rc.query, rc.snap.api.previewParam)) return ASSET_HEADERS;
  return plan.shared;
}

/** Edge errors of the asset path carry nosniff too ("every asset answer"). */
function refusedOr(out: Outcome): Outcome {
  if (!out.res.headers.has("x-content-type-options")) {
    out.res.headers.set("x-content-type-options", "nosniff");
  }
  return out;
}

/**
 * A range request's answer, never offloaded: a CDN that stored a 206 under the URL could
 * answer a whole-object request with a part. CDNs fetch the whole object (a 200 with the
 * CDN headers) and serve ranges from it themselves (docs/decisions.md "CDN offload").
 */
function ranged(
  ec: EdgeContext,
  obj: CachedObject,
  rc: RequestContext,
  range: string,
  cache: "HIT" | "MISS" | "STALE",
  now: number,
  fetched?: string,
): Outcome {
  const templates = ec.through.cache.templates;
  if (obj.status !== 200 || !ifRangeMatches(rc.req.headers.get("if-range"), obj)) {
    return objectResponse(obj, false, cache, templates, now, ASSET_HEADERS, undefined, fetched);
  }
  const plan = planRange(range, obj.body.byteLength);
  if (plan.kind === "full") {
    return objectResponse(obj, false, cache, templates, now, ASSET_HEADERS, undefined, fetched);
  }
  const part = rangeResponseParts(obj, plan);
  const partial = partialObject(part.status, part.headers, part.body, obj.storedAt, obj.ttlMs);
  return objectResponse(partial, false, cache, templates, now, ASSET_HEADERS, undefined, fetched);
}

const FIXED_FORWARDED: Readonly<Record<string, string>> = { accept: "*/*" };

/** Origin mode: the visitor's Accept (else any) and Accept-Encoding as the clients decode it. */
export function assetForwarded(req: Request): Record<string, string> {
  const out: Record<string, string> = { accept: safeValue(req.headers.get("accept")) ?? "*/*" };
  const enc = forwardedEncoding(req.headers.get("accept-encoding"));
  if (enc !== "") out["accept-encoding"] = enc;
  return out;
}

/** The upstream request headers of an asset fetch: Referer from the website domain. */
function assetRequestHeaders(
  plan: AssetPlan,
  extra: Readonly<Record<string, string>>,
): RequestHeaders {
  const h = new RequestHeaders({ "user-agent": UA, ...extra });
  // Origins with referer rules (Prismic's, hotlink protection) need the site's Referer.
  if (plan.referer) h.set("referer", plan.referer);
  return h;
}

/** Range without a cached whole object: passed to the upstream as is, never cached. */
async function forwardRange(
  ec: EdgeContext,
  rc: RequestContext,
  plan: AssetPlan,
  upstream: URL,
  range: string,
): Promise<Outcome> {
  const headers = assetRequestHeaders(plan, { range: range.slice(0, 1000) });
  const ifRange = rc.req.headers.get("if-range");
  if (ifRange) headers.set("if-range", ifRange.slice(0, 200));
  const r = await fetchUpstream(ec.deps, { url: upstream, headers: headers.pairs, maxBuffer: 0 });
  return passedOn(ec, partLoaded(ec, plan, r, 0));
}

/**
 * A range of the object from its cached slices (edge/slices.ts): a closed one within the
 * object bound cut in memory, an open-ended or longer one streamed; null when the range
 * must be forwarded instead. With If-Range, the slices answer only when their validators
 * match it (RFC 9110 §13.1.5); otherwise the origin decides, as before.
 */
async function fromSlices(
  ec: EdgeContext,
  rc: RequestContext,
  plan: AssetPlan,
  key: string,
  upstream: URL,
  range: string,
  now: number,
): Promise<Outcome | null> {
  // A slice is stored, kept fresh and revalidated by the rules of a whole answer.
  const rules = cachingRules(rc.snap, "assets");
  const load = async (start: number, prev?: CachedObject) => {
    const headers = assetRequestHeaders(plan, { range: sliceRange(start) });
    addConditional(headers, prev);
    const r = await fetchUpstream(ec.deps, {
      url: upstream,
      headers: headers.pairs,
      maxBuffer: SLICE_BYTES,
    });
    return asSlice(partLoaded(ec, plan, r, plan.ttlMs, { rules, prev }), start);
  };
  const ifRange = rc.req.headers.get("if-range");
  const closed = closedRange(range, ec.deps.config.edgeCacheMaxObjectBytes);
  const streamed = closed ? null : streamRange(range);
  if (closed === null && streamed === null) return null;
  // origin mode: a request's no-cache revalidates the slices, as it does a whole answer
  const revalidate = rules.origin && requestNoCache(rc.req);
  const tmpl = closed && ifRange === null && !revalidate &&
    templatedPart(ec.through, key, closed, now);
  if (tmpl) return tmpl;
  const answer = closed
    ? await serveSlices(ec.through, key, closed, load, revalidate)
    : await streamSlices(ec.through, key, streamed!, load, revalidate);
  if (answer.kind === "forward") return null;
  if (answer.kind === "as-is") return passedOn(ec, answer.served);
  if (!ifRangeMatches(ifRange, answer.first)) {
    if (answer.kind === "stream") answer.stream.body?.cancel().catch(() => {});
    return null;
  }
  if (answer.kind === "stream") {
    const out = otherResponse(answer.stream, false, ASSET_HEADERS, answer.cache);
    if (answer.age > 0) out.res.headers.set("age", String(answer.age));
    return out;
  }
  return answerPart(ec.through, answer, ASSET_HEADERS, ec.deps.clock.now());
}

/**
 * An upstream answer to a Range: never rewritten (a part of a text cannot be). A 416 is
 * passed on as its status and Content-Range only (its body would be the origin's error page).
 */
function partLoaded(
  ec: EdgeContext,
  plan: AssetPlan,
  r: UpstreamResult,
  ttlMs: number,
  slice?: Pick<Finishing, "rules" | "prev">,
): Loaded {
  const now = ec.deps.clock.now();
  if (r.kind !== "error" && r.status === 416) {
    if (r.kind === "stream") r.body?.cancel().catch(() => {});
    const cr = r.headers.filter((h) => h[0] === "content-range");
    return { kind: "object", obj: partialObject(416, cr, EMPTY, now, 0), cacheable: false };
  }
  return gateType(
    plan,
    finishUpstream(r, {
      now,
      ttlMs,
      rewrite: (t) => t,
      location: () => null,
      ...(slice ? { ...slice, slice: true } : {}),
    }),
  );
}

/** An upstream answer the edge did not cut itself, passed on uncached. */
function passedOn(ec: EdgeContext, loaded: Loaded | Served): Outcome {
  if (loaded.kind === "object") {
    const now = ec.deps.clock.now();
    return objectResponse(
      loaded.obj,
      false,
      "BYPASS",
      null,
      now,
      ASSET_HEADERS,
      undefined,
      loaded.fetched,
    );
  }
  return refusedOr(otherResponse(loaded, false, ASSET_HEADERS));
}

async function loadAsset(
  ec: EdgeContext,
  rc: RequestContext,
  plan: AssetPlan,
  url: URL,
  forwarded: Readonly<Record<string, string>>,
  prev?: CachedObject,
): Promise<Loaded> {
  const headers = assetRequestHeaders(plan, forwarded);
  addConditional(headers, prev);
  const r: UpstreamResult = await fetchUpstream(ec.deps, {
    url,
    headers: headers.pairs,
    maxBuffer: ec.deps.config.edgeCacheMaxObjectBytes,
  });
  return gateType(
    plan,
    finishUpstream(r, {
      now: ec.deps.clock.now(),
      // The tenant's asset TTL (default one day): assets are named by version, and
      // assetCacheVersion in the key refreshes them on demand.
      ttlMs: plan.ttlMs,
      rules: cachingRules(rc.snap, "assets"),
      prev,
      rewrite: (t) => rc.rewrite(t),
      parsed: true,
      location: (v) => rc.rewrite(v),
    }),
  );
}

/**
 * The content-type allow-list: a success or error answer of a type outside it is
 * refused (403 for a success, the upstream status otherwise) and never cached;
 * redirects pass (they carry no body the visitor sees). SVG gets its CSP here,
 * once, before it is stored.
 */
function gateType(plan: AssetPlan, loaded: Loaded): Loaded {
  if (loaded.kind === "error") return loaded;
  const status = loaded.kind === "object" ? loaded.obj.status : loaded.status;
  const headers = loaded.kind === "object" ? loaded.obj.headers : loaded.headers;
  if ((status >= 300 && status < 400) || status === 304) return loaded;
  const ct = headers.find((h) => h[0] === "content-type")?.[1] ?? null;
  if (!plan.allowed(ct)) {
    if (loaded.kind === "stream") loaded.body?.cancel().catch(() => {});
    return status < 300
      ? {
        kind: "error",
        status: 403,
        code: "type_not_allowed",
        message: "Forbidden: content type not allowed",
      }
      : { kind: "error", status, code: "upstream_status", message: `Upstream answered ${status}` };
  }
  if (/^\s*image\/svg\+xml/i.test(ct!)) headers.push(["content-security-policy", SVG_CSP]);
  return loaded;
}
