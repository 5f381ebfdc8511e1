/**
 * The management API: declared routes (one file per area), one router per URL prefix, one error handler that
 * turns every failure into `{ error: { code, message, details? } }`. Only 5xx are logged.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../../lib/http/env.ts";
import type { DeclaredRoute } from "../../lib/http/route.ts";
import { mountRoutes } from "../../lib/http/mount.ts";
import { ApiError } from "../../lib/errors.ts";
import { allowedMethods, compileRoutes } from "../../lib/http/method_not_allowed.ts";
import { authRoutes } from "./auth.ts";
import { userRoutes } from "./user.ts";
import { tenantRoutes } from "./tenants.ts";
import { membersRoutes } from "./members.ts";
import { auditRoutes } from "./audit.ts";
import { domainsRoutes } from "./domains.ts";
import { cacheControlRoutes } from "./cache_control.ts";
import { previewRoutes } from "./preview.ts";
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
import { openApiRoutes } from "./openapi.ts";
import { databaseErrorText, unavailableError } from "../../lib/db/unavailable.ts";
import { abortedBody, isAbortedBody } from "../../lib/http/aborted_body.ts";
import type { Logger } from "../../lib/log.ts";
import { databaseErrors } from "../../lib/db/error_counts.ts";

/** Every declared API route (lib/http/route.ts), area by area. */
export function apiDeclarations(): DeclaredRoute[] {
  return [
    authRoutes(),
    passwordResetRoutes(),
    userRoutes(),
    tenantRoutes(),
    membersRoutes(),
    auditRoutes(),
    domainsRoutes(),
    cacheControlRoutes(),
    previewRoutes(),
    cacheRefreshWebhooksRoutes(),
    cacheRefreshReceiverRoutes(),
    aiTransformRoutes(),
    aiExperimentsRoutes(),
    usageRoutes(),
    analyticsRoutes(),
    implementationCheckRoutes(),
    billingRoutes(),
    usageIngestRoutes(),
    adminRoutes(),
    adminUsageRoutes(),
    adminOpsRoutes(),
    adminPlatformRoutes(),
    adminQuotaRoutes(),
    openApiRoutes(apiDeclarations),
  ].flatMap((r) => r.list);
}

export function apiRoutes(): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  api.use("*", async (c, next) => {
    await next();
    // Private by default; a public handler (GET /api/demos/:provider) may set its own.
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  });
  // Each route runs the middleware of its declared access (lib/http/access.ts): no path
  // decides authentication, and each URL prefix has one router (lib/http/mount.ts).
  mountRoutes(api, apiDeclarations());
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

export function errorResponse(err: unknown, log?: Pick<Logger, "error" | "info">): Response {
  if (err instanceof ApiError) return err.toResponse();
  if (isAbortedBody(err)) {
    log?.info("request body aborted", { error: (err as Error).message });
    return abortedBody().toResponse();
  }
  if (err instanceof HTTPException) {
    return new ApiError(err.status, "http_error", err.message || "Request failed").toResponse();
  }
  const unavailable = unavailableError(err);
  if (unavailable) {
    databaseErrors.requests++;
    log?.error("database unavailable", { error: databaseErrorText(err) });
    return unavailable.toResponse();
  }
  log?.error("unhandled error", {
    error: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return new ApiError(500, "internal", "Internal error").toResponse();
}
