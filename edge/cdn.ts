/**
 * CDN offload headers (docs/decisions.md "CDN offload"): for tenants that opted in, a
 * shareable response tells a CDN in front (Deno Deploy's cache, Cloudflare, Fastly, an
 * nginx) to keep it for the tenant's TTL with `CDN-Cache-Control`, and tags it with
 * `Cache-Tag` so a cache-version bump can purge it. Both names are read by Deno Deploy
 * (which also reads the Deno- prefixed ones), so one of each is sent. Callers decide
 * what is shareable: never experiments, previews, or responses upstream marked private.
 */
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { type CdnKind, responseTags } from "../lib/cdn/tags.ts";

type Pairs = readonly (readonly [string, string])[];

/** Per snapshot (a new one on every config change): base list + CDN headers, by kind/profile. */
const memo = new WeakMap<EdgeSnapshot, Map<string, Pairs>>();

/**
 * `base` followed by the CDN headers for `snap`, or `base` itself when offload is off.
 * The result is the same array for the same (snapshot, base, kind, profile), so the
 * response header memo of a cached object keeps hitting (edge/respond.ts).
 */
export function withCdnHeaders(
  snap: EdgeSnapshot,
  base: Pairs,
  baseName: string,
  kind: CdnKind,
  profile: string | null,
): Pairs {
  if (snap.cdnOffload !== true) return base;
  let m = memo.get(snap);
  if (!m) memo.set(snap, m = new Map());
  const key = `${baseName}\n${kind}\n${profile ?? ""}`;
  let out = m.get(key);
  if (!out) {
    out = [
      ...base,
      ["cdn-cache-control", `max-age=${snap.cacheTtl}`],
      ["cache-tag", responseTags(snap.tenantId, kind, profile).join(",")],
    ];
    if (m.size < 256) m.set(key, out);
  }
  return out;
}

/** True when upstream allowed shared caches to keep it (no private or no-store). */
export function shareable(status: number, headers: readonly (readonly [string, string])[]) {
  if (status !== 200) return false;
  for (const [k, v] of headers) {
    if (k === "cache-control" && /\b(?:no-store|private)\b/i.test(v)) return false;
  }
  return true;
}
