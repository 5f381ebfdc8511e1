/**
 * The management API: one Hono app, one sub-app per area, one error handler that
 * turns every failure into `{ error: { code, message, details? } }`. Only 5xx are logged.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../../lib/http/env.ts";
import { authenticate } from "../../lib/http/auth.ts";
import { ApiError } from "../../lib/errors.ts";
import { allowedMethods, compileRoutes } from "../../lib/http/method_not_allowed.ts";
import { authRoutes } from "./auth.ts";
import { userRoutes } from "./user.ts";
import { tenantRoutes } from "./tenants.ts";
import { membersRoutes } from "./members.ts";
import { auditRoutes } from "./audit.ts";
import { domainsRoutes } from "./domains.ts";
import { cacheControlRoutes } from "./cache_control.ts";
import {
  cacheRefreshReceiverRoutes,
  cacheRefreshWebhooksRoutes,
} from "./cache_refresh_webhooks.ts";
import { aiTransformRoutes } from "./ai_transform.ts";
import { aiExperimentsRoutes } from "./ai_experiments.ts";
import { usageRoutes } from "./usage.ts";
import { adminRoutes } from "./admin.ts";
import { adminUsageRoutes } from "./admin_usage.ts";
import { analyticsRoutes } from "./analytics.ts";
import { adminOpsRoutes } from "./admin_ops.ts";
import { passwordResetRoutes } from "./password_reset.ts";
import { implementationCheckRoutes } from "./implementation_checks.ts";
import { billingRoutes } from "./billing.ts";
import { usageIngestRoutes } from "./usage_ingest.ts";
import { adminPlatformRoutes } from "./admin_platform.ts";
import { adminQuotaRoutes } from "./admin_quota.ts";
import { unavailableError } from "../../lib/db/unavailable.ts";

const SESSIONLESS_PATHS = [
  /^\/api\/ai-experiments\/events$/, // public, CORS-open
  /^\/api\/tenants\/[^/]+\/webhook$/, // publish webhook: query secret
  /^\/api\/ai-transform\/execute$/, // X-AI-Transform-Key
  /^\/api\/billing\/webhook$/, // payment-provider signature
  /^\/api\/usage\/(ingest|check)$/, // X-Ingest-Key
  /^\/api\/demos\/[^/]+$/, // public
];

export function apiRoutes(): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  api.use("*", async (c, next) => {
    await next();
    // Private by default; a public handler (GET /api/demos/:provider) may set its own.
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  });
  // Authenticated by its URL secret only; ahead of the session middleware (SPEC: 404 on auth failure).
  api.route("/", cacheRefreshReceiverRoutes());
  // Public and machine endpoints authenticate by their own means (SPEC "Authentication"):
  // no session is read there, so a visitor's cookie never turns a cross-site event post
  // into a CSRF refusal, and a CMS's own Authorization header never turns a webhook into a 401.
  api.use("*", (c, next) => {
    if (!SESSIONLESS_PATHS.some((re) => re.test(c.req.path))) return authenticate(c, next);
    c.set("auth", null);
    return next();
  });
  api.route("/auth", authRoutes());
  api.route("/user", userRoutes());
  // Area routers use full paths (e.g. /tenants/:slug/members) and are mounted before the
  // generic /tenants/:slug routes so their static segments win.
  api.route("/", membersRoutes());
  api.route("/", auditRoutes());
  api.route("/", domainsRoutes());
  api.route("/", cacheControlRoutes());
  api.route("/", cacheRefreshWebhooksRoutes());
  api.route("/", aiTransformRoutes());
  api.route("/", aiExperimentsRoutes());
  api.route("/", usageRoutes());
  api.route("/", adminRoutes());
  api.route("/", adminUsageRoutes());
  api.route("/", analyticsRoutes());
  api.route("/", adminOpsRoutes());
  api.route("/", passwordResetRoutes());
  api.route("/", implementationCheckRoutes());
  api.route("/", billingRoutes());
  api.route("/", usageIngestRoutes());
  api.route("/", adminPlatformRoutes());
  api.route("/", adminQuotaRoutes());
  api.route("/tenants", tenantRoutes());
  // Unknown paths and methods answer JSON here: the page app would answer HTML (SPEC "Errors").
  let compiled: ReturnType<typeof compileRoutes> | undefined;
  api.all("*", (c) => {
    compiled ??= compileRoutes(api.routes);
    const path = c.req.path.replace(/^\/api(?=\/|$)/, "") || "/";
    const allow = allowedMethods(compiled, path);
    if (allow.length > 0 && !allow.includes(c.req.method)) {
      return new ApiError(405, "method_not_allowed", `${c.req.method} is not allowed here`, {
        allow,
      }, { allow: allow.join(", ") }).toResponse();
    }
    return new ApiError(404, "not_found", `No route for ${c.req.method} ${c.req.path}`)
      .toResponse();
  });
  api.onError((err, c) => errorResponse(err, c.get("services")?.log));
  return api;
}

export function errorResponse(
  err: unknown,
  log?: { error(msg: string, f?: Record<string, unknown>): void },
): Response {
  if (err instanceof ApiError) return err.toResponse();
  if (err instanceof HTTPException) {
    return new ApiError(err.status, "http_error", err.message || "Request failed").toResponse();
  }
  const unavailable = unavailableError(err);
  if (unavailable) {
    log?.error("database unavailable", { error: err instanceof Error ? err.message : String(err) });
    return unavailable.toResponse();
  }
  log?.error("unhandled error", {
    error: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return new ApiError(500, "internal", "Internal error").toResponse();
}
