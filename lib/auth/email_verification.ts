/**
 * Email verification for password sign-ups (docs/decisions.md "Email verification"). The
 * token (`cly_evt_...`) goes out only in the mail; KV keeps its SHA-256 with the user, the
 * address it was sent to and its expiry, like password resets. One pending link per user
 * (a resend kills the old one); a link works once, and only for the signed-in owner of the
 * account: someone who clicks a link for an account they did not make (a squatter's) must
 * not vouch for the squatter's password.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import { users } from "../db/schema/mod.ts";
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { kvKeys } from "../kv/keys.ts";
import { kvCommit, kvRetry } from "../kv/retry.ts";
import { replacePendingToken } from "../kv/pending_token.ts";
import { hitRateLimit } from "../kv/rate_limit.ts";
import { sendMail } from "../mail/mod.ts";
import { ApiError, forbidden, tooManyRequests } from "../errors.ts";
import { normaliseEmail } from "../users/mod.ts";

export const EMAIL_VERIFICATION_TTL_MS = 24 * 3_600_000;
export const EMAIL_VERIFICATION_TOKEN_PREFIX = "cly_evt_";
/** Verification mails per user (the sign-up mail counts): a resend button is no mail cannon. */
export const VERIFY_RESEND_LIMIT = { limit: 3, windowMs: 15 * 60_000 };

type PendingVerification = { userId: string; email: string; expiresAt: number };

/** Stores a fresh token for the user's current address (replacing any pending one). */
async function issueVerificationToken(s: Services, user: { id: string; email: string }) {
  const token = randomToken(32, EMAIL_VERIFICATION_TOKEN_PREFIX);
  const hash = await sha256Hex(token);
  const entry: PendingVerification = {
    userId: user.id,
    email: normaliseEmail(user.email),
    expiresAt: s.clock.now() + EMAIL_VERIFICATION_TTL_MS,
  };
  await replacePendingToken(s.kv, {
    entryKey: kvKeys.emailVerification,
    pointerKey: kvKeys.userEmailVerification(user.id),
    hash,
    entry,
    ttlMs: EMAIL_VERIFICATION_TTL_MS,
  });
  return token;
}

export function emailVerificationLink(s: Services, token: string): string {
  return `${s.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
}

/**
 * Mails a verification link, counted against the user's resend window (429 once spent when
 * `enforce`; sign-up only counts). True when the transport accepted the mail.
 */
export async function sendVerificationMail(
  s: Services,
  user: { id: string; email: string },
  opts: { enforce: boolean },
): Promise<boolean> {
  const { limit, windowMs } = VERIFY_RESEND_LIMIT;
  const hit = await hitRateLimit(s.kv, "verify_mail", user.id, limit, windowMs, s.clock.now());
  if (!hit.allowed && opts.enforce) {
    throw tooManyRequests(hit.retryAfterSeconds, "Too many verification mails");
  }
  const token = await issueVerificationToken(s, user);
  const sent = await sendMail(s, {
    to: user.email,
    subject: "Confirm your Cachely email address",
    text: [
      "Someone (hopefully you) signed up for Cachely with this address.",
      "Confirm it within 24 hours, logged in to that account:",
      emailVerificationLink(s, token),
      "",
      "If you did not sign up, someone else used your address: do not follow the link.",
      `To take the account over, use "Forgot your password?" at ${s.config.publicUrl}/login.`,
    ].join("\n"),
  });
  s.log.info("verification mail", { userId: user.id, emailSent: sent });
  return sent;
}

/** Resend for the signed-in user: 409 when already verified, 429 past the window. */
export async function resendVerification(
  s: Services,
  user: { id: string; email: string; emailVerifiedAt: Date | null },
) {
  if (user.emailVerifiedAt) {
    throw new ApiError(409, "already_verified", "Email address already verified");
  }
  return { ok: true, emailSent: await sendVerificationMail(s, user, { enforce: true }) };
}

const invalidToken = () =>
  new ApiError(400, "verification_token_invalid", "Invalid token: unknown or already used");

/**
 * Verifies the signed-in user's address with a mailed token (single use). Unknown or used:
 * 400; expired: 400 `verification_token_expired`; another account's token: 403, unspent.
 */
export async function verifyEmail(
  s: Services,
  user: { id: string; email: string },
  token: string,
): Promise<{ ok: true; email: string }> {
  const hash = await sha256Hex(token);
  const got = await kvRetry(() => s.kv.get<PendingVerification>(kvKeys.emailVerification(hash)));
  if (!got.value) throw invalidToken();
  const entry = got.value;
  if (entry.expiresAt <= s.clock.now()) {
    await kvCommit(() => s.kv.atomic().check(got).delete(kvKeys.emailVerification(hash)));
    throw new ApiError(400, "verification_token_expired", "Invalid token: expired");
  }
  if (entry.userId !== user.id) {
    throw forbidden(
      "This link confirms another account's address: log in as that account",
      "verification_wrong_account",
    );
  }
  if (entry.email !== normaliseEmail(user.email)) throw invalidToken();
  const spent = await kvCommit(() =>
    s.kv.atomic().check(got)
      .delete(kvKeys.emailVerification(hash))
      .delete(kvKeys.userEmailVerification(user.id))
  );
  if (!spent.ok) throw invalidToken(); // a concurrent request used it first
  // The spend above removed the pending link; idempotent (a claim may have verified it).
  const now = new Date(s.clock.now());
  await s.db.update(users).set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, user.id), isNull(users.emailVerifiedAt)));
  return { ok: true, email: entry.email };
}

export async function dropPendingVerification(kv: Deno.Kv, userId: string): Promise<void> {
  const pending = await kvRetry(() => kv.get<string>(kvKeys.userEmailVerification(userId)));
  if (!pending.value) return;
  await kvCommit(() =>
    kv.atomic().delete(kvKeys.emailVerification(pending.value!))
      .delete(kvKeys.userEmailVerification(userId))
  );
}
