/**
 * What an origin's response headers say about caching it (RFC 9111, RFC 5861), read once
 * per upstream answer on the miss path. Tolerant by design: contradictory or absurd
 * values (two max-ages, negative or huge numbers, garbage) never throw; they make the
 * answer stale (RFC 9111 §4.2.1: a directive given twice with different values may be
 * treated as stale) or are clamped (docs/decisions.md "HTTP caching").
 */
import { passedOn } from "../passed_on.ts";

/** Longest freshness lifetime, stale window or upstream Age the edge honours: one year. */
export const MAX_SECONDS = 31_536_000;
/** Longest stale-while-revalidate / stale-if-error window an origin can ask for: one day. */
export const MAX_STALE_SECONDS = 86_400;
/** Heuristic freshness (§4.2.2): 10 % of the time since Last-Modified, at most one day. */
const HEURISTIC_MAX_MS = 86_400_000;

/**
 * The negotiation headers the edge forwards with a visitor's value (bounded or normalised);
 * in origin mode the site proxy also passes other end-to-end fields on (passedOn), the only
 * other names an answer can vary on (docs/decisions.md "HTTP caching: what the origin allows").
 */
export const VARY_FORWARDED: ReadonlySet<string> = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
]);

export type OriginFreshness = {
  /**
   * A shared cache may store it: no `no-store`, no `private` (§5.2.2.5, §5.2.2.7) in the
   * field that governs (CONTROL_FIELDS), no `Surrogate-Control: no-store`.
   */
  storable: boolean;
  /** Why it may not be stored: "no-store" or "private" (null when storable). */
  refusal: "no-store" | "private" | null;
  /** Freshness lifetime in ms (s-maxage, max-age, Expires, else heuristic, else 0). */
  lifetimeMs: number;
  /** The lifetime came from the headers or the Last-Modified heuristic (not 0 by default). */
  hasLifetime: boolean;
  /** The lifetime is the Last-Modified heuristic's (§4.2.2), not the origin's word. */
  heuristic: boolean;
  /** Never served stale: must-revalidate, proxy-revalidate, s-maxage or no-cache. */
  noStale: boolean;
  /** `no-cache`: stored, but revalidated before every use (§5.2.2.4). */
  noCache: boolean;
  /** public, s-maxage or must-revalidate: storable for a request with Authorization (§3.5). */
  sharedDespiteAuth: boolean;
  /** stale-while-revalidate=N in ms (RFC 5861 §3), null when absent or invalid. */
  swrMs: number | null;
  /** stale-if-error=N in ms (RFC 5861 §4), null when absent or invalid. */
  sieMs: number | null;
  /** The upstream `Age`, in ms (§5.1): 0 when absent or invalid. */
  ageMs: number;
  /**
   * Lower-case forwarded header names the answer varies on, sorted and joined with ",";
   * null for `*`. Names the edge never forwards are left out (the origin never saw them).
   */
  vary: string | null;
};

/**
 * The fields that carry caching directives, the first one present governing (RFC 9213 §2.1:
 * a cache obeys the most specific field targeted at it and ignores the others). Cachely's own
 * field, then the one for every CDN, then Cache-Control.
 */
export const CONTROL_FIELDS = ["cachely-cdn-cache-control", "cdn-cache-control", "cache-control"];

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
 * Cache-Control directives of all `cache-control` lines: name -> value (null without one).
 * A directive repeated with another value maps to `undefined` (contradictory).
 */
export function directives(
  headers: readonly (readonly [string, string])[],
  field = "cache-control",
): Map<string, string | null | undefined> {
  const out = new Map<string, string | null | undefined>();
  for (const [k, v] of headers) {
    if (k !== field) continue;
    for (const part of v.split(",")) {
      const eq = part.indexOf("=");
      const raw = eq === -1 ? part : part.slice(0, eq);
      // `token "=" value` has no whitespace around "=" (§5.2): `max-age = 60` is no max-age
      if (eq !== -1 && (SPACE_END.test(raw) || SPACE_START.test(part.slice(eq + 1)))) continue;
      const name = raw.trim().toLowerCase();
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

/** The upstream Age in ms: the first valid value, clamped (negative or garbage -> 0). */
export function upstreamAgeMs(headers: readonly (readonly [string, string])[]): number {
  const s = deltaSeconds(header(headers, "age")?.split(",")[0].trim());
  return (s ?? 0) * 1000;
}

const SPACE_END = /[ \t]$/;
const SPACE_START = /^[ \t]/;

/**
 * The directives of the field that governs (CONTROL_FIELDS): the first one present and, for
 * the CDN fields, valid (RFC 9213 §2.1: one that does not parse as a Structured Fields
 * Dictionary with integer lifetimes is ignored, as if absent).
 */
export function governingDirectives(
  headers: readonly (readonly [string, string])[],
): Map<string, string | null | undefined> {
  for (const field of CONTROL_FIELDS) {
    if (header(headers, field) === null) continue;
    if (field !== "cache-control" && !validTargetedField(headers, field)) continue;
    return directives(headers, field);
  }
  return new Map();
}

/** One Dictionary member (RFC 8941 §3.2): a key, an optional bare item, parameters. */
const SF_MEMBER =
  /^([a-z*][a-z0-9_.*-]*)(?:=(-?\d{1,15}(?:\.\d{1,3})?|"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*"|[A-Za-z*][!#$%&'*+.^_`|~0-9A-Za-z:/-]*|:[A-Za-z0-9+/=]*:|\?[01]))?(?:;[ ]*[a-z*][a-z0-9_.*-]*(?:=[^;]*)?)*$/;
/** Directives whose value is an integer number of seconds in a targeted field. */
const SF_SECONDS = new Set(["max-age", "s-maxage", "stale-while-revalidate", "stale-if-error"]);

/** Whether every line of a targeted field is a valid Dictionary (quoted commas kept whole). */
function validTargetedField(headers: readonly (readonly [string, string])[], field: string) {
  for (const [k, v] of headers) {
    if (k !== field) continue;
    for (const member of v.match(/(?:"(?:[^"\\]|\\.)*"|[^,"])+|,/g) ?? []) {
      if (member === ",") continue;
      const m = SF_MEMBER.exec(member.trim());
      if (m === null) return false;
      if (SF_SECONDS.has(m[1]) && !/^\d+$/.test(m[2] ?? "")) return false;
    }
  }
  return true;
}

/** Reads what an upstream answer's headers say (RFC 9111 §4.2, §5.2.2; RFC 5861; RFC 9213). */
export function originFreshness(
  headers: readonly (readonly [string, string])[],
  now: number,
): OriginFreshness {
  const cc = governingDirectives(headers);
  const noCache = cc.has("no-cache");
  const sMaxage = cc.has("s-maxage");
  // The origin's Date stands for "now" at the origin (§4.2.1): Expires and Last-Modified are
  // read against it, so a skewed origin clock does not stretch or cut the lifetime.
  const date = httpDate(header(headers, "date"));
  const originNow = date ?? now;
  let lifetimeMs = 0;
  let hasLifetime = true;
  let heuristic = false;
  if (sMaxage || cc.has("max-age")) {
    // s-maxage overrides max-age for a shared cache (§5.2.2.10); invalid or twice -> stale
    lifetimeMs = (deltaSeconds(cc.get(sMaxage ? "s-maxage" : "max-age")) ?? 0) * 1000;
  } else if (header(headers, "expires") !== null) {
    // Expires - Date (§4.2.1); anything but an HTTP-date means already expired (§5.3)
    const at = httpDate(header(headers, "expires"));
    lifetimeMs = at === null ? 0 : Math.min(Math.max(0, at - originNow), MAX_SECONDS * 1000);
  } else {
    const lm = httpDate(header(headers, "last-modified"));
    hasLifetime = lm !== null && lm < originNow;
    heuristic = hasLifetime;
    if (hasLifetime) {
      lifetimeMs = Math.min(HEURISTIC_MAX_MS, Math.floor((originNow - lm!) / 10));
    }
  }
  if (noCache) lifetimeMs = 0;
  const refusal = cc.has("no-store") || surrogateNoStore(headers)
    ? "no-store"
    : cc.has("private")
    ? "private"
    : null;
  return {
    storable: refusal === null,
    refusal,
    lifetimeMs,
    hasLifetime: hasLifetime && !noCache,
    heuristic,
    noStale: noCache || sMaxage || cc.has("must-revalidate") || cc.has("proxy-revalidate"),
    noCache,
    sharedDespiteAuth: sMaxage || cc.has("public") || cc.has("must-revalidate"),
    swrMs: windowMs(cc, "stale-while-revalidate"),
    sieMs: windowMs(cc, "stale-if-error"),
    ageMs: upstreamAgeMs(headers),
    vary: varyOf(headers),
  };
}

/** `Surrogate-Control: no-store` (the Edge Architecture field some origins still send). */
function surrogateNoStore(headers: readonly (readonly [string, string])[]): boolean {
  for (const [k, v] of headers) {
    if (k === "surrogate-control" && /(?:^|[,\s])no-store(?:$|[,\s=])/i.test(v)) return true;
  }
  return false;
}

/**
 * The forwarded names of all Vary lines, normalised; null for `*`. A name neither in
 * VARY_FORWARDED nor passed on (edge/passed_on.ts: Cookie, Origin, User-Agent, ...) is left
 * out: the edge sends the origin no visitor value for it, so every visitor's answer is the
 * same for it.
 */
export function varyOf(headers: readonly (readonly [string, string])[]): string | null {
  const names = new Set<string>();
  for (const [k, v] of headers) {
    if (k !== "vary") continue;
    for (const part of v.split(",")) {
      const n = part.trim().toLowerCase();
      if (n === "*") return null;
      if (n !== "" && (VARY_FORWARDED.has(n) || passedOn(n))) names.add(n);
    }
  }
  return [...names].sort().join(",");
}

const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
/**
 * IMF-fixdate, obsolete RFC 850 and asctime forms (RFC 9110 §5.6.7), letter case aside (as
 * recipients commonly read them: `THU, 18 AUG 2050 ... gmt` is that date).
 */
const IMF = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
const RFC850 = /^[a-z]+day, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
const ASCTIME = /^[a-z]{3} ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/**
 * An HTTP-date (RFC 9110 §5.6.7) in ms, or null for anything else: `Date.parse` accepts
 * "0", "2099-01-01" or a JavaScript date string, which RFC 9111 §5.3 says mean "expired".
 */
export function httpDate(v: string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const s = v.trim();
  let m = IMF.exec(s);
  let parts: { d: string; mon: string; y: number; time: string[] };
  if (m) parts = { d: m[1], mon: m[2], y: Number(m[3]), time: m.slice(4, 7) };
  else if ((m = RFC850.exec(s))) {
    // two-digit years: the RFC 9110 §5.6.7 rule, simplified to 1970-2069
    const yy = Number(m[3]);
    parts = { d: m[1], mon: m[2], y: yy + (yy < 70 ? 2000 : 1900), time: m.slice(4, 7) };
  } else if ((m = ASCTIME.exec(s))) {
    parts = { d: m[2], mon: m[1], y: Number(m[6]), time: m.slice(3, 6) };
  } else return null;
  const { d, y } = parts;
  const mon = parts.mon[0].toUpperCase() + parts.mon.slice(1).toLowerCase();
  const [hh, mm, ss] = parts.time;
  const month = MONTHS.indexOf(mon) / 3;
  if (!Number.isInteger(month)) return null;
  const day = Number(d.trim());
  const t = Date.UTC(y, month, day, Number(hh), Number(mm), Number(ss));
  // 31 Feb and 25:00 roll over in Date.UTC: refuse them instead
  const check = new Date(t);
  if (check.getUTCDate() !== day || check.getUTCHours() !== Number(hh)) return null;
  if (Number(mm) > 59 || Number(ss) > 60) return null;
  return t;
}

/** True when the request asks for revalidation: `Cache-Control: no-cache` (§5.2.1.4) or `max-age=0`. */
export function requestNoCache(req: Request): boolean {
  const v = req.headers.get("cache-control");
  if (v === null) return false;
  return /(?:^|,)\s*(?:no-cache|max-age\s*=\s*"?0"?)\s*(?:,|$)/i.test(v);
}
