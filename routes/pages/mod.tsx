/** Server-rendered pages: landing, auth pages, dashboard, and static files. */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { authenticate } from "../../lib/http/auth.ts";
import { pageSecurityHeaders } from "../../lib/http/security_headers.ts";
import { safeNext } from "../../lib/http/next.ts";
import { badRequest } from "../../lib/errors.ts";
import { pageError } from "./render.tsx";
import { landingPage } from "./landing.tsx";
import { authPages } from "./auth.tsx";
import { oauthPages } from "./oauth.ts";
import { staticRoutes } from "./static.ts";
import { sdkTarballRoutes } from "./sdk_tarball.ts";
import type { Dispatch } from "./forms.tsx";
import { refuseOversizedPageBody } from "./form_post.ts";

/**
 * Where the page groups of routes/pages/groups.tsx answer: each of their routes is one of these
 * paths or below one (tests/startup_imports_test.ts checks). No eager route is below them.
 */
export const PAGE_GROUP_PREFIXES = [
  "/dashboard",
  "/invites",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/forms",
  "/api-reference",
  "/admin",
  "/account",
];

export function pageRoutes(dispatch: Dispatch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", pageSecurityHeaders);
  app.use("*", dropTrailingSlash);
  app.use("*", refuseOversizedPageBody);
  app.route("/static", staticRoutes());
  app.route("/sdk", sdkTarballRoutes());
  app.use("*", authenticate);
  app.get("/", landingPage);
  app.route("/", authPages());
  app.route("/", oauthPages());
  app.use("*", lazyPageGroups(dispatch));
  app.onError((err, c) => pageError(c, err));
  return app;
}

/**
 * `/dashboard/acme/` answers as `/dashboard/acme` (a 301) instead of "Not found": routes have no
 * trailing slash, and people type one. Only below the page prefixes, so `//evil.example/` can
 * never become a redirect off-site. The target is the path as sent (still percent-encoded:
 * Hono's `c.req.path` is decoded, and a decoded `%0B` in Location ended the process), and
 * only what safeNext() keeps as it is (lib/http/next.ts).
 */
const dropTrailingSlash: MiddlewareHandler<AppEnv> = async (c, next) => {
  const path = c.req.path;
  const trimmed = path.replace(/\/+$/, "");
  if (
    trimmed !== path && (c.req.method === "GET" || c.req.method === "HEAD") &&
    PAGE_GROUP_PREFIXES.some((p) => trimmed === p || trimmed.startsWith(`${p}/`))
  ) {
    const url = new URL(c.req.url);
    const target = url.pathname.replace(/\/+$/, "") + url.search;
    if (safeNext(target, c.get("services").config.publicUrl) !== target) {
      const message = "cannot be redirected to";
      throw badRequest(`Invalid path: ${message}`, { fields: [{ path: "path", message }] });
    }
    return c.redirect(target, 301);
  }
  await next();
};

/** The outer request's context, handed to the page groups' app through its env. */
const OUTER = Symbol("outer context");
type GroupEnv = { [OUTER]: Context<AppEnv>; unrouted?: boolean };

/**
 * The page groups (routes/pages/groups.tsx), imported and built on the first request under
 * PAGE_GROUP_PREFIXES, then run in this request's context: its variables (services, client IP,
 * auth, the CSP nonce) are copied in and its errors render through pageError, as when the groups
 * were mounted here. A request they do not route goes on to the next handler, as it did then.
 */
function lazyPageGroups(dispatch: Dispatch): MiddlewareHandler<AppEnv> {
  let built: Promise<Hono<AppEnv>> | undefined;
  const build = async () => {
    const { pageGroups } = await import("./groups.tsx");
    const app = new Hono<AppEnv>();
    app.use("*", async (c, next) => {
      const outer = (c.env as GroupEnv)[OUTER];
      for (const [k, v] of Object.entries(outer.var)) c.set(k as keyof AppEnv["Variables"], v);
      await next();
    });
    app.route("/", pageGroups(dispatch));
    app.notFound((c) => {
      (c.env as GroupEnv).unrouted = true;
      return c.body(null, 404);
    });
    app.onError((err, c) => pageError(c, err));
    return app;
  };
  return async (c, next) => {
    const path = c.req.path;
    if (!PAGE_GROUP_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) {
      return await next();
    }
    built ??= build();
    const env: GroupEnv = { ...(c.env as object), [OUTER]: c };
    const res = await (await built).fetch(c.req.raw, env);
    if (env.unrouted) return await next();
    return res;
  };
}
