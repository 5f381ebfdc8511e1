/**
 * One middleware per access kind (lib/http/route.ts `Access`), run before every
 * declared route's handler. Only session, tenant and master-admin routes read the
 * session cookie or bearer token, so a visitor's cookie never turns a public or
 * machine call into a CSRF refusal, and a CMS's own Authorization header never turns
 * a webhook into a 401. Webhook secrets are checked by their receivers (query secret
 * per tenant, hashed path secret, provider signature), which know the stored secret.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import type { Access, MachineKey } from "./route.ts";
import { authenticate, requireAuth, requireMasterAdmin } from "./auth.ts";
import { requireTenant } from "../tenants/access.ts";
import { timingSafeEqual } from "../crypto/mod.ts";
import { forbidden, unauthorized } from "../errors.ts";
import { scopesAllow, type TokenScope } from "../auth/token_scopes.ts";
import { requireIngestKey } from "../usage/ingest.ts";
import type { Config } from "../config.ts";

const noSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("auth", null);
  await next();
};

const session: MiddlewareHandler<AppEnv> = (c, next) =>
  authenticate(c, () => {
    requireAuth(c);
    return next();
  });

const masterAdmin: MiddlewareHandler<AppEnv> = (c, next) =>
  authenticate(c, () => {
    requireMasterAdmin(c);
    return next();
  });

function tenant(role: Access & { kind: "tenant" }): MiddlewareHandler<AppEnv> {
  return (c, next) =>
    authenticate(c, async () => {
      await requireTenant(c, role.role);
      await next();
    });
}

/** Each machine key's check: constant-time, refused when the key is not configured. */
const MACHINE_KEYS: Record<MachineKey, (config: Config, headers: Headers) => void> = {
  aiTransform: (config, headers) => {
    const key = config.aiTransformKey;
    const given = headers.get("x-ai-transform-key") ?? "";
    if (!key || !timingSafeEqual(given, key)) throw unauthorized("Invalid transform key");
  },
  ingest: (config, headers) =>
    requireIngestKey(config.ingestKey, headers.get("x-ingest-key") ?? undefined),
};

function machineKey(a: Access & { kind: "machineKey" }): MiddlewareHandler<AppEnv> {
  const check = MACHINE_KEYS[a.key];
  return async (c, next) => {
    check(c.get("services").config, c.req.raw.headers);
    c.set("auth", null);
    await next();
  };
}

/** The middleware for a declared access. */
export function accessMiddleware(a: Access): MiddlewareHandler<AppEnv> {
  switch (a.kind) {
    case "public":
    case "webhookSecret":
      return noSession;
    case "session":
      return session;
    case "masterAdmin":
      return masterAdmin;
    case "tenant":
      return tenant(a);
    case "machineKey":
      return machineKey(a);
  }
}

/** For exhaustiveness in callers that describe access (OpenAPI, tests). */
export function describeAccess(a: Access): string {
  switch (a.kind) {
    case "tenant":
      return `session, tenant role ${a.role}+`;
    case "machineKey":
      return a.key === "ingest" ? "header X-Ingest-Key" : "header X-AI-Transform-Key";
    case "webhookSecret":
      return a.carrier === "signature"
        ? "payment-provider signature header"
        : `secret in the URL ${a.carrier}`;
    case "masterAdmin":
      return "session, master admin";
    default:
      return a.kind;
  }
}

/**
 * After the access middleware: a personal access token must hold the scope the route
 * needs (lib/auth/token_scopes.ts scopeNeeded); sessions are not scoped.
 */
export function tokenScopeMiddleware(needed: TokenScope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = c.get("auth");
    if (auth?.via === "token" && !scopesAllow(auth.scopes ?? [], needed)) {
      throw forbidden(
        `This token's scopes (${
          (auth.scopes ?? []).join(", ")
        }) do not allow this: it needs ${needed}`,
        "insufficient_scope",
      );
    }
    await next();
  };
}
