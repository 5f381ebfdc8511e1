/**
 * Setting a new password ends every personal access token of the account in the same
 * transaction: a token made by whoever knew the old password must not outlive it
 * (docs/decisions.md "Auth and sessions"). Sessions are the caller's business (a change
 * keeps the caller's own session, a reset ends them all).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import { apiTokens, users } from "../db/schema/mod.ts";

/** Stores `passwordHash` for `userId` and revokes its tokens; how many were revoked. */
export async function replacePassword(
  s: Services,
  userId: string,
  passwordHash: string,
): Promise<number> {
  const now = new Date(s.clock.now());
  return await s.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    const revoked = await tx.update(apiTokens).set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return revoked.length;
  });
}
