/**
 * A tenant's HTTP caching rules per path (docs/decisions.md "HTTP caching"), compiled once
 * per snapshot object: the API proxy always uses the fixed TTL; assets and the site proxy
 * follow the origin's headers when the tenant's `cacheMode` is "origin".
 */
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { DEFAULT_SWR_SECONDS } from "../lib/tenants/caching.ts";

export type CachingRules = {
  /** Follow the origin's Cache-Control / Expires / Vary (RFC 9111) instead of the fixed TTL. */
  origin: boolean;
  /** The tenant's stale-while-revalidate window in ms (0: off). */
  swrMs: number;
  /** Store (and offload) answers that set a cookie; the cookie itself is still dropped. */
  ignoreSetCookie: boolean;
  /** Origin mode: `swrMs` applies even where the origin did not allow stale answers. */
  staleWhenOriginSilent: boolean;
};

/** Rules of a path without a tenant's settings: fixed TTL, no stale-while-revalidate. */
export const FIXED_RULES: CachingRules = {
  origin: false,
  swrMs: 0,
  ignoreSetCookie: false,
  staleWhenOriginSilent: false,
};

type PerPath = { api: CachingRules; assets: CachingRules; site: CachingRules };
const memo = new WeakMap<EdgeSnapshot, PerPath>();

/** The rules for one path of a snapshot's tenant. */
export function cachingRules(snap: EdgeSnapshot, path: keyof PerPath): CachingRules {
  let m = memo.get(snap);
  if (m === undefined) {
    const c = snap.caching;
    const swrMs = (c?.staleWhileRevalidate ?? DEFAULT_SWR_SECONDS) * 1000;
    const ignoreSetCookie = c?.ignoreSetCookie === true;
    const staleWhenOriginSilent = c?.staleWhenOriginSilent === true;
    const fixed = { origin: false, swrMs, ignoreSetCookie, staleWhenOriginSilent };
    const paths = c?.cacheMode === "origin" ? { ...fixed, origin: true } : fixed;
    m = { api: fixed, assets: paths, site: paths };
    memo.set(snap, m);
  }
  return m[path];
}

/**
 * Accept-Encoding as forwarded to an origin: the codings the upstream clients decode
 * (gzip, deflate, br), in a fixed order, so the value is one of a handful and keys few
 * variants. "" when the visitor accepts none of them.
 */
export function forwardedEncoding(value: string | null): string {
  if (value === null) return "";
  const v = value.toLowerCase();
  const out: string[] = [];
  for (const [c, re] of CODINGS) {
    const m = re.exec(v);
    if (m && (m[1] === undefined || Number(m[1]) > 0)) out.push(c);
  }
  return out.join(", ");
}

/** Each decodable coding with the pattern of its entry in Accept-Encoding (`;q=` optional). */
const CODINGS: readonly (readonly [string, RegExp])[] = ["gzip", "deflate", "br"].map((c) => [
  c,
  new RegExp(`(?:^|,)\\s*${c}\\s*(?:;\\s*q\\s*=\\s*([\\d.]+))?\\s*(?:,|$)`),
]);

/** A visitor's header value fit to forward: printable ASCII, at most 1,000 characters. */
export function safeValue(v: string | null): string | null {
  if (v === null || v.length > 1000 || /[^\x20-\x7e]/.test(v)) return null;
  return v.trim() || null;
}
