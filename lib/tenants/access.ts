/**
 * Tenant access: the caller must be a member with at least the required role,
 * or a master admin (access override). Non-members get 404, so tenant existence
 * does not leak; members below the role get 403.
 */
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, AuthContext } from "../http/env.ts";
import { requireAuth } from "../http/auth.ts";
import { tenantMembers } from "../db/schema/mod.ts";
import { findTenantBySlug, type Tenant } from "./service.ts";
import { atLeast, type Role } from "../base/roles.ts";
import { ApiError, notFound } from "../errors.ts";
import type { Services } from "../services.ts";

export type TenantAccess = { tenant: Tenant; role: Role; auth: AuthContext };

export async function memberRole(
  s: Services,
  tenantId: number,
  userId: string,
): Promise<Role | null> {
  const rows = await s.db.select({ role: tenantMembers.role }).from(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.userId, userId)));
  return rows[0]?.role ?? null;
}

export async function requireTenant(
  c: Context<AppEnv>,
  minRole: Role,
  slugParam = "slug",
): Promise<TenantAccess> {
  const auth = requireAuth(c);
  const s = c.get("services");
  const slug = c.req.param(slugParam) ?? "";
  // The tenant access middleware (lib/http/access.ts) already looked it up for this request.
  const seen = c.get("tenantAccess");
  if (seen && seen.tenant.slug === slug.toLowerCase()) return checkRole(seen, minRole);
  const tenant = await findTenantBySlug(s, slug.toLowerCase());
  if (!tenant) throw notFound("Tenant");
  const role = await memberRole(s, tenant.id, auth.user.id) ?? (auth.isAdmin ? "owner" : null);
  if (!role) throw notFound("Tenant");
  const found = { tenant, role, auth };
  c.set("tenantAccess", found);
  return checkRole(found, minRole);
}

function checkRole(a: TenantAccess, minRole: Role): TenantAccess {
  if (!atLeast(a.role, minRole)) {
    throw new ApiError(403, "forbidden", `Requires role ${minRole} or higher`);
  }
  return a;
}
