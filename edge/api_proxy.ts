/**
 * The API proxy (SPEC "What the service does" 2, "Public proxy behaviour"):
 * `GET|HEAD {tenant_host}/~api/<path>` -> `<apiOrigin><path>` with the stored
 * credential injected, cached for the tenant's TTL under a key of tenant, api
 * version, host, path and normalised query; delivery URLs in bodies rewritten;
 * the preview-bypass parameter skips the cache; `?transform=` and experiments.
 */
import type { EdgeContext, RequestContext } from "./context.ts";
import type { Outcome } from "./respond.ts";
import {
  addConditional,
  finishUpstream,
  methodNotAllowed,
  objectResponse,
  otherResponse,
} from "./respond.ts";
import { cachingRules } from "./caching.ts";
import { apiKey, transformKey } from "./cache/keys.ts";
import { normaliseQuery } from "../lib/cache/query.ts";
import { freshInMemory, type Loaded, readThrough, type Served } from "./cache/through.ts";
import { tagLoaded, tagPromoted } from "./entity_fill.ts";
import type { CachedObject } from "./cache/store.ts";
import { BadPathError, checkPath, joinUpstream, parseBase } from "../lib/net/url_join.ts";
import {
  credentialForms,
  injectCredential,
  openToken,
  scrubToken,
} from "../lib/net/credentials.ts";
import { fetchUpstream, RequestHeaders } from "./upstream.ts";
import { edgeError, oversizeHeaders } from "./http.ts";
import { applyTransform } from "./transform.ts";
import { assignExperiment, type Assignment, experimentHeaders } from "./experiments.ts";
import { EXPERIMENT_EXPOSE_HEADERS } from "./experiments.ts";
import { offloadable, withCdnHeaders } from "./cdn.ts";
import type { ErrorCode } from "../lib/errors.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { canonicalPairs, type DraftRefusal, NO_GUARD } from "../sdk/drafts.ts";
import { type EdgeRefusal, guardOf, MasterRefs, refusePath } from "./drafts.ts";
import { PREVIEW_TOKEN_PARAM } from "../lib/preview/link_token.ts";
import { previewQuery, refusePreviewLink } from "./preview.ts";

/** Query parameter that selects an AI transform profile (SPEC). */
export const TRANSFORM_PARAM = "transform";

/** Cache outcome headers, exposed to browsers on every API response. */
const CACHE_EXPOSE = "x-cachely-cache, x-cache, age, x-parsed";
const EXPOSE = [CACHE_EXPOSE, ...EXPERIMENT_EXPOSE_HEADERS].join(", ");
/**
 * Headers on every API response: CORS for browsers. Kept short on purpose: each header
 * costs the runtime ~4,500 instructions per response (bench/ANALYSIS.md), and the header
 * set is a product decision (docs/decisions.md "Hit header set").
 */
const NOSNIFF: [string, string] = ["x-content-type-options", "nosniff"];
/** nosniff too: a JSON answer must never be sniffed into HTML or script by a browser. */
const API_HEADERS: [string, string][] = [["access-control-allow-origin", "*"], NOSNIFF];
/**
 * For CORS requests (an Origin header) and CDN-offloaded responses: the cache outcome
 * headers exposed to browser code. A request without Origin is not subject to
 * CORS, so Access-Control-Expose-Headers would do nothing there.
 */
const API_HEADERS_CORS: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["access-control-expose-headers", CACHE_EXPOSE],
  NOSNIFF,
];
/** With experiment or transform headers: SPEC lists them in Access-Control-Expose-Headers. */
const API_HEADERS_EXPOSED: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["access-control-expose-headers", EXPOSE],
  NOSNIFF,
];
const ALLOW = "GET, HEAD, OPTIONS";

/** CORS headers of a `?transform=` response outside experiments and CDN offload. */
function transformHeaders(cors: boolean): [string, string][] {
  return cors ? API_HEADERS_EXPOSED : API_HEADERS;
}

/**
 * The extra headers of an experiment response, one list per (experiment, variant, profile):
 * the same list object on every hit, so the object's hit template is reused (edge/respond.ts).
 * Bounded; cleared when full.
 */
const experimentExtras = new Map<string, readonly (readonly [string, string])[]>();
function experimentExtra(a: Assignment): readonly (readonly [string, string])[] {
  const k = `${a.experimentId}|${a.variantId}|${a.variantKey}|${a.transformProfile ?? ""}`;
  let h = experimentExtras.get(k);
  if (h === undefined) {
    h = [...API_HEADERS_EXPOSED, ...Object.entries(experimentHeaders(a))];
    if (experimentExtras.size >= 4096) experimentExtras.clear();
    experimentExtras.set(k, h);
  }
  return h;
}

export type ApiOutcome = Outcome & { experiment: Assignment | null };

type ApiQuery = {
  profile: string | null;
  preview: boolean;
  query: string;
  /** A draft switch in the query (sdk/drafts.ts): the request is answered 400. */
  refused: EdgeRefusal | null;
  /** The content ref asked for, where the provider's refs must be master refs (Prismic). */
  ref: string | null;
  /** A preview link's token (edge/preview.ts): verified before anything else. */
  link: string | null;
};
const NO_QUERY: ApiQuery = {
  profile: null,
  preview: false,
  query: "",
  refused: null,
  ref: null,
  link: null,
};

/**
 * Parsed queries, memoised: the same few query strings repeat on hot routes, and two
 * URLSearchParams per hit cost a fifth of a cache hit's throughput (bench/ANALYSIS.md).
 * Bounded in entries and in key length; cleared, not evicted, when full (cheap, and a
 * miss only costs the parse).
 */
const queryMemo = new Map<string, ApiQuery>();
const QUERY_MEMO_ENTRIES = 4096;
const QUERY_MEMO_MAX_KEY = 512;

function parseApiQuery(snap: EdgeSnapshot, raw: string): ApiQuery {
  const api = snap.api;
  const guard = guardOf(snap);
  const authParam = api.authMode === "query" && api.authParam ? api.authParam : "";
  const memoKey = `${guard.id}\n${api.previewParam}\n${authParam}\n${raw}`;
  const hit = queryMemo.get(memoKey);
  if (hit) return hit;
  const params = new URLSearchParams(raw);
  const profile = params.get(TRANSFORM_PARAM) || null;
  const drop = [api.previewParam, TRANSFORM_PARAM, PREVIEW_TOKEN_PARAM];
  if (authParam) drop.push(authParam);
  const guarded = guard === NO_GUARD ? null : guardQuery(guard, raw, params, drop);
  const parsed: ApiQuery = {
    profile,
    preview: params.has(api.previewParam),
    query: guarded ? guarded.query : normaliseQuery(params, drop),
    refused: guarded?.refused ?? null,
    ref: guarded?.ref ?? null,
    link: params.get(PREVIEW_TOKEN_PARAM),
  };
  if (memoKey.length <= QUERY_MEMO_MAX_KEY) {
    if (queryMemo.size >= QUERY_MEMO_ENTRIES) queryMemo.clear();
    queryMemo.set(memoKey, parsed);
  }
  return parsed;
}

/**
 * A visitor's query against the tenant's draft switches: the refusal, the ref to confirm,
 * and the query to forward, with the published switch added where the CMS's default is not
 * published. Both the visitor's query and the one forwarded are checked, each read the
 * widest way (re-encoding may turn an odd spelling into another one).
 */
function guardQuery(
  guard: ReturnType<typeof guardOf>,
  raw: string,
  params: URLSearchParams,
  drop: readonly string[],
): { refused: EdgeRefusal | null; ref: string | null; query: string } {
  const refuse = (r: DraftRefusal) => ({
    refused: { ...r, status: 400 as const },
    ref: null,
    query: "",
  });
  const asked = canonicalPairs(raw);
  const r = guard.check("", asked);
  if (r) return refuse(r);
  // Added where the CMS itself (one decoding, exact name) would see no such parameter.
  for (const [name, value] of guard.published) if (!params.has(name)) params.append(name, value);
  const query = normaliseQuery(params, drop);
  const sent = canonicalPairs(query);
  const r2 = guard.check("", sent);
  if (r2) return refuse(r2);
  if (guard.refParam === null) return { refused: null, ref: null, query };
  // Every spelling of the ref parameter, as the CMS and as a liberal parser read it: one value.
  const refs = new Set<string>();
  for (const p of [...asked, ...sent]) if (p.name === guard.refParam) refs.add(p.value);
  for (const [k, v] of params) if (k.toLowerCase() === guard.refParam) refs.add(v.trim());
  if (refs.size > 1) {
    return refuse({
      param: guard.refParam,
      message: "given more than once, or spelt so that it reads as another value",
    });
  }
  return { refused: null, ref: refs.size === 1 ? [...refs][0] : null, query };
}

/** What an API GET or HEAD resolves to before the cache is consulted. */
type ApiPlan = {
  head: boolean;
  profile: string | null;
  preview: boolean;
  query: string;
  experiment: Assignment | null;
  /** Headers added to a plain (or experiment) response; with CDN headers when offloaded. */
  extra: readonly (readonly [string, string])[];
  /** `extra` without CDN headers: for objects a CDN must not keep (edge/cdn.ts). */
  unshared: readonly (readonly [string, string])[];
  /** Headers added to a `?transform=` response outside experiments. */
  transformedExtra: readonly (readonly [string, string])[];
  /** The request carries Origin (a CORS request: cache and transform headers exposed). */
  cors: boolean;
  key: string;
  /** A draft switch in the path or query: answered 400 (403 for a preview-only origin). */
  refused: EdgeRefusal | null;
  /** A content ref that must be confirmed as a master ref before anything is served. */
  ref: string | null;
  /** A preview link's token: the request is an editor's preview or a 403. */
  link: string | null;
};

function planApi(rc: RequestContext, apiPath: string): ApiPlan {
  const { snap } = rc;
  const head = rc.method === "HEAD";
  const guard = guardOf(snap);
  const q = rc.query === "" && guard.published.length === 0
    ? NO_QUERY
    : parseApiQuery(snap, rc.query);
  const refused = guard === NO_GUARD ? null : refusePath(snap, apiPath) ?? q.refused;
  let profile = q.profile;
  // SPEC: a ?transform= request bypasses experiment matching; HEAD is never transformed.
  let experiment: Assignment | null = null;
  if (profile === null && !head && snap.experiments?.length) {
    experiment = assignExperiment(
      snap,
      apiPath,
      rc.info.clientIp,
      rc.req.headers.get("user-agent") ?? "",
    );
    if (experiment) profile = experiment.transformProfile;
  }
  // CDN offload (edge/cdn.ts) never for experiments (per-visitor) or previews (drafts);
  // an offloaded response always exposes (a CDN answers CORS and other requests alike).
  const cors = rc.req.headers.get("origin") !== null;
  const unshared = experiment ? experimentExtra(experiment) : cors ? API_HEADERS_CORS : API_HEADERS;
  const offload = snap.cdnOffload === true && !experiment && !q.preview;
  const extra = offload ? withCdnHeaders(snap, API_HEADERS_CORS, "api", "api", null) : unshared;
  // A transform outside experiments and offload exposes its headers to CORS requests only,
  // like a plain response: a header costs every hit (docs/decisions.md "Hit header set").
  const transformedExtra = offload && profile !== null
    ? withCdnHeaders(snap, API_HEADERS_EXPOSED, "api-exposed", "api", profile)
    : transformHeaders(cors);
  // Bodies kept as the upstream sent them (transformApiUrls off) are other objects.
  const keyOrigin = snap.api.rewriteUrls === false ? `${rc.tenantOrigin}#raw` : rc.tenantOrigin;
  const key = apiKey(snap.tenantId, snap.versions.api, keyOrigin, apiPath, q.query);
  return {
    head,
    profile,
    preview: q.preview,
    query: q.query,
    experiment,
    extra,
    unshared,
    transformedExtra,
    cors,
    key,
    refused,
    ref: q.ref,
    link: q.link,
  };
}

/**
 * What the cache does with an API request before anything is served (edge/explain.ts): its
 * key and what makes it skip the cache (preview switch or link, transform, experiment, a
 * refused draft switch).
 */
export function apiCachePlan(rc: RequestContext, apiPath: string) {
  const p = planApi(rc, apiPath);
  return {
    key: p.key,
    preview: p.preview,
    link: p.link !== null,
    profile: p.profile,
    experiment: p.experiment !== null,
    refused: p.refused?.message ?? null,
  };
}

/**
 * The hit fast path: fresh in memory, nothing awaited; for a transform, the
 * transformed object's own key. The path is validated only on a miss: an invalid
 * path is never stored, so it cannot hit.
 */
function hitOf(ec: EdgeContext, rc: RequestContext, p: ApiPlan): ApiOutcome | null {
  const { profile, head, experiment } = p;
  if (p.preview || p.link !== null || (profile !== null && (head || ec.deps.transform === null))) {
    return null;
  }
  if (p.refused || (p.ref !== null && !masterRefs(ec).known(rc.snap, p.ref, ec.deps.clock.now()))) {
    return null;
  }
  const transformed = profile !== null;
  const snap = rc.snap;
  const obj = freshInMemory(
    ec.through,
    transformed ? transformKey(p.key, profile!, snap.ai?.regenVersions?.[profile!] ?? 0) : p.key,
  );
  if (!obj) return null;
  let extra = transformed && !experiment ? p.transformedExtra : p.extra;
  // A stored object is a 200 without private/no-store; a cookie or a short-lived
  // transform (a partial one, retried in seconds) still keeps it away from a CDN.
  if (
    extra !== p.unshared && extra !== API_HEADERS_EXPOSED &&
    (obj.noCdn || (transformed && obj.ttlMs < snap.cacheTtl * 1000))
  ) {
    extra = transformed ? API_HEADERS_EXPOSED : p.unshared;
  }
  const now = ec.deps.clock.now();
  const templates = ec.through.cache.templates;
  const hit = objectResponse(obj, head, "HIT", templates, now, extra, rc.req) as ApiOutcome;
  hit.experiment = experiment;
  return hit;
}

/**
 * A fresh in-memory hit for `/~api<apiPath>`, synchronously, or null when the request
 * needs anything else (edge/requests.ts answers hits without a promise).
 */
export function apiHit(ec: EdgeContext, rc: RequestContext, apiPath: string): ApiOutcome | null {
  const method = rc.method;
  if ((method !== "GET" && method !== "HEAD") || !rc.snap.api.origin) return null;
  return hitOf(ec, rc, planApi(rc, apiPath));
}

/** Handles `/~api<apiPath>`. */
export async function handleApi(
  ec: EdgeContext,
  rc: RequestContext,
  apiPath: string,
): Promise<ApiOutcome> {
  const { method } = rc;
  if (method !== "GET" && method !== "HEAD") {
    if (method === "OPTIONS") return { ...preflight(rc), experiment: null };
    return { ...methodNotAllowed(method, ALLOW), experiment: null };
  }
  const origin = rc.snap.api.origin;
  if (!origin) return fail(502, "api_not_configured", "API proxy not configured: no API origin");
  const plan = planApi(rc, apiPath);
  const { head, preview, query, experiment, extra, key } = plan;
  const profile = plan.profile;
  const hit = hitOf(ec, rc, plan);
  if (hit) return hit;
  if (plan.link !== null) return { ...(await previewApi(ec, rc, apiPath, plan)), experiment: null };
  const refused = plan.refused ?? await refuseRef(ec, rc, origin, plan.ref);
  if (refused) {
    const code = refused.status === 403 ? "forbidden" : "bad_request";
    return fail(refused.status, code, `Draft switch "${refused.param}": ${refused.message}`);
  }
  try {
    checkPath(apiPath);
  } catch (e) {
    if (e instanceof BadPathError) return fail(400, "invalid_path", `Invalid path: ${e.message}`);
    throw e;
  }
  const tooBig = oversizeHeaders(rc.req);
  if (tooBig) return { res: tooBig, cache: null, bytes: 0, experiment };
  const load = (prev?: CachedObject) => loadApi(ec, rc, origin, apiPath, query, prev);
  let served: Served;
  if (preview) {
    const r = await load();
    served = r.kind === "object" ? { kind: "object", obj: r.obj, cache: "MISS" } : r;
  } else {
    // Tagged with its entities as it is filled (edge/entity_fill.ts).
    const f = { snap: rc.snap, apiPath, query, key, log: ec.deps.log };
    const fill = async (prev?: CachedObject) => tagLoaded(f, await load(prev));
    served = await readThrough(ec.through, key, fill, { promoted: (o) => tagPromoted(f, o) });
  }
  if (served.kind !== "object") {
    return { ...otherResponse(served, head, plan.unshared), experiment };
  }
  const outcome = preview ? "BYPASS" : served.cache;
  if (profile === null || head) {
    const obj = served.obj;
    // An object upstream marked private (or an error), or a stale copy served because
    // the upstream failed, is never offered to a CDN.
    const ex = outcome !== "STALE" && offloadable(obj) ? extra : plan.unshared;
    return {
      ...objectResponse(
        obj,
        head,
        outcome,
        ec.through.cache.templates,
        ec.deps.clock.now(),
        ex,
        rc.req,
        served.fetched,
      ),
      experiment,
    };
  }
  const t = await applyTransform(ec, rc, served, key, profile, apiPath, !preview);
  const headers = [...(experiment ? extra : transformHeaders(plan.cors)), ...t.headers];
  return {
    ...objectResponse(
      t.obj,
      head,
      preview ? "BYPASS" : t.cache,
      ec.through.cache.templates,
      ec.deps.clock.now(),
      headers,
      rc.req,
    ),
    experiment,
  };
}

/**
 * The prewarm's refetch of a plain API answer (edge/prewarm.ts): loaded, tagged and stored
 * under `key` as a visitor's miss would be, asking the origin even while a copy is fresh.
 * The object stored, or null when the request would not be keyed `key` (a transform, an
 * experiment, a preview, a draft switch) or nothing was stored.
 */
export async function refetchApi(
  ec: EdgeContext,
  rc: RequestContext,
  apiPath: string,
  key: string,
): Promise<CachedObject | null> {
  const origin = rc.snap.api.origin;
  if (!origin) return null;
  const p = planApi(rc, apiPath);
  if (p.key !== key || p.profile !== null || p.preview || p.refused || p.link !== null) return null;
  if (p.ref !== null) return null;
  const f = { snap: rc.snap, apiPath, query: p.query, key, log: ec.deps.log };
  const load = (prev?: CachedObject) => loadApi(ec, rc, origin, apiPath, p.query, prev);
  const fill = async (prev?: CachedObject) => tagLoaded(f, await load(prev));
  const promoted = (o: CachedObject) => tagPromoted(f, o);
  const served = await readThrough(ec.through, key, fill, { revalidate: true, promoted });
  if (served.kind !== "object") return null;
  return ec.through.cache.peek(key) === served.obj ? served.obj : null;
}

/** Headers of a preview answer: never kept by a browser, a CDN or a shared cache. */
const PREVIEW_HEADERS: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["cache-control", "private, no-store"],
  NOSNIFF,
];

/**
 * An editor's preview: the link verified (403 with a clear message otherwise), the draft
 * switches open, the preview credential and origin used, the answer private and never
 * stored, so no visitor ever gets it and the preview never gets a public copy.
 */
async function previewApi(
  ec: EdgeContext,
  rc: RequestContext,
  apiPath: string,
  plan: ApiPlan,
): Promise<Outcome> {
  const snap = rc.snap;
  const no = await refusePreviewLink(
    ec.deps.config.encryptionKey,
    snap,
    plan.link!,
    `/~api${apiPath}`,
    ec.deps.clock.now(),
  );
  if (no !== null) return fail(403, "forbidden", no);
  try {
    checkPath(apiPath);
  } catch (e) {
    if (e instanceof BadPathError) return fail(400, "invalid_path", `Invalid path: ${e.message}`);
    throw e;
  }
  const api = snap.api;
  const drop = [api.previewParam, TRANSFORM_PARAM, PREVIEW_TOKEN_PARAM];
  if (api.authMode === "query" && api.authParam) drop.push(api.authParam);
  const query = previewQuery(snap, rc.query, drop, rc.req.headers.get("cookie"));
  const origin = snap.preview?.origin ?? api.origin!;
  const tokenEnc = snap.preview?.tokenEnc ?? api.tokenEnc;
  const r = await loadApi(ec, rc, origin, apiPath, query, undefined, tokenEnc);
  const out = r.kind === "object"
    ? objectResponse(
      r.obj,
      plan.head,
      "BYPASS",
      null,
      ec.deps.clock.now(),
      PREVIEW_HEADERS,
      undefined,
      r.fetched,
    )
    : otherResponse(r, plan.head, PREVIEW_HEADERS);
  out.res.headers.set("cache-control", "private, no-store"); // whatever the CMS said
  return out;
}

const refStores = new WeakMap<EdgeContext, MasterRefs>();
function masterRefs(ec: EdgeContext): MasterRefs {
  let m = refStores.get(ec);
  if (m === undefined) refStores.set(ec, m = new MasterRefs());
  return m;
}

/** A ref that is not a master ref of the tenant (read from its API root): refused. */
async function refuseRef(
  ec: EdgeContext,
  rc: RequestContext,
  origin: string,
  ref: string | null,
): Promise<EdgeRefusal | null> {
  if (ref === null) return null;
  const now = () => ec.deps.clock.now();
  const ok = await masterRefs(ec).confirm(
    rc.snap,
    ref,
    now,
    () => loadApi(ec, rc, origin, "", ""),
  );
  if (ok) return null;
  return {
    status: 400,
    param: "ref",
    message: "only the master ref (published content) is served to visitors; " +
      "preview and release refs need a preview link",
  };
}

/** One upstream fetch for the API: credential injected, body rewritten, Location mapped. */
async function loadApi(
  ec: EdgeContext,
  rc: RequestContext,
  origin: string,
  apiPath: string,
  query: string,
  prev?: CachedObject,
  tokenEnc = rc.snap.api.tokenEnc,
): Promise<Loaded> {
  const { deps } = ec;
  const api = rc.snap.api;
  // "" is the origin itself, without a trailing slash (a CMS's API root, Prismic's /api/v2)
  const url = apiPath === ""
    ? new URL(parseBase(origin).href + (query ? `?${query}` : ""))
    : joinUpstream(origin, apiPath, query);
  const headers = new RequestHeaders({ accept: "application/json, */*;q=0.5", "user-agent": UA });
  addConditional(headers, prev);
  let token: string | null = null;
  if (api.authMode !== "none" && tokenEnc) {
    token = await openToken(deps.config.encryptionKey, tokenEnc);
    if (token === null) {
      deps.log.error("edge credential unavailable", { tenant: rc.snap.slug });
      return {
        kind: "error",
        status: 502,
        code: "upstream_credentials",
        message: "Upstream credentials unavailable",
      };
    }
    try {
      injectCredential(api.authMode, api.authParam, token, url, headers);
    } catch {
      // A value saved before header-safety checks (CR/LF, a forbidden name): 502, never a 500.
      deps.log.error("edge credential unusable", { tenant: rc.snap.slug });
      return {
        kind: "error",
        status: 502,
        code: "upstream_credentials",
        message: "Upstream credentials unavailable",
      };
    }
  }
  const r = await fetchUpstream(deps, {
    url,
    headers: headers.pairs,
    maxBuffer: deps.config.edgeCacheMaxObjectBytes,
  });
  const authParam = api.authMode === "query" ? api.authParam : null;
  const secrets = token ? credentialForms(api.authMode, token) : null;
  // transformApiUrls off: provider URLs stay as they are; the credential is scrubbed anyway.
  const urls = api.rewriteUrls !== false ? (t: string) => rc.rewrite(t) : (t: string) => t;
  return finishUpstream(r, {
    now: deps.clock.now(),
    ttlMs: rc.snap.cacheTtl * 1000,
    rules: cachingRules(rc.snap, "api"),
    prev,
    rewrite: secrets ? (text) => scrubToken(urls(text), secrets) : urls,
    parsed: api.rewriteUrls !== false,
    secrets,
    location: (v) => mapApiLocation(v, url, origin, authParam, rc),
  });
}

export const UA = "Cachely-Edge/1";

/**
 * A redirect inside the API base becomes a `/~api/` path on the tenant host;
 * one elsewhere has provider URLs rewritten. The auth query parameter is
 * always removed, so a redirect never carries the credential to the visitor.
 */
export function mapApiLocation(
  value: string,
  from: URL,
  origin: string,
  authParam: string | null,
  rc: RequestContext,
): string | null {
  let loc: URL;
  try {
    loc = new URL(value, from);
  } catch {
    return null;
  }
  if (authParam) loc.searchParams.delete(authParam);
  const base = parseBase(origin);
  if (loc.origin === base.origin && loc.pathname.startsWith(base.basePath + "/")) {
    return `${rc.tenantOrigin}/~api${loc.pathname.slice(base.basePath.length)}${loc.search}`;
  }
  return rc.rewrite(loc.href);
}

function preflight(rc: RequestContext): Outcome {
  const headers: Record<string, string> = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": ALLOW,
    "access-control-max-age": "86400",
    "x-cachely-edge": "1",
    allow: ALLOW,
  };
  const asked = rc.req.headers.get("access-control-request-headers");
  if (asked) headers["access-control-allow-headers"] = asked.slice(0, 1000);
  return { res: new Response(null, { status: 204, headers }), cache: null, bytes: 0 };
}

function fail(status: number, code: ErrorCode, message: string): ApiOutcome {
  return { res: edgeError(status, code, message), cache: null, bytes: 0, experiment: null };
}
