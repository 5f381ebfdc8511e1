/**
 * Users: sign-up, lookup and the master-admin rule (email listed in ADMIN_EMAILS, or
 * granted in the database by `deno task cli admin grant <email>`).
 */
import { eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { users } from "../db/schema/mod.ts";
import { hashPassword } from "../auth/password.ts";
import { conflict } from "../errors.ts";
import type { PublicUser } from "./public_user_schema.ts";

export type User = typeof users.$inferSelect;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A database grant always counts. An ADMIN_EMAILS address counts once its owner has proven
 * it (emailVerifiedAt), except on a loopback-only server where nobody else can sign up
 * first (docs/decisions.md "Email verification": ADMIN_EMAILS).
 */
export function isMasterAdmin(
  s: Services,
  user: { email: string; masterAdmin: boolean; emailVerifiedAt: Date | null },
): boolean {
  if (user.masterAdmin === true) return true;
  if (!s.config.adminEmails.has(normaliseEmail(user.email))) return false;
  return !s.config.adminEmailsNeedVerification || user.emailVerifiedAt != null;
}

/** Grants or revokes the database master-admin flag; false when no such user. */
export async function setMasterAdmin(
  s: Pick<Services, "db" | "clock">,
  email: string,
  on: boolean,
): Promise<boolean> {
  const rows = await s.db.update(users).set({ masterAdmin: on, updatedAt: new Date(s.clock.now()) })
    .where(eq(users.email, normaliseEmail(email))).returning({ id: users.id });
  return rows.length > 0;
}

/** A new account; `verified` when the address is already proven (OAuth sign-in). */
export async function createUser(
  s: Services,
  email: string,
  password: string,
  opts: { verified?: boolean } = {},
): Promise<User> {
  const normal = normaliseEmail(email);
  const passwordHash = await hashPassword(password);
  const rows = await s.db.insert(users).values({
    id: crypto.randomUUID(),
    email: normal,
    passwordHash,
    emailVerifiedAt: opts.verified ? new Date(s.clock.now()) : null,
  }).onConflictDoNothing().returning();
  if (rows.length === 0) throw conflict("Email already registered");
  return rows[0];
}

export async function findUserByEmail(s: Services, email: string): Promise<User | null> {
  const rows = await s.db.select().from(users).where(eq(users.email, normaliseEmail(email)));
  return rows[0] ?? null;
}

export async function findUserById(s: Services, id: string): Promise<User | null> {
  const rows = await s.db.select().from(users).where(eq(users.id, id));
  return rows[0] ?? null;
}

/** What the API shows of a user: never the password hash. */
export function publicUser(s: Services, u: User): PublicUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    isAdmin: isMasterAdmin(s, u),
    /** False until the owner follows the mailed link (docs/decisions.md "Email verification"). */
    emailVerified: u.emailVerifiedAt !== null,
    createdAt: u.createdAt.toISOString(),
  };
}
