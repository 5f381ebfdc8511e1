/**
 * Master-admin view of users and blocking. A blocked user cannot log in (auth
 * route), is refused on every request (auth middleware: sessions and tokens), and
 * loses every live session here, at once.
 */
import { and, count, eq, isNull, ne } from "drizzle-orm";
import type { Services } from "../services.ts";
import { apiTokens, tenantMembers, tenants, users } from "../db/schema/mod.ts";
import { findUserById, isMasterAdmin, normaliseEmail, type User } from "../users/mod.ts";
import { deleteUserSessions } from "../auth/sessions.ts";
import { badRequest, conflict, notFound } from "../errors.ts";
import type { AdminUserView, UserBlocked } from "./view_schema.ts";

/** The user, or 404. */
export async function requireUser(s: Services, userId: string): Promise<User> {
  const u = await findUserById(s, userId);
  if (!u) throw notFound("User");
  return u;
}

/** Everything an operator needs about a user; never the password hash. */
export async function adminUserView(s: Services, userId: string): Promise<AdminUserView> {
  const u = await requireUser(s, userId);
  const memberships = await s.db.select({ slug: tenants.slug, role: tenantMembers.role })
    .from(tenantMembers).innerJoin(tenants, eq(tenants.id, tenantMembers.tenantId))
    .where(eq(tenantMembers.userId, u.id)).orderBy(tenants.slug);
  const [{ n }] = await s.db.select({ n: count() }).from(apiTokens)
    .where(and(eq(apiTokens.userId, u.id), isNull(apiTokens.revokedAt)));
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    isAdmin: isMasterAdmin(s, u),
    blocked: u.blocked,
    blockedReason: u.blockedReason,
    tenants: memberships,
    activeTokens: n,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/** Blocks or unblocks a user; blocking ends every session of theirs. */
export async function setUserBlocked(
  s: Services,
  actorUserId: string,
  userId: string,
  input: { blocked: boolean; reason?: string },
): Promise<UserBlocked> {
  const u = await requireUser(s, userId);
  if (u.id === actorUserId && input.blocked) {
    throw badRequest("Invalid userId: cannot block yourself");
  }
  await s.db.update(users).set({
    blocked: input.blocked,
    blockedReason: input.blocked ? input.reason ?? null : null,
    updatedAt: new Date(s.clock.now()),
  }).where(eq(users.id, u.id));
  const sessionsEnded = input.blocked ? await deleteUserSessions(s.kv, u.id) : 0;
  s.log.info(input.blocked ? "user blocked" : "user unblocked", {
    userId: u.id,
    by: actorUserId,
    sessionsEnded,
  });
  return {
    ok: true,
    userId: u.id,
    blocked: input.blocked,
    blockedReason: input.blocked ? input.reason ?? null : null,
    sessionsEnded,
  };
}

export type AdminUserPatch = { name?: string | null; email?: string };

/**
 * Edits a user's name and email (lower-cased like sign-up; another user's email is a
 * 409). Returns the same view as GET /api/admin/users/{userId}.
 */
export async function updateUser(
  s: Services,
  actorUserId: string,
  userId: string,
  patch: AdminUserPatch,
): Promise<AdminUserView> {
  const u = await requireUser(s, userId);
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date(s.clock.now()) };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.email !== undefined) {
    set.email = normaliseEmail(patch.email);
    const taken = await s.db.select({ id: users.id }).from(users)
      .where(and(eq(users.email, set.email), ne(users.id, u.id)));
    if (taken.length > 0) throw conflict("Email already registered");
  }
  try {
    await s.db.update(users).set(set).where(eq(users.id, u.id));
  } catch (e) {
    // A concurrent sign-up may take the email between the check and the update.
    if (isUniqueViolation(e)) throw conflict("Email already registered");
    throw e;
  }
  s.log.info("user updated", { userId: u.id, by: actorUserId, fields: Object.keys(patch) });
  return await adminUserView(s, u.id);
}

function isUniqueViolation(e: unknown): boolean {
  for (let x: unknown = e; x && typeof x === "object"; x = (x as { cause?: unknown }).cause) {
    if ((x as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
