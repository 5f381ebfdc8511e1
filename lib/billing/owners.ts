/**
 * Which account pays for a tenant (decisions.md "Quotas"): its earliest owner. A tenant can
 * have several owners; counting its traffic against each of them would bill it twice.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenantMembers, tenants } from "../db/schema/mod.ts";

/** The billing account of each of `tenantIds` (tenants without an owner are absent). */
export async function billingOwners(
  s: Services,
  tenantIds: number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (tenantIds.length === 0) return out;
  const rows = await s.db.select({ tenantId: tenantMembers.tenantId, userId: tenantMembers.userId })
    .from(tenantMembers)
    .where(and(inArray(tenantMembers.tenantId, tenantIds), eq(tenantMembers.role, "owner")))
    .orderBy(asc(tenantMembers.tenantId), asc(tenantMembers.createdAt), asc(tenantMembers.userId));
  for (const r of rows) if (!out.has(r.tenantId)) out.set(r.tenantId, r.userId);
  return out;
}

export async function billingOwner(s: Services, tenantId: number): Promise<string | null> {
  return (await billingOwners(s, [tenantId])).get(tenantId) ?? null;
}

/** The tenants `userId` pays for, with their slugs, ordered by slug. */
export async function billedTenants(
  s: Services,
  userId: string,
): Promise<{ id: number; slug: string }[]> {
  const owned = await s.db.select({ id: tenants.id, slug: tenants.slug }).from(tenants)
    .innerJoin(tenantMembers, eq(tenantMembers.tenantId, tenants.id))
    .where(and(eq(tenantMembers.userId, userId), eq(tenantMembers.role, "owner")))
    .orderBy(asc(tenants.slug));
  const owners = await billingOwners(s, owned.map((t) => t.id));
  return owned.filter((t) => owners.get(t.id) === userId);
}
