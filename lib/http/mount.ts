/**
 * Mounts declared routes (lib/http/route.ts): one Hono router per URL prefix (the
 * first path segment: /auth, /tenants, /admin ...), each route behind the middleware
 * of its declared access. Within a router, routes are registered most specific
 * first (a static segment before a parameter at the same place), so
 * `/tenants/slug-availability` never depends on being written before `/tenants/:slug`.
 * Every path parameter is checked (checkPathParams) before the access middleware, and a
 * personal access token's scope after it.
 * A route that declares its `response` is checked against it when configured
 * (lib/http/response_check.ts). The handler is called with its declaration's input: the
 * parsed body and query, and the tenant, role and caller its access established.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import type { DeclaredRoute } from "./route.ts";
import { accessMiddleware, tokenScopeMiddleware } from "./access.ts";
import { scopeNeeded } from "../auth/token_scopes.ts";
import { responseCheck } from "./response_check.ts";
import { checkPathParams, parseJsonBody, parseQuery } from "./validate.ts";

/** The first segment of a path (`/tenants/:slug` -> `/tenants`). */
export function prefixOf(path: string): string {
  return "/" + (path.split("/")[1] ?? "");
}

/** Static segments sort before parameters, earlier segments first; ties keep their order. */
export function bySpecificity(a: DeclaredRoute, b: DeclaredRoute): number {
  const sa = a.path.split("/");
  const sb = b.path.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i].startsWith(":") || sa[i] === "*";
    const pb = sb[i].startsWith(":") || sb[i] === "*";
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

export function mountRoutes(api: Hono<AppEnv>, routes: DeclaredRoute[]): void {
  const groups = new Map<string, DeclaredRoute[]>();
  for (const r of routes) {
    const p = prefixOf(r.path);
    groups.set(p, [...groups.get(p) ?? [], r]);
  }
  for (const [prefix, list] of groups) {
    const router = new Hono<AppEnv>();
    for (const r of [...list].sort(bySpecificity)) {
      const rest = r.path.slice(prefix.length) || "/";
      const chain = [
        ...(r.before ?? []),
        checkPathParams,
        accessMiddleware(r.access),
        tokenScopeMiddleware(scopeNeeded(r.method, r.access, r.tokenScope)),
      ];
      if (r.response) chain.push(responseCheck({ ...r, response: r.response }));
      const handler = async (c: Context<AppEnv>) => r.handler(c, await routeInput(c, r));
      router.on(r.method, rest, ...chain as [MiddlewareHandler<AppEnv>], handler);
    }
    api.route(prefix, router);
  }
}

/** Parses what the route declares, after its access middleware ran. */
async function routeInput(c: Context<AppEnv>, r: DeclaredRoute): Promise<Record<string, unknown>> {
  const max = typeof r.bodyMaxBytes === "function" ? r.bodyMaxBytes(c) : r.bodyMaxBytes;
  const seen = c.get("tenantAccess");
  return {
    body: r.body ? await parseJsonBody(c, r.body, max) : undefined,
    query: r.query ? parseQuery(c, r.query) : undefined,
    ...(r.access.kind === "tenant" && seen ? { tenant: seen.tenant, role: seen.role } : {}),
    auth: c.get("auth") ?? undefined,
  };
}
