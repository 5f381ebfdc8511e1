/**
 * The API proxy (SPEC "What the service does" 2, "Public proxy behaviour"):
 * `GET|HEAD {tenant_host}/~api/<path>` → `<apiOrigin><path>` with the stored
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
import type { CachedObject } from "./cache/store.ts";
import { BadPathError, checkPath, joinUpstream, parseBase } from "./url_join.ts";
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

/** Query parameter that selects an AI transform profile (SPEC). */
export const TRANSFORM_PARAM = "transform";

/** Cache outcome headers, exposed to browsers on every API response (issue 9). */
const CACHE_EXPOSE = "x-cachely-cache, x-cache, age, x-parsed";
const EXPOSE = [CACHE_EXPOSE, ...EXPERIMENT_EXPOSE_HEADERS].join(", ");
/**
 * Headers on every API response: CORS for browsers. Kept short on purpose: each header
 * costs the runtime ~4,500 instructions per response (bench/ANALYSIS.md), and the header
 * set is a product decision (docs/decisions.md "Hit header set").
 */
const API_HEADERS: [string, string][] = [["access-control-allow-origin", "*"]];
/**
 * For CORS requests (an Origin header) and CDN-offloaded responses: the cache outcome
 * headers exposed to browser code (issue 9). A request without Origin is not subject to
 * CORS, so Access-Control-Expose-Headers would do nothing there.
 */
const API_HEADERS_CORS: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["access-control-expose-headers", CACHE_EXPOSE],
];
/** With experiment or transform headers: SPEC lists them in Access-Control-Expose-Headers. */
const API_HEADERS_EXPOSED: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["access-control-expose-headers", EXPOSE],
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

type ApiQuery = { profile: string | null; preview: boolean; query: string };
const NO_QUERY: ApiQuery = { profile: null, preview: false, query: "" };

/**
 * Parsed queries, memoised: the same few query strings repeat on hot routes, and two
 * URLSearchParams per hit cost a fifth of a cache hit's throughput (bench/ANALYSIS.md).
 * Bounded in entries and in key length; cleared, not evicted, when full (cheap, and a
 * miss only costs the parse).
 */
const queryMemo = new Map<string, ApiQuery>();
const QUERY_MEMO_ENTRIES = 4096;
const QUERY_MEMO_MAX_KEY = 512;

function parseApiQuery(api: RequestContext["snap"]["api"], raw: string): ApiQuery {
  const authParam = api.authMode === "query" && api.authParam ? api.authParam : "";
  const memoKey = `${api.previewParam}\n${authParam}\n${raw}`;
  const hit = queryMemo.get(memoKey);
  if (hit) return hit;
  const params = new URLSearchParams(raw);
  const profile = params.get(TRANSFORM_PARAM) || null;
  const drop = [api.previewParam, TRANSFORM_PARAM];
  if (authParam) drop.push(authParam);
  const parsed = {
    profile,
    preview: params.has(api.previewParam),
    query: normaliseQuery(params, drop),
  };
  if (memoKey.length <= QUERY_MEMO_MAX_KEY) {
    if (queryMemo.size >= QUERY_MEMO_ENTRIES) queryMemo.clear();
    queryMemo.set(memoKey, parsed);
  }
  return parsed;
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
};

function planApi(rc: RequestContext, apiPath: string): ApiPlan {
  const { snap } = rc;
  const head = rc.method === "HEAD";
  const q = rc.query === "" ? NO_QUERY : parseApiQuery(snap.api, rc.query);
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
  };
}

/**
 * The hit fast path: fresh in memory, nothing awaited; for a transform, the
 * transformed object's own key. The path is validated only on a miss: an invalid
 * path is never stored, so it cannot hit.
 */
function hitOf(ec: EdgeContext, rc: RequestContext, p: ApiPlan): ApiOutcome | null {
  const { profile, head, experiment } = p;
  if (p.preview || (profile !== null && (head || ec.deps.transform === null))) return null;
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
  const hit = objectResponse(obj, head, "HIT", ec.deps.clock.now(), extra, rc.req) as ApiOutcome;
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
    served = await readThrough(ec.through, key, load);
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
      ...objectResponse(obj, head, outcome, ec.deps.clock.now(), ex, rc.req),
      experiment,
    };
  }
  const t = await applyTransform(ec, rc, served, key, profile, apiPath, !preview);
  const headers = [...(experiment ? extra : transformHeaders(plan.cors)), ...t.headers];
  return {
    ...objectResponse(t.obj, head, preview ? "BYPASS" : t.cache, ec.deps.clock.now(), headers),
    experiment,
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
): Promise<Loaded> {
  const { deps } = ec;
  const api = rc.snap.api;
  const url = joinUpstream(origin, apiPath, query);
  const headers = new RequestHeaders({ accept: "application/json, */*;q=0.5", "user-agent": UA });
  addConditional(headers, prev);
  let token: string | null = null;
  if (api.authMode !== "none" && api.tokenEnc) {
    token = await openToken(deps.config.encryptionKey, api.tokenEnc);
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
