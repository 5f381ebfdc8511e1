/**
 * Origin mode's request headers passed on (docs/decisions.md "HTTP caching: what the origin
 * allows"): like any HTTP intermediary (RFC 9110 §7.6), a site fetch carries the visitor's
 * end-to-end header fields, so an answer that varies on one (`Vary`) is keyed by it. Never
 * passed on: credentials and identity (Cookie, Authorization, User-Agent, Origin, Referer,
 * client addresses), hop-by-hop and framing fields, the fields the edge sets itself
 * (conditionals, Range, Cache-Control), and the routing and override fields that let one
 * visitor change what an origin answers for everyone (X-Forwarded-Host, X-Original-URL,
 * X-HTTP-Method-Override and the like: web cache poisoning through an unkeyed input), and
 * the partial-page requests of front-end frameworks.
 */
import { safeValue } from "./caching.ts";

const NEVER = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "authorization",
  "cache-control",
  "cdn-loop",
  "connection",
  "content-length",
  "content-type",
  "cookie",
  "expect",
  "forwarded",
  "host",
  "keep-alive",
  "max-forwards",
  "next-action",
  "next-url",
  "origin",
  "pragma",
  "priority",
  "proxy-authorization",
  "proxy-connection",
  "purpose",
  "range",
  "referer",
  "rsc",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "user-agent",
  "via",
  "x-requested-with",
]);
/**
 * Prefixes of names never passed on: conditionals, proxies' and platforms' own fields, and the
 * fields with which page-fragment frameworks (htmx, Turbo, PJAX, Inertia, Unpoly, Next.js) ask
 * for a partial page, which an origin that forgets `Vary` would answer under the page's key.
 */
const NEVER_PREFIX =
  /^(?:if-|hx-|turbo-|x-pjax|x-inertia|x-up-|x-turbo|next-router-|x-forwarded|x-original|x-rewrite|x-override|x-http-|x-method|x-host|x-real-ip|x-client-|x-cluster-client-ip|true-client-ip|client-ip|x-remote-|x-originating-|x-custom-ip|x-proxyuser|x-cachely|cf-|fly-|x-vercel|x-now-|x-middleware|x-invoke|x-nextjs|x-amz-|x-envoy|sec-|proxy-)/;
/** At most this many fields are passed on (the rest are dropped). */
const MAX_FIELDS = 24;

/** Whether a (lower-case) request header name is passed on to the origin in origin mode. */
export function passedOn(name: string): boolean {
  return !NEVER.has(name) && !NEVER_PREFIX.test(name);
}

/** The visitor's fields passed on, values bounded as safeValue() does (miss path only). */
export function passedOnFields(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const [name, value] of req.headers) {
    if (!passedOn(name)) continue;
    const v = safeValue(value);
    if (v === null) continue;
    out[name] = v;
    if (++n === MAX_FIELDS) break;
  }
  return out;
}

/** A passed-on field's value as it keys a variant ("" when absent or not passed on). */
export function passedOnValue(req: Request, name: string): string {
  return passedOn(name) ? safeValue(req.headers.get(name)) ?? "" : "";
}
