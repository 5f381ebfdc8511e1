/**
 * Small HTTP helpers of the edge: error responses, request-target parsing
 * without allocating a URL object, and the header filter applied to every
 * upstream response before it is cached or returned (names and values).
 */
import type { ErrorCode } from "../lib/errors.ts";
import { isSafeHeaderValue, markChecked } from "../lib/http/header_value.ts";

/** A JSON error in the API error shape (docs/decisions.md "Errors"), never cached. */
export function edgeError(
  status: number,
  code: ErrorCode,
  message: string,
  extra?: Record<string, string>,
): Response {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-cachely-edge": "1",
    "access-control-allow-origin": "*",
    "x-content-type-options": "nosniff",
    ...extra,
  };
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers });
}

/**
 * A Response carrying `headers`, built the way Deno.serve sends cheapest. Deno 2.9's
 * constructor pre-builds a native copy of body and headers whenever it is given more than a
 * content-type; a Response made without headers and given them afterwards is sent from its
 * header list. Bare Deno.serve, 2 KB body, six headers, per request: 21.1k req/s through the
 * constructor, 25.6k this way (bench/ANALYSIS.md "An upstream client of our own, an honest
 * video reference, the header read"). Content-type is set, not appended: a string body
 * already has the constructor's default one.
 */
export function responseWith(
  body: BodyInit | null,
  status: number,
  headers: readonly (readonly [string, string])[],
): Response {
  const res = new Response(body, { status });
  const h = res.headers;
  let safe = true;
  for (const [k, v] of headers) {
    if (k === "content-type") h.set(k, v);
    else h.append(k, v);
    if (safe && !isSafeHeaderValue(v)) safe = false;
  }
  // Checked here, pair by pair, so the last guard (lib/http/response_guard.ts) need not walk
  // the Headers: its walk builds a sorted copy kept on the Response, which during a burst of
  // misses outlived the young generation (a tenth of what a miss left in the old one).
  return safe ? markChecked(res) : res;
}

/** Path and raw query of a request URL (`http://host/p?q` -> `["/p", "q"]`), no URL parse. */
export function splitTarget(url: string): [string, string] {
  const scheme = url.indexOf("://");
  let start = url.indexOf("/", scheme === -1 ? 0 : scheme + 3);
  if (start === -1) start = url.length;
  let end = url.indexOf("#", start);
  if (end === -1) end = url.length;
  const q = url.indexOf("?", start);
  if (q !== -1 && q < end) return [url.slice(start, q) || "/", url.slice(q + 1, end)];
  return [url.slice(start, end) || "/", ""];
}

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1, RFC 2616 §13.5.1) are meaningful for one
 * connection only and are never forwarded: honojs/hono src/helper/proxy's list
 * (including its `trailers` spelling) plus `upgrade` and `proxy-connection`, and
 * whatever the Connection header names.
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "trailers",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Headers of an upstream response that never reach a visitor or the cache:
 * cookies (a shared cache must not replay one visitor's session, RFC 9111 §7.3),
 * authentication challenges (they would prompt for the tenant's upstream
 * credentials), encoding and length (fetch has already decoded the body; the
 * length is recomputed), and upstream CORS and HSTS (the edge sets its own). `Age` is kept:
 * edge/respond.ts adds the time an answer is held here to it (RFC 9111 §5.1). So is `Date`:
 * it says when the origin made the answer, and Expires is read against it (RFC 9111 §4.2).
 */
const DROPPED = new Set([
  ...HOP_BY_HOP,
  "set-cookie",
  "set-cookie2",
  "www-authenticate",
  "content-encoding",
  "content-length",
  "strict-transport-security",
  "alt-svc",
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-allow-headers",
  "access-control-allow-methods",
  "access-control-expose-headers",
  "access-control-max-age",
  "via",
  "server",
  "x-powered-by",
]);

/** Upstream response headers minus hop-by-hop, cookie and the other dropped headers. */
export function filterResponseHeaders(h: Headers): [string, string][] {
  const pairs: [string, string][] = [];
  h.forEach((v, k) => void pairs.push([k, v]));
  return filterHeaderPairs(pairs);
}

/**
 * The same filter over lower-case name/value pairs (edge/http1/client.ts). A field whose value
 * holds a control byte (lib/http/header_value.ts) is dropped here, where it enters: it would
 * be stored, replayed, and end the process in Deno 2.9's HTTP/1 writer.
 */
export function filterHeaderPairs(pairs: [string, string][]): [string, string][] {
  let extra: string[] | null = null;
  for (const [k, v] of pairs) {
    if (k === "connection") {
      for (const s of v.toLowerCase().split(",")) (extra ??= []).push(s.trim());
    }
  }
  const out: [string, string][] = [];
  for (const p of pairs) {
    const k = p[0];
    if (
      DROPPED.has(k) || k.startsWith("x-cachely-") || (extra !== null && extra.includes(k)) ||
      !isSafeHeaderValue(p[1])
    ) {
      continue;
    }
    out.push(p);
  }
  return out;
}

/** True for bodies whose provider URLs are rewritten: JSON, HTML, CSS, JavaScript. */
export function isRewritable(contentType: string): boolean {
  return /json|html|css|javascript|ecmascript/i.test(contentType);
}

/** True for JSON bodies (`application/json`, `...+json`). */
export function isJson(contentType: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim());
}

/** Largest total of request header names and values accepted before going upstream. */
export const MAX_HEADER_BYTES = 32 * 1024;

/**
 * 413 when the request's headers exceed MAX_HEADER_BYTES. Checked on the way
 * upstream only: a hit never forwards a header, so it need not pay for the sum.
 */
export function oversizeHeaders(req: Request): Response | null {
  let n = 0;
  // forEach, not for...of: Headers' iterator re-sorts the list on every step (bench/ANALYSIS.md)
  req.headers.forEach((v, k) => {
    n += k.length + v.length;
  });
  return n > MAX_HEADER_BYTES
    ? edgeError(413, "request_too_large", "Request too large: headers over 32 KiB")
    : null;
}
