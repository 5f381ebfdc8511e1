/**
 * Is a state-changing browser request from our own site (CSRF)? The Origin header must
 * equal a full origin of ours: scheme, host and port, never the host alone (an
 * `http://` page of the same host is another origin). Ours is PUBLIC_URL's origin,
 * and the request URL's own origin when its scheme is PUBLIC_URL's (local use by
 * another name such as 127.0.0.1). Behind a TLS-terminating proxy the request URL is
 * http while PUBLIC_URL is https, so only PUBLIC_URL counts there. Without Origin,
 * Sec-Fetch-Site decides; with neither (not a browser) the request passes.
 */
import type { Context } from "hono";
import { forbidden } from "../errors.ts";

export function isSameOrigin(c: Context, publicUrl: string): boolean {
  const origin = c.req.header("origin");
  if (origin !== undefined) return ourOrigins(c.req.url, publicUrl).includes(origin);
  const site = c.req.header("sec-fetch-site");
  return site === undefined || site === "same-origin" || site === "none";
}

/** 403 `csrf_failed` unless the request is from our own site (isSameOrigin). */
export function refuseCrossSite(c: Context, publicUrl: string): void {
  if (!isSameOrigin(c, publicUrl)) throw forbidden("Cross-site request refused", "csrf_failed");
}

function ourOrigins(requestUrl: string, publicUrl: string): string[] {
  const pub = new URL(publicUrl);
  const req = new URL(requestUrl);
  return req.protocol === pub.protocol ? [pub.origin, req.origin] : [pub.origin];
}
