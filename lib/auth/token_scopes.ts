/**
 * Personal access token scopes (docs/decisions.md "Auth and sessions"): `read` (GET, HEAD),
 * `write` (every other method) and `admin` (master-admin routes, tenant routes that need
 * the tenant admin or owner role, and the account itself: tokens, profile, password).
 * Each scope includes the ones before it, so ["admin"] is a full token. A route may
 * declare a stronger scope than its method and access imply (RouteSpec.tokenScope).
 */
import type { TokenScope } from "../db/schema/core.ts";
import type { Access } from "../http/route.ts";

export type { TokenScope };
export const TOKEN_SCOPES = ["read", "write", "admin"] as const satisfies readonly TokenScope[];

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
const rank = (s: TokenScope) => TOKEN_SCOPES.indexOf(s);

/** The scope a token needs to call a route with this access by this method. */
export function scopeNeeded(method: string, a: Access, declared?: TokenScope): TokenScope {
  const implied: TokenScope = a.kind === "masterAdmin" ||
      (a.kind === "tenant" && (a.role === "admin" || a.role === "owner"))
    ? "admin"
    : SAFE.has(method)
    ? "read"
    : "write";
  return declared && rank(declared) > rank(implied) ? declared : implied;
}

/** Whether a token holding `scopes` may act where `needed` is required. */
export function scopesAllow(scopes: readonly TokenScope[], needed: TokenScope): boolean {
  return scopes.some((s) => rank(s) >= rank(needed));
}
