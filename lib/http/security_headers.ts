/**
 * Security headers of every dashboard page (Hono's secureHeaders): a CSP whose only
 * script is the island bundle, carrying a per-response nonce (routes/pages/render.tsx
 * passes it to the Layout), `frame-ancestors 'none'` and X-Frame-Options DENY against
 * framing, nosniff, a same-origin Referrer-Policy (tokens in invite and reset links
 * never leave in a Referer), and HSTS only when PUBLIC_URL is https.
 */
import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./env.ts";

function build(https: boolean): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:", "https:"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "same-origin",
    strictTransportSecurity: https ? "max-age=31536000; includeSubDomains" : false,
  });
}

const byScheme = new Map<boolean, MiddlewareHandler>();

export const pageSecurityHeaders: MiddlewareHandler<AppEnv> = (c, next) => {
  const https = c.get("services").config.publicUrl.startsWith("https:");
  let mw = byScheme.get(https);
  if (!mw) byScheme.set(https, mw = build(https));
  return mw(c, next);
};

/**
 * `X-Content-Type-Options: nosniff` on every answer of the management app (its JSON API
 * included; pages get it above): a browser must not read an API answer as HTML or script.
 */
export const nosniff: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.headers.has("x-content-type-options")) return;
  try {
    c.res.headers.set("x-content-type-options", "nosniff");
  } catch {
    // immutable headers (Response.redirect(), a fetched answer): a copy of the response
    const res = new Response(c.res.body, c.res);
    res.headers.set("x-content-type-options", "nosniff");
    c.res = undefined;
    c.res = res;
  }
};
