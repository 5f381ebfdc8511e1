/** Tenant members: list, remove, change role. Rules in rules.ts; every query filters by tenant. */
import { and, asc, count, eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenantMembers, users } from "../db/schema/mod.ts";
import type { Role } from "../base/roles.ts";
import type { Tenant } from "../tenants/service.ts";
import { forbidden, notFound } from "../errors.ts";
import { recordAudit } from "../audit/mod.ts";
import { type Actor, removeRefusal, roleChangeRefusal } from "./rules.ts";
import { changeTenant } from "../edge_config/changes.ts";

export type MemberView = {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
  updatedAt: string;
};

export async function listMembers(s: Services, tenantId: number): Promise<MemberView[]> {
  const rows = await s.db.select({
    userId: tenantMembers.userId,
    role: tenantMembers.role,
    createdAt: tenantMembers.createdAt,
    updatedAt: tenantMembers.updatedAt,
    email: users.email,
    name: users.name,
  }).from(tenantMembers).innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(eq(tenantMembers.tenantId, tenantId))
    .orderBy(asc(tenantMembers.createdAt), asc(users.email));
  return rows.map((r) => ({
    userId: r.userId,
    email: r.email,
    name: r.name,
    role: r.role,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

async function findMember(s: Services, tenantId: number, userId: string) {
  const rows = await s.db.select().from(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.userId, userId)));
  if (!rows[0]) throw notFound("Member");
  return rows[0];
}

async function ownerCount(s: Services, tenantId: number): Promise<number> {
  const [{ n }] = await s.db.select({ n: count() }).from(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.role, "owner")));
  return n;
}

/**
 * The actor's role as it is now, inside the transaction: a concurrent request may have
 * demoted or removed them since their role was checked (master admins act as owner).
 */
async function currentActor(tx: Services, tenantId: number, actor: Actor): Promise<Actor> {
  const [row] = await tx.db.select({ role: tenantMembers.role }).from(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.userId, actor.userId)));
  if (row) return { ...actor, role: row.role };
  if (actor.isAdmin) return { ...actor, role: "owner" };
  throw forbidden("You are no longer a member of this tenant");
}

/**
 * Membership changes run in `changeTenant`: the tenant row is locked first, so two
 * owners demoting or removing each other at once are checked one after the other and
 * the last-owner rule always holds (and the snapshot's billing owner follows).
 */
export async function removeMember(
  s: Services,
  tenant: Tenant,
  actor: Actor,
  userId: string,
): Promise<void> {
  await changeTenant(s, tenant.id, async (tx) => {
    const me = await currentActor(tx, tenant.id, actor);
    const target = await findMember(tx, tenant.id, userId);
    const refusal = removeRefusal(me, target, await ownerCount(tx, tenant.id));
    if (refusal) throw forbidden(refusal);
    await tx.db.delete(tenantMembers)
      .where(and(eq(tenantMembers.tenantId, tenant.id), eq(tenantMembers.userId, userId)));
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId: actor.userId,
      action: "member.removed",
      target: userId,
      metadata: { role: target.role },
    });
  });
}

export async function updateMemberRole(
  s: Services,
  tenant: Tenant,
  actor: Actor,
  userId: string,
  role: Role,
): Promise<{ userId: string; role: Role; updatedAt: string }> {
  const now = new Date(s.clock.now());
  await changeTenant(s, tenant.id, async (tx) => {
    const me = await currentActor(tx, tenant.id, actor);
    const target = await findMember(tx, tenant.id, userId);
    const refusal = roleChangeRefusal(me, target, role, await ownerCount(tx, tenant.id));
    if (refusal) throw forbidden(refusal);
    await tx.db.update(tenantMembers).set({ role, updatedAt: now })
      .where(and(eq(tenantMembers.tenantId, tenant.id), eq(tenantMembers.userId, userId)));
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId: actor.userId,
      action: "member.role_changed",
      target: userId,
      metadata: { from: target.role, to: role },
    });
  });
  return { userId, role, updatedAt: now.toISOString() };
}
