/**
 * Invites: create-or-refresh (one pending invite per tenant and email), revoke,
 * accept. The token is shown once in the create response (and in the mail); only
 * its SHA-256 is stored, so a database read never yields a usable invite.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import { invites, tenantMembers, tenants, users } from "../db/schema/mod.ts";
import type { Role } from "../base/roles.ts";
import type { Tenant } from "../tenants/service.ts";
import { ApiError, badRequest, forbidden, notFound } from "../errors.ts";
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { sendMail } from "../mail/mod.ts";
import { normaliseEmail } from "../users/mod.ts";
import { type Actor, inviteRefusal } from "./rules.ts";

/** How long an invite stays valid after it is created or refreshed. */
export const INVITE_TTL_MS = 7 * 24 * 3_600_000;
export const INVITE_TOKEN_PREFIX = "cly_inv_";

type InviteRow = typeof invites.$inferSelect;

export type InviteView = {
  id: number;
  email: string;
  role: Role;
  expiresAt: string;
  createdAt: string;
};

function view(r: InviteRow): InviteView {
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    expiresAt: r.expiresAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  };
}

/** Pending invites (neither accepted nor revoked) of one tenant, newest first. */
export async function listPendingInvites(s: Services, tenantId: number): Promise<InviteView[]> {
  const rows = await s.db.select().from(invites).where(and(
    eq(invites.tenantId, tenantId),
    isNull(invites.revokedAt),
    isNull(invites.acceptedAt),
  )).orderBy(desc(invites.id));
  return rows.map(view);
}

/**
 * Creates an invite, or refreshes the pending one for the same email (new token,
 * role and expiry, same id). The old token stops working at once.
 */
export async function createOrRefreshInvite(
  s: Services,
  tenant: Tenant,
  actor: Actor,
  input: { email: string; role: Role },
): Promise<InviteView & { token: string; emailSent: boolean }> {
  const refusal = inviteRefusal(actor, input.role);
  if (refusal) throw forbidden(refusal);
  const email = normaliseEmail(input.email);
  const member = await s.db.select({ userId: tenantMembers.userId }).from(tenantMembers)
    .innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(and(eq(tenantMembers.tenantId, tenant.id), eq(users.email, email)));
  if (member.length > 0) throw badRequest("Invalid email: is already a member");

  const token = randomToken(32, INVITE_TOKEN_PREFIX);
  const tokenHash = await sha256Hex(token);
  const now = s.clock.now();
  const fields = {
    role: input.role,
    tokenHash,
    invitedBy: actor.userId,
    expiresAt: new Date(now + INVITE_TTL_MS),
  };
  const pending = and(
    eq(invites.tenantId, tenant.id),
    eq(invites.email, email),
    isNull(invites.revokedAt),
    isNull(invites.acceptedAt),
  );
  // Refresh the pending invite, else create one; the partial unique index
  // (0005_invites_pending.sql) turns a concurrent create into a refresh on the retry.
  let row: InviteRow | undefined;
  let refreshed = false;
  for (let attempt = 0; attempt < 3 && !row; attempt++) {
    [row] = await s.db.update(invites).set(fields).where(pending).returning();
    refreshed = row !== undefined;
    if (row) break;
    [row] = await s.db.insert(invites).values({
      tenantId: tenant.id,
      email,
      createdAt: new Date(now),
      ...fields,
    }).onConflictDoNothing().returning();
  }
  if (!row) throw new Error("Invite could not be created");
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId: actor.userId,
    action: refreshed ? "member.invite_refreshed" : "member.invited",
    target: email,
    metadata: { inviteId: row.id, role: input.role },
  });
  const emailSent = await sendMail(s, {
    to: email,
    subject: `You are invited to ${tenant.slug} on Cachely`,
    text: [
      `You have been invited to the Cachely project "${tenant.slug}" as ${input.role}.`,
      `Accept within 7 days: ${s.config.publicUrl}/invites/accept?token=${token}`,
      `(or POST {"token": "${token}"} to ${s.config.publicUrl}/api/invites/accept while signed in)`,
    ].join("\n"),
  });
  return { ...view(row), token, emailSent };
}

/** Revokes a pending invite of this tenant; missing, used or already revoked -> 404. */
export async function revokeInvite(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  inviteId: number,
): Promise<void> {
  const rows = await s.db.update(invites).set({ revokedAt: new Date(s.clock.now()) })
    .where(and(
      eq(invites.id, inviteId),
      eq(invites.tenantId, tenant.id),
      isNull(invites.revokedAt),
      isNull(invites.acceptedAt),
    )).returning({ id: invites.id, email: invites.email });
  if (rows.length === 0) throw notFound("Invite");
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId,
    action: "member.invite_revoked",
    target: rows[0].email,
    metadata: { inviteId },
  });
}

/**
 * Makes the signed-in user a member with the invite's role. The invite must be
 * addressed to the user's email (a leaked link alone does not grant access).
 * Unknown token -> 404; revoked, used or expired -> 410 with a code naming which.
 */
export async function acceptInvite(
  s: Services,
  user: { id: string; email: string },
  token: string,
): Promise<{ tenant: string; role: Role }> {
  const tokenHash = await sha256Hex(token);
  const [inv] = await s.db.select().from(invites).where(eq(invites.tokenHash, tokenHash));
  if (!inv) throw notFound("Invite");
  if (inv.revokedAt) throw new ApiError(410, "invite_revoked", "Invite has been revoked");
  if (inv.acceptedAt) throw new ApiError(410, "invite_used", "Invite has already been used");
  if (inv.expiresAt.getTime() <= s.clock.now()) {
    throw new ApiError(410, "invite_expired", "Invite has expired");
  }
  if (normaliseEmail(user.email) !== inv.email) {
    throw forbidden("Invite is addressed to another email", "invite_email_mismatch");
  }
  const now = new Date(s.clock.now());
  const result = await s.db.transaction(async (tx) => {
    // Conditional update: two concurrent accepts of one token cannot both succeed.
    const claimed = await tx.update(invites).set({ acceptedAt: now, acceptedBy: user.id })
      .where(and(eq(invites.id, inv.id), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
      .returning({ id: invites.id });
    if (claimed.length === 0) {
      throw new ApiError(410, "invite_used", "Invite has already been used");
    }
    const inserted = await tx.insert(tenantMembers).values({
      tenantId: inv.tenantId,
      userId: user.id,
      role: inv.role,
      createdAt: now,
      updatedAt: now,
    }).onConflictDoNothing().returning({ role: tenantMembers.role });
    const [t] = await tx.select({ slug: tenants.slug }).from(tenants)
      .where(eq(tenants.id, inv.tenantId));
    // Already a member (joined another way meanwhile): keep the existing role.
    const role = inserted[0]?.role ?? (await tx.select({ role: tenantMembers.role })
      .from(tenantMembers).where(
        and(eq(tenantMembers.tenantId, inv.tenantId), eq(tenantMembers.userId, user.id)),
      ))[0].role;
    await recordAudit(tx, {
      tenantId: inv.tenantId,
      actorUserId: user.id,
      action: "member.joined",
      target: user.id,
      metadata: { inviteId: inv.id, role: inv.role, alreadyMember: inserted.length === 0 },
    });
    return { tenant: t.slug, role };
  });
  return result;
}
