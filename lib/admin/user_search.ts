/**
 * Master-admin user search: a case-insensitive substring of email or name, newest
 * accounts first, with each user's plan. An empty query lists the newest accounts.
 */
import { desc, eq, ilike, or } from "drizzle-orm";
import type { Services } from "../services.ts";
import { billingAccounts, users } from "../db/schema/mod.ts";
import { isMasterAdmin } from "../users/mod.ts";
import type { UserSearch } from "./view_schema.ts";

export const USER_SEARCH_MAX = 100;

/** `%`, `_` and `\` match themselves: the query is text, not a LIKE pattern. */
function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** `offset` pages the dashboard's list (admin lists are small; a user list of a few thousand). */
export async function searchUsers(
  s: Services,
  input: { q?: string; limit: number; offset?: number },
): Promise<UserSearch> {
  const q = input.q?.trim() ?? "";
  const rows = await s.db.select({
    id: users.id,
    email: users.email,
    name: users.name,
    blocked: users.blocked,
    masterAdmin: users.masterAdmin,
    emailVerifiedAt: users.emailVerifiedAt,
    createdAt: users.createdAt,
    plan: billingAccounts.planCode,
    adminOverride: billingAccounts.adminOverride,
  }).from(users).leftJoin(billingAccounts, eq(billingAccounts.userId, users.id))
    .where(
      q ? or(ilike(users.email, likeContains(q)), ilike(users.name, likeContains(q))) : undefined,
    )
    .orderBy(desc(users.createdAt), users.email)
    .limit(input.limit + 1)
    .offset(input.offset ?? 0);
  return {
    q,
    users: rows.slice(0, input.limit).map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      blocked: u.blocked,
      isAdmin: isMasterAdmin(s, u),
      plan: u.plan ?? "free",
      adminOverride: u.adminOverride ?? false,
      createdAt: u.createdAt.toISOString(),
    })),
    hasMore: rows.length > input.limit,
  };
}
