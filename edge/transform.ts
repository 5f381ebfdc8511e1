/**
 * The AI transform hook on `/~api/` GETs (SPEC "Public proxy behaviour"): an
 * application/json response is run through the tenant's rules for a profile,
 * cached under the plain key plus profile and its regenerate version, with
 * concurrent misses sharing one model call. Fail-open: any error serves the
 * original body with `X-AI-Transform: skipped`.
 */
import type { EdgeContext, RequestContext } from "./context.ts";
import { type Bytes, type CachedObject, cachedObject } from "./cache/store.ts";
import { readThrough, type Served } from "./cache/through.ts";
import { transformKey } from "./cache/keys.ts";
import { isJson } from "./http.ts";
import type { CacheOutcome } from "./types.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

type ObjectServed = Extract<Served, { kind: "object" }>;

/** The object to send, its cache outcome, and the X-AI-Transform headers to add. */
export type Transformed = {
  obj: CachedObject;
  cache: CacheOutcome;
  headers: [string, string][];
};

/**
 * Outcomes that may clear on the next try (a model hiccup, a cap that lifts, some
 * fields failing): served as they are, but cached for at most RETRY_TTL_MS instead
 * of the tenant's TTL, so visitors get the transformed body soon after the model
 * recovers while a failing model still sees at most one call per key per window.
 */
const TRANSIENT_SKIPS = new Set([
  "model-timeout",
  "model-rate-limited",
  "model-error",
  "malformed-output",
  "token-cap-daily",
  "token-cap-monthly",
  "internal-error",
  "outputs-unavailable",
]);
export const RETRY_TTL_MS = 10_000;

const skipped = (reason: string): [string, string][] => [
  ["x-ai-transform", "skipped"],
  ["x-ai-transform-skip-reason", reason],
];

/**
 * The transformed object: the plain object's headers minus its validators (the
 * upstream's ETag and Last-Modified describe the untransformed body) plus `extra`.
 */
function withHeaders(
  obj: CachedObject,
  extra: [string, string][],
  body: Bytes,
  now: number,
  ttlMs: number,
  retrySoon: boolean,
) {
  const headers = obj.headers.filter((h) =>
    !h[0].startsWith("x-ai-transform") && h[0] !== "etag" && h[0] !== "last-modified"
  );
  headers.push(...extra);
  const out = cachedObject(obj.status, headers, body, now, ttlMs, obj.noCdn);
  // The plain answer's stale windows (must-revalidate etc. hold for its transform too); an
  // outcome to retry soon is retried before it is served again, not behind a stale copy.
  out.swrMs = retrySoon ? 0 : obj.swrMs;
  out.sieMs = obj.sieMs;
  return out;
}

/**
 * Applies `profile` to a plain API result. `cacheable` is false for preview
 * (draft) requests, which are transformed but never stored.
 */
export async function applyTransform(
  ec: EdgeContext,
  rc: RequestContext,
  base: ObjectServed,
  plainKey: string,
  profile: string,
  apiPath: string,
  cacheable: boolean,
): Promise<Transformed> {
  const runner = ec.deps.transform;
  if (!runner) return { obj: base.obj, cache: base.cache, headers: skipped("ai-not-configured") };
  if (base.obj.status !== 200 || !isJson(base.obj.contentType)) {
    return { obj: base.obj, cache: base.cache, headers: skipped("not-json") };
  }
  const regen = rc.snap.ai?.regenVersions?.[profile] ?? 0;
  const key = transformKey(plainKey, profile, regen);
  const load = async () => {
    const now = ec.deps.clock.now();
    // A body read from a slab is copied before the await: the slab can hold other bodies by
    // the time the runtime answers, if the object left the cache meanwhile (edge/cache/slabs.ts).
    const read = base.obj.body;
    const source = read.byteLength === read.buffer.byteLength ? read : read.slice();
    try {
      const out = await runner.runtime({
        snapshot: rc.snap,
        profile,
        apiPath,
        body: dec.decode(source),
      });
      if (out.outcome === "error") {
        return { kind: "object" as const, obj: base.obj, cacheable: false };
      }
      const headers: [string, string][] = out.outcome === "applied" || out.outcome === "partial"
        ? [["x-ai-transform", out.outcome]]
        : skipped(out.skipReason ?? "passthrough");
      const body = out.outcome === "passthrough" ? source : enc.encode(out.body) as Bytes;
      const retrySoon = out.outcome === "partial" ||
        (out.outcome === "passthrough" && TRANSIENT_SKIPS.has(out.skipReason ?? ""));
      const ttlMs = retrySoon ? Math.min(base.obj.ttlMs, RETRY_TTL_MS) : base.obj.ttlMs;
      return {
        kind: "object" as const,
        obj: withHeaders(base.obj, headers, body, now, ttlMs, retrySoon),
        cacheable,
      };
    } catch (e) {
      ec.deps.log.warn("edge transform failed", {
        tenant: rc.snap.slug,
        profile,
        error: e instanceof Error ? e.name : "unknown",
      });
      return { kind: "object" as const, obj: base.obj, cacheable: false };
    }
  };
  if (!cacheable) {
    const r = await load();
    return {
      obj: r.obj,
      cache: "BYPASS",
      headers: r.obj === base.obj ? skipped("internal-error") : [],
    };
  }
  const served = await readThrough(ec.through, key, load);
  if (served.kind !== "object") {
    return { obj: base.obj, cache: base.cache, headers: skipped("internal-error") };
  }
  // the original object came back: the runner failed (fail-open)
  const failed = served.obj === base.obj;
  return { obj: served.obj, cache: served.cache, headers: failed ? skipped("internal-error") : [] };
}
