/**
 * CDN offload headers (docs/decisions.md "CDN offload"): for tenants that opted in, a
 * shareable response tells a CDN in front (Deno Deploy's cache, Cloudflare, Fastly, an
 * nginx) to keep it for the tenant's TTL of that kind with `CDN-Cache-Control`, and tags
 * it with `Cache-Tag` so a cache-version bump or a purge can purge it (the origin's own
 * Cache-Tag values follow, in the tenant's namespace: `withOriginTags`). Deno Deploy reads
 * both names (its `Deno-` prefixed ones would only repeat them), so one of each is sent.
 *
 * Callers decide per request (never experiments, preview-bypass requests, range requests,
 * STALE answers); `offloadable` decides per object (200, no private/no-store, no cookie).
 * A tenant without offload pays one property check per response.
 */
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { type CdnKind, MAX_TAG_LENGTH, originTag, responseTags } from "../lib/cdn/tags.ts";
import type { CachedObject } from "./cache/store.ts";

type Pairs = readonly (readonly [string, string])[];

/** Per snapshot (a new one on every config change): base list + CDN headers, by kind/profile. */
const memo = new WeakMap<EdgeSnapshot, Map<string, Pairs>>();

/**
 * `base` followed by the CDN headers for `snap`, or `base` itself when offload is off.
 * The result is the same array for the same (snapshot, base, kind, profile), so the
 * response header memo of a cached object keeps hitting (edge/respond.ts). `ttlSeconds`
 * is the tenant's TTL for that kind (the asset TTL for assets, the cache TTL otherwise);
 * null sends no CDN-Cache-Control (origin cache mode: the CDN follows the origin's own
 * Cache-Control and the Age the edge sends, as Cachely does; docs/decisions.md "HTTP caching").
 */
export function withCdnHeaders(
  snap: EdgeSnapshot,
  base: Pairs,
  baseName: string,
  kind: CdnKind,
  profile: string | null,
  ttlSeconds: number | null = snap.cacheTtl,
): Pairs {
  if (snap.cdnOffload !== true) return base;
  let m = memo.get(snap);
  if (!m) memo.set(snap, m = new Map());
  const key = `${baseName}\n${kind}\n${profile ?? ""}`;
  let out = m.get(key);
  if (!out) {
    out = [
      ...base,
      ...(ttlSeconds === null ? [] : [["cdn-cache-control", `max-age=${ttlSeconds}`] as const]),
      ["cache-tag", responseTags(snap.tenantId, kind, profile).join(",")],
    ];
    if (m.size < 256) m.set(key, out);
  }
  return out;
}

/** Origin tags an offloaded answer carries at most (a CDN bounds the header's size). */
const MAX_ORIGIN_TAGS = 64;
const TENANT_TAG = /^cachely-t(\d+)$/;

/**
 * The Cache-Tag of an offloaded answer whose origin sent one: the tenant's tags, then the
 * origin's, each in the tenant's namespace (lib/cdn/tags.ts `originTag`), the names a purge
 * of that origin tag sends the CDN. `cdnTags` is the value withCdnHeaders made (its first
 * entry is the tenant's tag); any other value is answered as it is.
 */
export function withOriginTags(cdnTags: string, origin: string): string {
  const comma = cdnTags.indexOf(",");
  const m = TENANT_TAG.exec(comma === -1 ? cdnTags : cdnTags.slice(0, comma));
  if (m === null) return cdnTags;
  const tenantId = Number(m[1]);
  let out = cdnTags;
  let n = 0;
  for (const t of origin.split(/[\s,]+/)) {
    if (t === "" || t.length > MAX_TAG_LENGTH || t.includes("*")) continue;
    out += `,${originTag(tenantId, t)}`;
    if (++n === MAX_ORIGIN_TAGS) break;
  }
  return out;
}

/** Matches what RFC 9111 §5.2.2 forbids a shared cache to store. */
const PRIVATE = /\b(?:no-store|private)\b/i;

/**
 * True when a CDN may keep this object: a 200 the upstream did not mark private or
 * no-store and that came without Set-Cookie (a cookie marks a response made for one
 * visitor, even though the edge drops the cookie itself).
 */
export function offloadable(obj: CachedObject): boolean {
  if (obj.status !== 200 || obj.noCdn) return false;
  for (const h of obj.headers) if (h[0] === "cache-control" && PRIVATE.test(h[1])) return false;
  return true;
}

/**
 * True when the request carries the tenant's preview-bypass parameter (drafts are never
 * offloaded, even on paths that do not bypass Cachely's own cache). Only called for
 * offloading tenants, on requests with a query.
 */
export function previewRequested(query: string, previewParam: string): boolean {
  return new URLSearchParams(query).has(previewParam);
}
