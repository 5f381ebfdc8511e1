/**
 * Which content coding a visitor gets (RFC 9110 §12.5.3 Accept-Encoding). The edge stores br
 * and gzip copies of compressible bodies (edge/cache/variants.ts), the dashboard compresses its
 * pages and serves its bundles precompressed (lib/http/page_compression.ts); this picks one
 * coding, or identity, for a request's Accept-Encoding. Identity is always possible: a header that asks
 * for no coding the edge has, or that cannot be read, gets the identity body, never a 406 or
 * a 500.
 */

/** A coding the edge stores copies in, best first when a visitor rates them equally. */
export type StoredCoding = "br" | "gzip";
export type Coding = StoredCoding | "identity";

/** What an Accept-Encoding header asks for, read once per distinct header value. */
export type Preference = {
  /** The codings to try, best first (identity never listed: it is the fallback). */
  order: readonly StoredCoding[];
  /** `dcz` accepted (RFC 9842 §6.2: zstd against a dictionary the client named). */
  dcz: boolean;
};

const IDENTITY_ONLY: Preference = { order: [], dcz: false };
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Reads an Accept-Encoding value. q-values are honoured (q=0: not acceptable), `*` stands for
 * every coding not named, `x-gzip` is gzip (§8.4.1.3). A coding rated below identity loses to
 * it; a tie goes to the smaller body. Anything malformed (a bad token, a q outside 0-1, a
 * parameter other than q) reads as identity only.
 */
export function parseAcceptEncoding(value: string | null): Preference {
  if (value === null) return IDENTITY_ONLY;
  const q = new Map<string, number>();
  for (const part of value.toLowerCase().split(",")) {
    const item = part.trim();
    if (item === "") continue; // empty list elements are allowed (§5.6.1)
    const [name0, ...params] = item.split(";");
    const name = name0.trim();
    if (!TOKEN.test(name)) return IDENTITY_ONLY;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m === null || !QVALUE.test(m[1])) return IDENTITY_ONLY;
      weight = Number(m[1]);
    }
    const coding = name === "x-gzip" ? "gzip" : name;
    // Named twice: the higher rating counts (a client that lists it twice wants it).
    q.set(coding, Math.max(q.get(coding) ?? 0, weight));
  }
  const star = q.get("*");
  const rate = (c: string) => q.get(c) ?? star ?? 0;
  // Identity is served when nothing else is (§12.5.3 lets it be acceptable by default); a
  // coding rated below an identity the client rated by name loses to it.
  const identity = q.get("identity") ?? 0;
  const order = (["br", "gzip"] as const)
    .filter((c) => rate(c) > 0 && rate(c) >= identity)
    .sort((a, b) => rate(b) - rate(a));
  const dcz = (q.get("dcz") ?? 0) > 0;
  return order.length === 0 && !dcz ? IDENTITY_ONLY : { order, dcz };
}

/**
 * Parsed values, memoised: browsers send a handful of distinct values, and a hit reads one on
 * every request. Bounded in entries and value length; cleared when full.
 */
const memo = new Map<string, Preference>();
const MEMO_ENTRIES = 1024;
const MEMO_MAX_VALUE = 256;

/** parseAcceptEncoding, memoised for short values. */
export function preferenceOf(value: string | null): Preference {
  if (value === null || value === "") return IDENTITY_ONLY;
  const got = memo.get(value);
  if (got !== undefined) return got;
  const p = parseAcceptEncoding(value);
  if (value.length <= MEMO_MAX_VALUE) {
    if (memo.size >= MEMO_ENTRIES) memo.clear();
    memo.set(value, p);
  }
  return p;
}

/**
 * The SHA-256 an `Available-Dictionary` header names (RFC 9842 §2.2: a structured-field byte
 * sequence, `:<base64>:`), as its base64; null when absent or malformed (no dictionary then).
 */
export function availableDictionary(value: string | null): string | null {
  if (value === null) return null;
  const m = /^\s*:([A-Za-z0-9+/]{43}=):\s*$/.exec(value);
  return m === null ? null : m[1];
}

/** The first coding of the preference that `has` holds, else identity. */
export function pickCoding(p: Preference, has: (c: StoredCoding) => boolean): Coding {
  for (const c of p.order) if (has(c)) return c;
  return "identity";
}

/**
 * Content types worth compressing: text, JSON, JavaScript, XML, SVG and their `+json`/`+xml`
 * kin. Images, video, fonts in woff2 and archives are compressed already.
 */
const COMPRESSIBLE =
  /^\s*(?:text\/[a-z0-9.+-]+|application\/(?:json|javascript|ecmascript|x-javascript|xml|xhtml\+xml|rss\+xml|atom\+xml|manifest\+json|ld\+json|graphql-response\+json|wasm|x-ndjson|[a-z0-9.-]+\+(?:json|xml))|image\/svg\+xml|font\/(?:ttf|otf))\s*(?:;|$)/i;

/** True for a content type whose bodies the edge stores compressed copies of. */
export function compressibleType(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

/**
 * The runtime compresses answers on its own unless each says otherwise: Deno before 2.9
 * (Deno.serve's automatic compression, which 2.5 has no switch for). There every answer the
 * edge leaves in identity for a client that accepts gzip or br would be compressed per answer.
 */
export const RUNTIME_COMPRESSES = runtimeCompresses(Deno.version.deno);

/** True for a Deno version whose Deno.serve compresses by default (before 2.9). */
export function runtimeCompresses(version: string): boolean {
  const [major, minor] = version.split(".").map(Number);
  return major < 2 || (major === 2 && minor < 9);
}

/**
 * `cache-control` with no-transform added (RFC 9111 §5.2.2.6), so a runtime that compresses on
 * its own (RUNTIME_COMPRESSES) leaves an answer the program chose to send identity as it is.
 */
export function withNoTransform(cacheControl: string | null): string {
  if (cacheControl === null || cacheControl.trim() === "") return "no-transform";
  return /\bno-transform\b/i.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`;
}
