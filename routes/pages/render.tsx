/** Page rendering helpers: doctype + Preact SSR, and the page-side error mapping. */
import type { Context } from "hono";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import type { AppEnv } from "../../lib/http/env.ts";
import { ApiError } from "../../lib/errors.ts";
import { Layout } from "../../components/Layout.tsx";

export function page(c: Context<AppEnv>, vnode: VNode, status = 200): Response {
  return c.html("<!doctype html>" + renderToString(vnode), status as 200);
}

export function pageUser(c: Context<AppEnv>) {
  const auth = c.get("auth");
  return auth ? { email: auth.user.email, isAdmin: auth.isAdmin } : null;
}

/** Pages answer errors with a page (API routes answer JSON); only 5xx are logged. */
export function pageError(c: Context<AppEnv>, err: unknown): Response {
  if (err instanceof ApiError && err.status === 401) return c.redirect(loginUrlFor(c));
  const status = err instanceof ApiError ? err.status : 500;
  if (status >= 500) {
    c.get("services")?.log.error("page error", { error: String(err), path: c.req.path });
  }
  const message = err instanceof ApiError ? err.message : "Something went wrong";
  return page(
    c,
    <Layout title="Error" user={pageUser(c)}>
      <h1>{status === 404 ? "Not found" : "Error"}</h1>
      <p>{message}</p>
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
