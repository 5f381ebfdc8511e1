/**
 * Page rendering: doctype + Preact SSR inside the PageContext (CSP nonce, the pending form
 * outcome of a no-JS post, the path), and the page-side error mapping.
 */
import type { Context } from "hono";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { clearAppCookie, readAppCookie } from "../../lib/http/cookies.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import { ApiError } from "../../lib/errors.ts";
import { databaseErrorText, unavailableError } from "../../lib/db/unavailable.ts";
import { abortedBody, isAbortedBody } from "../../lib/http/aborted_body.ts";
import { databaseErrors } from "../../lib/db/error_counts.ts";
import { Layout } from "../../components/Layout.tsx";
import { PageContext } from "../../components/page_context.ts";
import { FLASH_COOKIE, takeFlash } from "../../lib/dashboard/flash.ts";

/** The CSP nonce when a security-headers middleware set one (Hono's secureHeaders does). */
function cspNonce(c: Context<AppEnv>): string | undefined {
  const vars = c.var as Record<string, unknown>;
  const n = vars.secureHeadersNonce ?? vars.cspNonce;
  return typeof n === "string" ? n : undefined;
}

/** Renders a whole page; every page handler ends with `return page(c, <Layout ...>...</Layout>)`. */
export async function page(c: Context<AppEnv>, vnode: VNode, status = 200): Promise<Response> {
  let flash = null;
  const id = readAppCookie(c, FLASH_COOKIE);
  if (id) {
    const s = c.get("services");
    flash = await takeFlash(s.kv, id, s.clock.now());
    clearAppCookie(c, FLASH_COOKIE);
  }
  const url = new URL(c.req.url);
  const ctx = { nonce: cspNonce(c), flash, path: url.pathname + url.search };
  const html = renderToString(<PageContext.Provider value={ctx}>{vnode}</PageContext.Provider>);
  c.header("cache-control", "no-store");
  return c.html("<!doctype html>" + html, status as 200);
}

/** Session cookie (no Max-Age) that hides the verification banner (POST /verify-email/dismiss). */
export const VERIFY_BANNER_COOKIE = "cachely_verify_banner_hidden";

export function pageUser(c: Context<AppEnv>) {
  const auth = c.get("auth");
  return auth
    ? {
      email: auth.user.email,
      isAdmin: auth.isAdmin,
      emailVerified: auth.user.emailVerifiedAt !== null,
      mailConfigured: Boolean(c.get("services").config.mailTransportUrl),
      oauthProviders: Object.keys(c.get("services").config.oauth),
      verifyBannerDismissed: readAppCookie(c, VERIFY_BANNER_COOKIE) === "1",
    }
    : null;
}

/** Pages answer errors with a page (API routes answer JSON); only 5xx are logged. */
export function pageError(c: Context<AppEnv>, thrown: unknown): Response | Promise<Response> {
  if (thrown instanceof ApiError && thrown.status === 401) return c.redirect(loginUrlFor(c));
  if (isAbortedBody(thrown)) {
    c.get("services")?.log.info("request body aborted", { path: c.req.path });
    return abortedBody().toResponse();
  }
  // An unreachable database is a 503 with Retry-After on pages too, as in the API.
  const unavailable = unavailableError(thrown);
  if (unavailable) databaseErrors.requests++;
  const err = unavailable ?? thrown;
  const status = err instanceof ApiError ? err.status : 500;
  if (status >= 500) {
    c.get("services")?.log.error("page error", {
      error: databaseErrorText(thrown),
      path: c.req.path,
    });
  }
  for (const [k, v] of Object.entries(unavailable?.headers ?? {})) c.header(k, v);
  const message = err instanceof ApiError ? err.message : "Something went wrong";
  const code = err instanceof ApiError ? err.code : "internal";
  const title = status === 404 ? "Not found" : status === 403 ? "Not allowed" : "Error";
  return page(
    c,
    <Layout title={title} user={pageUser(c)}>
      <h1>{title}</h1>
      <p class="notice error" role="alert" data-error-code={code}>{message}</p>
      <p>
        <a href="/dashboard">Back to your tenants</a>
      </p>
    </Layout>,
    status,
  );
}

/**
 * The log-in page that brings the visitor back here afterwards: the page they asked for
 * (GET), or for a form post the page the form was on (Referer, same origin only).
 */
export function loginUrlFor(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  let back = c.req.method === "GET" ? url.pathname + url.search : "";
  if (!back) {
    try {
      const ref = new URL(c.req.header("referer") ?? "");
      if (ref.host === url.host) back = ref.pathname + ref.search;
    } catch { /* none or malformed */ }
  }
  return back && back !== "/" ? `/login?next=${encodeURIComponent(back)}` : "/login";
}
