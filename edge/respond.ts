/**
 * Turning cache results into responses, and the loader step every proxy shares:
 * an upstream result becomes a cacheable object with provider URLs rewritten.
 */
import type { CacheOutcome } from "./types.ts";
import { type Bytes, type CachedObject, cachedObject } from "./cache/store.ts";
import type { Loaded, Served } from "./cache/through.ts";
import type { RequestHeaders, UpstreamResult } from "./upstream.ts";
import { edgeError, isRewritable, responseWith } from "./http.ts";
import type { HitTemplate, HitTemplates } from "./cache/hit_templates.ts";
import { originFreshness, upstreamAgeMs } from "./cache/freshness.ts";
import { type CachingRules, FIXED_RULES } from "./caching.ts";
import { isMarkedChecked, markChecked } from "../lib/http/header_value.ts";
import { withOriginTags } from "./cdn.ts";
import { fetchParams, objectStatus, passStatus } from "./cache_status.ts";
import { codedFor } from "./cache/variants.ts";

/**
 * `X-Cache` as the original product sent it: HIT, MISS or BYPASS only (monitoring built on it
 * expects no other value), so a stale-served copy is a HIT there; `x-cachely-cache` keeps
 * the detail (STALE).
 */
function xCache(cache: CacheOutcome): "HIT" | "MISS" | "BYPASS" {
  return cache === "STALE" ? "HIT" : cache;
}

/** What a handler hands back to edge/requests.ts for usage accounting. */
export type Outcome = {
  res: Response;
  cache: CacheOutcome | null;
  bytes: number;
  /** Refused as a bot (counted as blocked, not as bandwidth). */
  blocked?: boolean;
};

/** 405 with `Allow` (RFC 9110 §15.5.6), in the API error shape, uncached. */
export function methodNotAllowed(method: string, allow: string): Outcome {
  return {
    res: edgeError(405, "method_not_allowed", `Method not allowed: ${method}`, { allow }),
    cache: null,
    bytes: 0,
  };
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * The object's headers with `extra` applied (an extra replaces a stored header of the
 * same name, except that an offloaded answer's Cache-Tag keeps the origin's tags in the
 * tenant's namespace: edge/cdn.ts). Not memoised on the object: hits reuse the object's
 * template (`sent`), and a memo per stored entry cost memory on every miss (bench/ANALYSIS.md).
 */
function replayHeaders(
  obj: CachedObject,
  extra: readonly (readonly [string, string])[],
): [string, string][] {
  const headers: [string, string][] = [];
  let originTags: string | null = null;
  outer: for (const h of obj.headers) {
    for (const e of extra) {
      if (e[0] === h[0]) {
        if (h[0] === "cache-tag") originTags = h[1];
        continue outer;
      }
    }
    headers.push(h);
  }
  for (const [k, v] of extra) {
    headers.push([k, k === "cache-tag" && originTags !== null ? withOriginTags(v, originTags) : v]);
  }
  return headers;
}

/**
 * Builds the visitor response for a cached object (HEAD gets the headers only).
 * Hot path of every hit: a GET hit answers a clone of a template Response kept for the
 * object per extra header list (edge/cache/hit_templates.ts), with Age set on the clone;
 * a clone skips the header validation, body copy and native pre-build of the Response
 * constructor (bench/ANALYSIS.md "Hit templates, start-up imports, what the noise hides"). Content-Length is left to the server, which
 * knows the body's length. Age is sent only when it is above 0 (an absent Age means 0,
 * RFC 9111 §4.2.3).
 */
/** Whole seconds since the object was stored (the Age header). */
export function ageSeconds(obj: { storedAt: number }, now: number): number {
  return Math.max(0, Math.floor((now - obj.storedAt) / 1000));
}

/**
 * A clone of a template's Response, with Age when above 0 (templates are built with none):
 * cloned from the template's aged clone, made once per template and second of age; marked
 * checked when the template was (edge/cache/hit_templates.ts).
 */
export function cloneAged(t: HitTemplate, age: number): Response {
  let from = t.res;
  if (age > 0) {
    if (t.agedFor !== age || t.aged === undefined) {
      const aged = t.res.clone();
      aged.headers.set("age", String(age));
      t.aged = aged;
      t.agedFor = age;
    }
    from = t.aged;
  }
  const res = from.clone();
  if (isMarkedChecked(t.res)) markChecked(res);
  return res;
}

export function objectResponse(
  stored: CachedObject,
  head: boolean,
  cache: CacheOutcome,
  /** The edge cache's hit templates (EdgeCache.templates); null where nothing is a hit. */
  templates: HitTemplates | null,
  now: number,
  extra: readonly (readonly [string, string])[],
  req?: Request,
  /** The Cache-Status of the fetch that made the object (a MISS's; edge/cache_status.ts). */
  fetched: string | null = null,
): Outcome {
  // The representation the request accepts (edge/cache/variants.ts); without a request (a
  // range's whole-object fallback) the identity body. A hit queues the copies not made yet.
  const obj = req === undefined ? stored : codedFor(stored, req, cache !== "MISS");
  // RFC 9110 §13.1: a matching If-None-Match, or failing that an If-Modified-Since no
  // older than Last-Modified, on GET/HEAD is 304 without a body. Request headers are read
  // only when the object has a validator to compare (not on every hit).
  if (
    req && obj.status === 200 && (obj.etag !== null || obj.lastModified !== null) &&
    notModified(req, obj.etag, obj.lastModified)
  ) {
    const headers = replayHeaders(obj, extra);
    headers.push(["x-cachely-cache", cache], ["x-cache", xCache(cache)]);
    headers.push(["cache-status", objectStatus(cache, fetched, remainingMs(obj, now))]);
    return { res: responseWith(null, 304, headers), cache, bytes: 0 };
  }
  // Upstream Age plus the time held here (storedAt is set back by the upstream Age).
  const age = ageSeconds(obj, now);
  if (head) {
    const headers = responseHeaders(obj, extra, cache, age, now, fetched);
    headers.push(["content-length", String(obj.body.byteLength)]);
    return { res: responseWith(null, obj.status, headers), cache, bytes: 0 };
  }
  if (cache === "HIT" && templates !== null && obj.kept && hitBefore(obj)) {
    let t = obj.sent;
    if (t === undefined) {
      t = templates.admit(
        obj,
        extra,
        () =>
          new Response(obj.body, {
            status: obj.status,
            headers: responseHeaders(obj, extra, cache, 0, now, null),
          }),
        obj.body.byteLength,
      );
    } else t.used = true; // hit again: a second chance when templates are evicted
    // A request with other extra headers (a CORS request on an object templated for plain
    // ones) is answered through the constructor: rebuilding on every switch would cost more
    // than the template saves. The object's next version starts afresh.
    if (t.extra === extra) {
      return { res: cloneAged(t, age), cache, bytes: obj.body.byteLength };
    }
  }
  // A miss is answered once (responseWith, not a template): no template costs memory for an
  // object that may never be hit again (or, like a range's part, is not cached).
  const body = NULL_BODY.has(obj.status) ? null : obj.body;
  return {
    res: responseWith(body, obj.status, responseHeaders(obj, extra, cache, age, now, fetched)),
    cache,
    bytes: body?.byteLength ?? 0,
  };
}

/** Statuses a Response must not have a body with (RFC 9110 §15.3.5, §15.3.6, §15.4.5). */
export const NULL_BODY: ReadonlySet<number> = new Set([204, 205, 304]);

/**
 * True from an object's second hit on: only then does it get a template, so a crawl over
 * the long tail cannot push the hot objects' templates out (TinyLFU's doorkeeper rule).
 */
function hitBefore(obj: CachedObject): boolean {
  if (obj.hitBefore) return true;
  obj.hitBefore = true;
  return false;
}

/**
 * The full header list of a response for `obj`: stored, extra, cache outcome (a hit's
 * Cache-Status is a constant, so a hit template carries it prebuilt), Age.
 */
function responseHeaders(
  obj: CachedObject,
  extra: readonly (readonly [string, string])[],
  cache: CacheOutcome,
  age: number,
  now: number,
  fetched: string | null,
): [string, string][] {
  const headers = replayHeaders(obj, extra);
  // x-cache: the name customers' tooling already reads
  headers.push(["x-cachely-cache", cache], ["x-cache", xCache(cache)]);
  headers.push(["cache-status", objectStatus(cache, fetched, remainingMs(obj, now))]);
  if (age > 0) headers.push(["age", String(age)]);
  return headers;
}

/** Freshness left to `obj` at `now` in ms (negative once expired). */
function remainingMs(obj: CachedObject, now: number): number {
  return obj.storedAt + obj.ttlMs - now;
}

/** RFC 9110 §13.2.2 order: If-None-Match decides when present; else If-Modified-Since. */
function notModified(req: Request, etag: string | null, lastModified: string | null): boolean {
  const inm = req.headers.get("if-none-match");
  if (inm !== null) return etag !== null && etagMatches(inm, etag);
  if (lastModified === null) return false;
  const ims = req.headers.get("if-modified-since");
  if (ims === null) return false;
  const since = Date.parse(ims);
  const modified = Date.parse(lastModified);
  // An unparseable date on either side is ignored (§13.1.3), so the full response is sent.
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

/** Weak comparison (RFC 9110 §8.8.3.2) of an If-None-Match list against the object's ETag. */
function etagMatches(inm: string, etag: string): boolean {
  if (inm.trim() === "*") return true;
  const bare = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const part of inm.split(",")) {
    const t = part.trim();
    if ((t.startsWith("W/") ? t.slice(2) : t) === bare) return true;
  }
  return false;
}

/** Response for a served result that is not an object (stream or failure). */
export function otherResponse(
  served: Exclude<Served, { kind: "object" }>,
  head: boolean,
  extra: readonly (readonly [string, string])[],
  /** BYPASS for an upstream body passed through; a stream cut from cached slices says its own. */
  cache: CacheOutcome = "BYPASS",
): Outcome {
  if (served.kind === "error") {
    const status = served.originStatus ?? null;
    const cacheStatus = passStatus("MISS", status, served.code.replaceAll("_", "-"));
    if (served.answer && status !== null) {
      const headers = new Headers(served.answer.headers);
      for (const [k, v] of extra) headers.set(k, v);
      headers.set("cache-status", cacheStatus);
      const body = head ? null : served.answer.body;
      const res = new Response(body, { status, headers });
      return { res, cache: null, bytes: body?.byteLength ?? 0 };
    }
    const res = edgeError(served.status, served.code, served.message);
    res.headers.set("cache-status", cacheStatus);
    return { res, cache: null, bytes: 0 };
  }
  const headers = new Headers(served.headers);
  for (const [k, v] of extra) {
    const origin = k === "cache-tag" ? headers.get(k) : null;
    headers.set(k, origin !== null ? withOriginTags(v, origin) : v);
  }
  headers.set("x-cachely-cache", cache);
  headers.set("x-cache", xCache(cache));
  // a stream is a forwarded range, or a body too large to store (slices say their outcome)
  const detail = served.status === 206 ? "range" : "size";
  headers.set("cache-status", passStatus(cache, served.status, detail));
  if (served.length !== null) headers.set("content-length", String(served.length));
  const bodiless = head || NULL_BODY.has(served.status);
  if (bodiless) served.body?.cancel().catch(() => {});
  return {
    res: new Response(bodiless ? null : served.body, { status: served.status, headers }),
    cache,
    bytes: served.length ?? 0,
  };
}

export type Finishing = {
  now: number;
  /** The fixed TTL (fixed cache mode). */
  ttlMs: number;
  /** Rewrites provider URLs in text bodies. */
  rewrite: (text: string) => string;
  /**
   * `rewrite` maps provider URLs: a text body it ran over carries `X-Parsed: true` (the
   * original product's header). False when it only scrubs (transformApiUrls off).
   */
  parsed?: boolean;
  /** Maps an upstream Location header to what the visitor should see (null drops it). */
  location?: (value: string) => string | null;
  /** Every form of the injected credential (credentialForms): a header echoing one is dropped. */
  secrets?: readonly string[] | null;
  /** The tenant's caching rules for the path (edge/caching.ts); default: fixed TTL, no SWR. */
  rules?: CachingRules;
  /** The expired copy the request revalidated: a 304 refreshes it without a body. */
  prev?: CachedObject;
  /** A slice fetch (edge/slices.ts): a 206 may be stored, by the same rules as a 200. */
  slice?: boolean;
  /**
   * The visitor's request carried Authorization (never passed on): in origin mode its answer
   * is stored only if the origin allows it for such requests (RFC 9111 §3.5).
   */
  authorized?: boolean;
};

/**
 * Fields addressed to Cachely alone, read for the caching decision and never passed on
 * (RFC 9213 §2.1: a targeted field is for its target): `Cachely-CDN-Cache-Control`, and
 * `Surrogate-Control`, which surrogates consume (docs/decisions.md "HTTP caching: what the
 * origin allows"). `CDN-Cache-Control` is passed on: it addresses every CDN on the path.
 */
const CONSUMED: ReadonlySet<string> = new Set(["cachely-cdn-cache-control", "surrogate-control"]);

/**
 * Adds the conditional request headers for revalidating `prev` (RFC 9111 §4.3.1):
 * If-None-Match with its ETag, else If-Modified-Since with its Last-Modified. A value
 * the request could not carry is left out (the fetch is then unconditional).
 */
export function addConditional(headers: RequestHeaders, prev: CachedObject | undefined): void {
  if (prev === undefined) return;
  try {
    if (prev.etag !== null) headers.set("if-none-match", prev.etag);
    else if (prev.lastModified !== null) headers.set("if-modified-since", prev.lastModified);
  } catch {
    // an unusable validator: fetch the whole answer
  }
}

/**
 * Upstream result -> loader result. 5xx becomes a failure (so stale-if-error
 * applies); a 304 to a revalidation refreshes the copy; text bodies get provider URLs
 * rewritten; which statuses are cacheable: whyNotStored (docs/decisions.md "HTTP caching").
 */
export function finishUpstream(r: UpstreamResult, f: Finishing): Loaded {
  if (r.kind === "error") return r;
  if (r.status >= 500) {
    if (r.kind === "stream") r.body?.cancel().catch(() => {});
    // Origin mode passes the origin's own 5xx on (a site's maintenance page, its Retry-After)
    const answer = r.kind === "buffered" && f.rules?.origin ? originAnswer(r, f) : undefined;
    return {
      kind: "error",
      status: 502,
      code: "upstream_error",
      message: "Upstream failed",
      originStatus: r.status,
      ...(answer ? { answer } : {}),
    };
  }
  const secrets = f.secrets?.length ? f.secrets : null;
  const buffered = r.kind === "buffered";
  const headers: [string, string][] = [];
  let consumed: [string, string][] | null = null;
  for (const [k, v0] of r.headers) {
    // A stored copy's Age is computed from storedAt; a stream passes the origin's on.
    if (k === "age" && buffered) continue;
    if (CONSUMED.has(k)) {
      (consumed ??= []).push([k, v0]);
      continue;
    }
    const v = k === "location" && f.location ? f.location(v0) : v0;
    if (v === null) continue;
    if (secrets && secrets.some((s) => v.includes(s))) continue;
    headers.push([k, v]);
  }
  if (r.kind === "stream") return { ...r, headers };
  const rules = f.rules ?? FIXED_RULES;
  const ageMs = upstreamAgeMs(r.headers);
  if (r.status === 304 && f.prev !== undefined && (f.prev.status === 200 || f.slice)) {
    // The copy left the cache while the request ran and its slab holds other bodies now.
    if (!f.prev.readable) {
      return { kind: "error", status: 502, code: "upstream_error", message: "Upstream failed" };
    }
    // RFC 9111 §4.3.4: the stored headers, updated with those of the 304
    const names = new Set(headers.map((h) => h[0]));
    const merged = f.prev.headers.filter((h) => !names.has(h[0])).concat(headers);
    const cookie = r.setCookie === true;
    return stored(f.prev.status, merged, f.prev.body, f, rules, ageMs, cookie, consumed, 304);
  }
  let body: Bytes = NULL_BODY.has(r.status) ? new Uint8Array(0) : r.body;
  const ct = headers.find((h) => h[0] === "content-type")?.[1] ?? "";
  if (body.byteLength > 0 && isRewritable(ct)) {
    const text = dec.decode(body);
    const out = f.rewrite(text);
    if (out !== text) body = enc.encode(out) as Bytes;
    if (f.parsed) headers.push(["x-parsed", "true"]);
  }
  return stored(r.status, headers, body, f, rules, ageMs, r.setCookie === true, consumed);
}

/** A buffered answer's headers as passed on (what finishUpstream keeps) and its body. */
function originAnswer(r: { headers: [string, string][]; body: Bytes }, f: Finishing) {
  const headers: [string, string][] = [];
  for (const [k, v0] of r.headers) {
    if (CONSUMED.has(k)) continue;
    const v = k === "location" && f.location ? f.location(v0) : v0;
    if (v === null || f.secrets?.some((s) => v.includes(s))) continue;
    headers.push([k, v]);
  }
  return { headers, body: r.body };
}

/**
 * The object of an upstream answer with its freshness: in fixed mode the tenant's TTL, in
 * origin mode what the headers say; stale windows and storability by the rules common to
 * both (docs/decisions.md "HTTP caching"). `storedAt` is set back by the upstream Age, so
 * Age and freshness count the time the answer spent in caches upstream. The result carries
 * the Cache-Status parameters of the fetch (`fetched`, edge/cache_status.ts).
 */
function stored(
  status: number,
  headers: [string, string][],
  body: Bytes,
  f: Finishing,
  rules: CachingRules,
  ageMs: number,
  setCookie: boolean,
  consumed: [string, string][] | null,
  originStatus = status,
): Loaded {
  const cookie = setCookie && !rules.ignoreSetCookie;
  const fr = originFreshness(consumed === null ? headers : headers.concat(consumed), f.now);
  let ttlMs: number;
  let why = whyNotStored(status, f.slice === true, fr.refusal, cookie, rules.origin);
  if (rules.origin) {
    // Heuristic freshness only for the statuses RFC 9110 §15.1 calls heuristically cacheable
    ttlMs = fr.heuristic && !HEURISTIC_STATUSES.has(status) ? 0 : fr.lifetimeMs;
    // Another status than 200 (or a slice's 206) is stored for a lifetime only: it is never
    // revalidated (edge/cache/through.ts revalidatable).
    if (why === null && f.authorized && !fr.sharedDespiteAuth) why = "authorization";
    const revalidated = status === 200 || f.slice === true;
    if (why === null && !revalidated && ttlMs <= 0) why = "no-lifetime";
    const validator = headers.some((h) => h[0] === "etag" || h[0] === "last-modified");
    // A Vary of `*`, or nothing to keep it fresh or revalidate it with: not stored.
    if (why === null && fr.vary === null) why = "vary";
    if (why === null && ttlMs <= 0 && !validator) why = "no-lifetime";
  } else {
    ttlMs = f.ttlMs + ageMs; // the full TTL here, whatever its age upstream
  }
  const cacheable = why === null;
  const obj = cachedObject(status, headers, body, f.now - ageMs, ttlMs, cookie);
  obj.sieMs = fr.noStale ? 0 : fr.sieMs ?? -1;
  obj.swrMs = fr.noStale || !cacheable ? 0 : staleWindowMs(fr, rules, f.ttlMs);
  const fetched = fetchParams(originStatus, cacheable ? ttlMs - ageMs : null, why);
  return {
    kind: "object",
    obj,
    cacheable,
    vary: rules.origin ? fr.vary ?? "" : undefined,
    fetched,
  };
}

/** Statuses whose answers RFC 9110 §15.1 makes heuristically cacheable (below 500). */
const HEURISTIC_STATUSES = new Set([200, 203, 204, 300, 301, 308, 404, 405, 410, 414]);

/**
 * Why an answer may not be stored whatever its freshness (null: it may). Fixed mode stores
 * 200s only; origin mode any final status below 500 but a 206 outside slices and a 304
 * (RFC 9111 §3), 5xx being failures (finishUpstream).
 */
function whyNotStored(
  status: number,
  slice: boolean,
  refusal: "no-store" | "private" | null,
  cookie: boolean,
  origin: boolean,
): string | null {
  const storableStatus = status === 200 || (slice && status === 206) ||
    (origin && status > 200 && status < 500 && status !== 206 && status !== 304);
  if (!storableStatus) return "status";
  if (refusal !== null) return refusal;
  return cookie ? "set-cookie" : null;
}

/**
 * How long an expired copy may be answered while it is refreshed (RFC 5861). Origin mode:
 * only with the origin's permission (RFC 9111 §4.2.4): its `stale-while-revalidate=N`; with
 * only `stale-if-error=N`, the tenant's window up to N; otherwise none, unless the tenant
 * opted in (`staleWhenOriginSilent`). Fixed mode: the tenant's window, at most the TTL, so an
 * answer is never older than twice the TTL.
 */
function staleWindowMs(
  fr: ReturnType<typeof originFreshness>,
  rules: CachingRules,
  ttlMs: number,
): number {
  if (!rules.origin) return Math.min(rules.swrMs, ttlMs);
  if (fr.swrMs !== null) return fr.swrMs;
  if (!fr.hasLifetime) return 0;
  if (rules.staleWhenOriginSilent) return rules.swrMs;
  return fr.sieMs !== null ? Math.min(rules.swrMs, fr.sieMs) : 0;
}
