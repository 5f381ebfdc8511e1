/**
 * Header names a tenant may not use for its upstream credential: hop-by-hop headers
 * (RFC 9110 §7.6.1), the Fetch standard's forbidden request headers (the runtime
 * refuses or rewrites them), and forwarding headers that would let a tenant speak
 * for the edge. Setting one broke every edge request of the tenant.
 */
const RESERVED = new Set([
  "accept-charset",
  "accept-encoding",
  "access-control-request-headers",
  "access-control-request-method",
  "connection",
  "content-length",
  "content-encoding",
  "content-type",
  "cookie",
  "cookie2",
  "date",
  "dnt",
  "expect",
  "forwarded",
  "host",
  "keep-alive",
  "origin",
  "referer",
  "set-cookie",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "via",
  "x-real-ip",
]);

/** True for a name that is reserved (case-insensitive), including `proxy-*`, `sec-*`, `x-forwarded-*`. */
export function isReservedHeaderName(name: string): boolean {
  const n = name.toLowerCase();
  return RESERVED.has(n) || n.startsWith("proxy-") || n.startsWith("sec-") ||
    n.startsWith("x-forwarded-");
}
