/**
 * Password resets started by a master admin. The token (`cly_pwr_...`) goes out only in
 * the mail; KV keeps its SHA-256 with the user and expiry, like sessions. One pending
 * reset per user (a new one kills the old token); a token works once.
 */
import { replacePendingToken } from "../kv/pending_token.ts";
import { z } from "zod";
import type { Services } from "../services.ts";
import { str } from "../base/text.ts";
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { kvKeys } from "../kv/keys.ts";
import { deleteUserSessions } from "../auth/sessions.ts";
import { claimUnverifiedAccount } from "../auth/claim_account.ts";
import { replacePassword } from "../auth/password_change.ts";
import { hashPassword, passwordPolicyViolation } from "../auth/password.ts";
import { findUserById } from "../users/mod.ts";
import { sendMail } from "../mail/mod.ts";
import { ApiError } from "../errors.ts";
import { requireUser } from "./users.ts";
import { kvCommit, kvRetry } from "../kv/retry.ts";
import type { PasswordResetStarted } from "./view_schema.ts";

/** How long a reset link stays valid. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
export const PASSWORD_RESET_TOKEN_PREFIX = "cly_pwr_";

type PendingReset = { userId: string; expiresAt: number };

/**
 * Stores a fresh reset token for the user (replacing any pending one) and returns it; the
 * caller mails it. Shared by the admin-started reset and the self-service forgot-password.
 */
export async function issuePasswordResetToken(s: Services, userId: string) {
  const token = randomToken(32, PASSWORD_RESET_TOKEN_PREFIX);
  const hash = await sha256Hex(token);
  const expiresAt = s.clock.now() + PASSWORD_RESET_TTL_MS;
  await replacePendingToken(s.kv, {
    entryKey: kvKeys.passwordReset,
    pointerKey: kvKeys.userPasswordReset(userId),
    hash,
    entry: { userId, expiresAt } satisfies PendingReset,
    ttlMs: PASSWORD_RESET_TTL_MS,
  });
  return { token, expiresAt };
}

/** The link a reset mail carries. */
export function passwordResetLink(s: Services, token: string): string {
  return `${s.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Issues a reset token, mails it, and ends every session of the user. */
export async function startPasswordReset(
  s: Services,
  actorUserId: string,
  userId: string,
): Promise<PasswordResetStarted> {
  const u = await requireUser(s, userId);
  const { token, expiresAt } = await issuePasswordResetToken(s, u.id);
  // Whoever made the reset necessary may hold a session: none survives it.
  const sessionsEnded = await deleteUserSessions(s.kv, u.id);
  const emailSent = await sendMail(s, {
    to: u.email,
    subject: "Reset your Cachely password",
    text: [
      "An administrator started a password reset for your Cachely account.",
      "Choose a new password within 1 hour:",
      passwordResetLink(s, token),
      "",
      `(Or POST {"token": "<the token above>", "password": "<new password>"} to`,
      `${s.config.publicUrl}/api/auth/reset-password.)`,
    ].join("\n"),
  });
  s.log.info("password reset started", { userId: u.id, by: actorUserId, sessionsEnded });
  return {
    ok: true,
    userId: u.id,
    expiresAt: new Date(expiresAt).toISOString(),
    emailSent,
    sessionsEnded,
  };
}

/**
 * The body of `POST /api/auth/reset-password`, and of the `/reset-password` page form
 * (routes/pages/password_reset.tsx: the token from the link's query, the password typed).
 */
export const resetPasswordSchema = z.object({
  token: str().min(1).max(200),
  password: str().min(1).max(200),
}).strict();

const invalidToken = () =>
  new ApiError(400, "reset_token_invalid", "Invalid token: unknown or already used");

/** Sets a new password with a reset token (single use) and ends every session of the user. */
export async function completePasswordReset(s: Services, token: string, password: string) {
  const hash = await sha256Hex(token);
  const got = await kvRetry(() => s.kv.get<PendingReset>(kvKeys.passwordReset(hash)));
  if (!got.value) throw invalidToken();
  const { userId, expiresAt } = got.value;
  if (expiresAt <= s.clock.now()) {
    await kvCommit(() => s.kv.atomic().check(got).delete(kvKeys.passwordReset(hash)));
    throw new ApiError(400, "reset_token_expired", "Invalid token: expired");
  }
  const user = await findUserById(s, userId);
  if (!user) throw invalidToken();
  // Checked before the token is spent, so a rejected password can be retried.
  const problem = passwordPolicyViolation(password, user.email);
  if (problem) throw new ApiError(400, "bad_request", `Invalid password: ${problem}`);
  const spent = await kvCommit(() =>
    s.kv.atomic().check(got)
      .delete(kvKeys.passwordReset(hash))
      .delete(kvKeys.userPasswordReset(userId))
  );
  if (!spent.ok) throw invalidToken(); // a concurrent request used it first
  // The link came by mail: whoever followed it owns the address. On an account nobody had
  // verified that makes them its owner from now on (claim_account.ts: the maker's API tokens
  // are revoked too); a verified account just gets the new password.
  let claimed = false;
  let claimSessionsEnded = 0;
  try {
    const passwordHash = await hashPassword(password);
    if (!user.emailVerifiedAt) {
      const claim = await claimUnverifiedAccount(s, userId, "password_reset", passwordHash);
      claimed = claim.claimed;
      claimSessionsEnded = claim.sessionsEnded;
    }
    if (!claimed) await replacePassword(s, userId, passwordHash); // its tokens end too
  } catch (e) {
    // Nothing lost on failure: the link works again for the rest of its hour.
    const left = Math.max(1, expiresAt - s.clock.now());
    await kvCommit(() =>
      s.kv.atomic()
        .set(kvKeys.passwordReset(hash), got.value, { expireIn: left })
        .set(kvKeys.userPasswordReset(userId), hash, { expireIn: left })
    ).catch(() => {});
    throw e;
  }
  // A claim has ended every session already.
  const sessionsEnded = claimed ? claimSessionsEnded : await deleteUserSessions(s.kv, userId);
  s.log.info("password reset completed", { userId, sessionsEnded, claimed });
  return { ok: true };
}
