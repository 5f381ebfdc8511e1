/**
 * Self-service "forgot password": mails a reset link (the same single-use, one-hour token
 * as an admin-started reset) to a registered, unblocked address. The answer never says
 * whether the address is registered, nor takes longer when it is (the mail is sent after
 * the answer), and, unlike the admin reset, live sessions are kept:
 * anyone can ask for a mail to any address, so asking must not log its owner out.
 */
import { z } from "zod";
import type { Services } from "../services.ts";
import { findUserByEmail } from "../users/mod.ts";
import { issuePasswordResetToken, passwordResetLink } from "../admin/password_reset.ts";
import { sendMail } from "../mail/mod.ts";
import { hitRateLimit } from "../kv/rate_limit.ts";
import { tooManyRequests } from "../errors.ts";
import { limitKey } from "../net/limit_key.ts";

/**
 * The body of `POST /api/auth/forgot-password`, and of the `/forgot-password` page form
 * (routes/pages/password_reset.tsx), which parses its fields with it the same way.
 */
export const forgotPasswordSchema = z.object({ email: z.email().max(254) }).strict();

/** Asks per client site (IPv4 address, IPv6 /56) and per address mailed. */
export const FORGOT_LIMITS = {
  perIp: { limit: 10, windowMs: 15 * 60_000 },
  perEmail: { limit: 3, windowMs: 15 * 60_000 },
};

export async function requestPasswordReset(s: Services, ip: string, email: string) {
  const now = s.clock.now();
  const { perIp, perEmail } = FORGOT_LIMITS;
  const site = limitKey(ip, 56);
  const byIp = await hitRateLimit(s.kv, "forgot_ip", site, perIp.limit, perIp.windowMs, now);
  if (!byIp.allowed) throw tooManyRequests(byIp.retryAfterSeconds, "Too many reset requests");
  const key = email.trim().toLowerCase();
  const byEmail = await hitRateLimit(
    s.kv,
    "forgot_email",
    key,
    perEmail.limit,
    perEmail.windowMs,
    now,
  );
  // Over the per-address limit the answer is the same as ever: no mail, no hint.
  if (!byEmail.allowed) return { ok: true };
  // Looking the address up, issuing the token and mailing take longer for a registered
  // address: done after the answer, so its timing says nothing (lib/background.ts).
  await s.background.run("password reset mail", () => mailResetLink(s, email));
  return { ok: true };
}

async function mailResetLink(s: Services, email: string): Promise<void> {
  const user = await findUserByEmail(s, email);
  if (user && !user.blocked) {
    const { token } = await issuePasswordResetToken(s, user.id);
    const sent = await sendMail(s, {
      to: user.email,
      subject: "Reset your Cachely password",
      text: [
        "Someone (hopefully you) asked to reset the password of your Cachely account.",
        "Choose a new password within 1 hour:",
        passwordResetLink(s, token),
        "",
        "If you did not ask, ignore this mail: your password stays as it is.",
      ].join("\n"),
    });
    s.log.info("password reset requested", { userId: user.id, emailSent: sent });
  }
}
