/**
 * The owner of an address takes over the account registered with it when nobody had
 * verified that account (docs/decisions.md "Email verification"): the owner has just
 * proven the address (a provider-verified email, a mailed password-reset link), while whoever
 * made the account may have been a squatter (a "pre-hijack"). Every credential the maker
 * could still hold ends: the password is replaced, API tokens revoked, sessions ended.
 * An account already verified is left alone (its maker proved the address too).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import { apiTokens, users } from "../db/schema/mod.ts";
import { randomToken } from "../crypto/mod.ts";
import { hashPassword } from "./password.ts";
import { deleteUserSessions } from "./sessions.ts";
import { dropPendingVerification } from "./email_verification.ts";
import { markTakeoverReview } from "./takeover_review.ts";

export type ClaimResult = { claimed: boolean; tokensRevoked: number; sessionsEnded: number };

/**
 * Claims the unverified account `userId` for the proven owner. `passwordHash` is the owner's
 * new password (a reset); without it an unguessable one (OAuth: "Forgot your password?" sets
 * a real one). `claimed: false` when the account was verified already (nothing changed).
 */
export async function claimUnverifiedAccount(
  s: Services,
  userId: string,
  via: "oauth" | "password_reset",
  passwordHash?: string,
): Promise<ClaimResult> {
  const now = new Date(s.clock.now());
  const hash = passwordHash ?? await hashPassword(randomToken(32));
  const revoked = await s.db.transaction(async (tx) => {
    // Conditional: of two claims at once, or a claim racing a verification, one changes it.
    const rows = await tx.update(users)
      .set({ passwordHash: hash, emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
      .returning({ id: users.id });
    if (rows.length === 0) return null;
    return await tx.update(apiTokens).set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
  });
  if (!revoked) return { claimed: false, tokensRevoked: 0, sessionsEnded: 0 };
  const sessionsEnded = await deleteUserSessions(s.kv, userId);
  // The members the previous holder added are shown to the owner to remove (takeover_review.ts).
  await markTakeoverReview(s, userId, now.getTime());
  await dropPendingVerification(s.kv, userId);
  const result = { claimed: true, tokensRevoked: revoked.length, sessionsEnded };
  s.log.info("unverified account claimed by the address owner", { userId, via, ...result });
  return result;
}
