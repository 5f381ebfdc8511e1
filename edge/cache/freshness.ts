/**
 * What an origin's response headers say about caching it (RFC 9111, RFC 5861), read once
 * per upstream answer on the miss path. Tolerant by design: contradictory or absurd
 * values (two max-ages, negative or huge numbers, garbage) never throw; they make the
 * answer stale (RFC 9111 §4.2.1: a directive given twice with different values may be
 * treated as stale) or are clamped (docs/decisions.md "HTTP caching").
 */

/** Longest freshness lifetime, stale window or upstream Age the edge honours: one year. */
export const MAX_SECONDS = 31_536_000;
/** Longest stale-while-revalidate / stale-if-error window an origin can ask for: one day. */
export const MAX_STALE_SECONDS = 86_400;
/** Heuristic freshness (§4.2.2): 10 % of the time since Last-Modified, at most one day. */
const HEURISTIC_MAX_MS = 86_400_000;

/** The request headers whose forwarded value may key a variant (docs/decisions.md). */
export const VARY_FORWARDED: ReadonlySet<string> = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
]);

export type OriginFreshness = {
  /** A shared cache may store it: no `no-store`, no `private` (§5.2.2.5, §5.2.2.7). */
  storable: boolean;
  /** Freshness lifetime in ms (s-maxage, max-age, Expires, else heuristic, else 0). */
  lifetimeMs: number;
  /** The lifetime came from the headers or the Last-Modified heuristic (not 0 by default). */
  hasLifetime: boolean;
  /** Never served stale: must-revalidate, proxy-revalidate, s-maxage or no-cache. */
  noStale: boolean;
  /** `no-cache`: stored, but revalidated before every use (§5.2.2.4). */
  noCache: boolean;
  /** stale-while-revalidate=N in ms (RFC 5861 §3), null when absent or invalid. */
  swrMs: number | null;
  /** stale-if-error=N in ms (RFC 5861 §4), null when absent or invalid. */
  sieMs: number | null;
  /** The upstream `Age`, in ms (§5.1): 0 when absent or invalid. */
  ageMs: number;
  /** Lower-case header names the answer varies on, sorted and joined with ","; null: `*` or a name the edge does not forward. */
  vary: string | null;
};

/**
 * `delta-seconds` (§1.2.2), optionally quoted, capped at MAX_SECONDS (§1.2.2 caps an
 * overflowing value rather than refusing it); null when not a non-negative integer.
 */
function deltaSeconds(v: string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const s = v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1) : v;
  if (!/^\d+$/.test(s)) return null;
  return s.length > 9 ? MAX_SECONDS : Math.min(Number(s), MAX_SECONDS);
}

/**
 * Cache-Control directives of all `cache-control` lines: name → value (null without one).
 * A directive repeated with another value maps to `undefined` (contradictory).
 */
export function directives(
  headers: readonly (readonly [string, string])[],
): Map<string, string | null | undefined> {
  const out = new Map<string, string | null | undefined>();
  for (const [k, v] of headers) {
    if (k !== "cache-control") continue;
    for (const part of v.split(",")) {
      const eq = part.indexOf("=");
      const name = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
      if (name === "") continue;
      const value = eq === -1 ? null : part.slice(eq + 1).trim();
      if (out.has(name) && out.get(name) !== value) out.set(name, undefined);
      else out.set(name, value);
    }
  }
  return out;
}

function header(headers: readonly (readonly [string, string])[], name: string): string | null {
  for (const h of headers) if (h[0] === name) return h[1];
  return null;
}

/** A window directive (seconds) in ms, capped at MAX_STALE_SECONDS; null when absent/invalid. */
function windowMs(cc: Map<string, string | null | undefined>, name: string): number | null {
  if (!cc.has(name)) return null;
  const s = deltaSeconds(cc.get(name));
  return s === null ? 0 : Math.min(s, MAX_STALE_SECONDS) * 1000;
}

/** The upstream Age in ms: the first valid value, clamped (negative or garbage → 0). */
export function upstreamAgeMs(headers: readonly (readonly [string, string])[]): number {
  const s = deltaSeconds(header(headers, "age")?.split(",")[0].trim());
  return (s ?? 0) * 1000;
}

/** Reads what an upstream answer's headers say (RFC 9111 §4.2, §5.2.2; RFC 5861). */
export function originFreshness(
  headers: readonly (readonly [string, string])[],
  now: number,
): OriginFreshness {
  const cc = directives(headers);
  const noCache = cc.has("no-cache");
  const sMaxage = cc.has("s-maxage");
  let lifetimeMs = 0;
  let hasLifetime = true;
  if (sMaxage || cc.has("max-age")) {
    // s-maxage overrides max-age for a shared cache (§5.2.2.10); invalid or twice → stale
    lifetimeMs = (deltaSeconds(cc.get(sMaxage ? "s-maxage" : "max-age")) ?? 0) * 1000;
  } else if (header(headers, "expires") !== null) {
    // Expires relative to now (the upstream Date is not kept); an invalid date means stale
    const at = Date.parse(header(headers, "expires")!);
    lifetimeMs = Number.isNaN(at) ? 0 : Math.min(Math.max(0, at - now), MAX_SECONDS * 1000);
  } else {
    const lm = Date.parse(header(headers, "last-modified") ?? "");
    hasLifetime = !Number.isNaN(lm) && lm < now;
    if (hasLifetime) lifetimeMs = Math.min(HEURISTIC_MAX_MS, Math.floor((now - lm) / 10));
  }
  if (noCache) lifetimeMs = 0;
  return {
    storable: !cc.has("no-store") && !cc.has("private"),
    lifetimeMs,
    hasLifetime: hasLifetime && !noCache,
    noStale: noCache || sMaxage || cc.has("must-revalidate") || cc.has("proxy-revalidate"),
    noCache,
    swrMs: windowMs(cc, "stale-while-revalidate"),
    sieMs: windowMs(cc, "stale-if-error"),
    ageMs: upstreamAgeMs(headers),
    vary: varyOf(headers),
  };
}

/** The names of all Vary lines, normalised; null when `*` or a name outside VARY_FORWARDED. */
export function varyOf(headers: readonly (readonly [string, string])[]): string | null {
  const names = new Set<string>();
  for (const [k, v] of headers) {
    if (k !== "vary") continue;
    for (const part of v.split(",")) {
      const n = part.trim().toLowerCase();
      if (n === "") continue;
      if (!VARY_FORWARDED.has(n)) return null; // `*` included
      names.add(n);
    }
  }
  return [...names].sort().join(",");
}

/** True when the request asks for revalidation: `Cache-Control: no-cache` (§5.2.1.4) or `max-age=0`. */
export function requestNoCache(req: Request): boolean {
  const v = req.headers.get("cache-control");
  if (v === null) return false;
  return /(?:^|,)\s*(?:no-cache|max-age\s*=\s*"?0"?)\s*(?:,|$)/i.test(v);
}
