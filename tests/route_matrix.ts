/**
 * The tenant role matrix (SPEC "Authentication", tenant role), area by area: each tenant
 * route with the lowest role that may call it (path relative to /api/tenants/:slug) and a
 * harmless probe body. tests/security_matrix_test.ts walks it through real requests;
 * tests/route_declarations_test.ts checks every route's declared access against it.
 */
import type { Role } from "../lib/base/roles.ts";

export type Route = { method: string; path: string; min: Role; body?: unknown };

export const AREAS: Record<string, Route[]> = {
  tenants: [
    { method: "GET", path: "", min: "viewer" },
    { method: "PUT", path: "", min: "admin", body: { cacheTTL: -1 } },
    { method: "PUT", path: "/api-config", min: "admin", body: { cacheTTL: -1 } },
    { method: "PUT", path: "/api-token", min: "admin", body: {} },
    // DELETE has no harmless probe: checked below roles here, and last for the owner.
    { method: "DELETE", path: "", min: "owner" },
  ],
  members: [
    { method: "GET", path: "/members", min: "viewer" },
    { method: "POST", path: "/members/invite", min: "admin", body: {} },
    { method: "POST", path: "/members/remove", min: "admin", body: {} },
    { method: "POST", path: "/members/revoke-invite", min: "admin", body: {} },
    { method: "POST", path: "/members/update-role", min: "admin", body: {} },
  ],
  audit: [
    { method: "GET", path: "/audit-events", min: "viewer" },
  ],
  domains: [
    { method: "GET", path: "/domains", min: "viewer" },
    { method: "POST", path: "/domains", min: "admin", body: {} },
    { method: "DELETE", path: "/domains", min: "admin", body: {} },
    { method: "POST", path: "/domains/verify", min: "admin", body: {} },
  ],
  cache_control: [
    { method: "POST", path: "/refresh-cache", min: "editor", body: { type: "bad" } },
    { method: "POST", path: "/edge-config", min: "editor" },
    { method: "POST", path: "/webhook-secret", min: "editor" },
    { method: "PUT", path: "/webhook-secret", min: "admin" },
  ],
  preview: [
    { method: "POST", path: "/preview-links", min: "editor", body: { path: "bad" } },
    { method: "PUT", path: "/preview-secret", min: "admin" },
    { method: "PUT", path: "/preview-credential", min: "admin", body: { apiOrigin: 1 } },
  ],
  analytics: [
    { method: "GET", path: "/analytics?period=bad", min: "viewer" },
    { method: "GET", path: "/bandwidth-daily?from=bad", min: "viewer" },
    { method: "GET", path: "/logs?limit=0", min: "viewer" },
    { method: "GET", path: "/usage?period=bad", min: "viewer" },
  ],
  implementation_checks: [
    { method: "POST", path: "/website-implementation-check", min: "viewer", body: {} },
    // Read-only and harmless: the tenant has no site proxy, so nothing is probed.
    { method: "POST", path: "/cachely-check", min: "viewer" },
  ],
};
