/**
 * Sign-up and log-in, shared by the JSON API (/api/auth/*) and the HTML form posts
 * (/login, /signup) that work before and without JavaScript. Both are rate-limited per
 * IP, and failed log-ins per (email, IP), and both start a session cookie.
 */
import type { Context } from "hono";
import { setAppCookie } from "../http/cookies.ts";
import { z } from "zod";
import { str } from "../http/text.ts";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../services.ts";
import { createUser, findUserByEmail, type User } from "../users/mod.ts";
import { hashPassword, passwordPolicyViolation, verifyPassword } from "./password.ts";
import { createSession, SESSION_COOKIE } from "./sessions.ts";
import { hitRateLimit } from "../kv/rate_limit.ts";
import { ApiError, tooManyRequests } from "../errors.ts";
import { sendVerificationMail } from "./email_verification.ts";
import { assertNotThrottled, clearLoginFailures, recordLoginFailure } from "./throttle.ts";

export const credentialsSchema = z.object({
  email: z.email().max(254),
  password: str().min(1).max(200),
});
export type Credentials = z.output<typeof credentialsSchema>;

/** Attempts per client IP (sign-up and log-in); failed log-ins per (email, IP): throttle.ts. */
export const LOGIN_LIMITS = {
  perIp: { limit: 30, windowMs: 15 * 60_000 },
};

/**
 * Creates the account unverified (400 on a weak password, 409 taken), starts its session and
 * mails the verification link (email_verification.ts); `emailSent` says whether it went out.
 */
export async function signUpWithPassword(
  c: Context<AppEnv>,
  body: Credentials,
): Promise<User & { emailSent: boolean }> {
  const s = c.get("services");
  const problem = passwordPolicyViolation(body.password, body.email);
  if (problem) throw new ApiError(400, "bad_request", `Invalid password: ${problem}`);
  await limitLogin(s, c.get("clientIp"));
  const user = await createUser(s, body.email, body.password);
  await startSession(c, s, user.id);
  const emailSent = await sendVerificationMail(s, user, { enforce: false });
  return { ...user, emailSent };
}

/** Checks the password (401 wrong, 403 blocked, 429 too many tries) and starts a session. */
export async function logInWithPassword(c: Context<AppEnv>, body: Credentials): Promise<User> {
  const s = c.get("services");
  const ip = c.get("clientIp");
  await assertNotThrottled(s.kv, body.email, ip, s.clock.now());
  await limitLogin(s, ip);
  const user = await findUserByEmail(s, body.email);
  // Verify even for unknown users' dummy hash so timing does not reveal registration.
  const ok = await verifyPassword(body.password, user?.passwordHash ?? await DUMMY_HASH());
  if (!user || !ok) {
    await recordLoginFailure(s.kv, body.email, ip, s.clock.now());
    throw new ApiError(401, "invalid_credentials", "Invalid email or password");
  }
  await clearLoginFailures(s.kv, body.email, ip);
  if (user.blocked) throw new ApiError(403, "user_blocked", "This account is blocked");
  await startSession(c, s, user.id);
  return user;
}

// A real hash of a random password: verifying against it spends the same time on unknown emails.
let dummyHash: Promise<string> | undefined;
const DUMMY_HASH = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

/** Counts one attempt against the per-IP window; 429 once it is spent. */
export async function limitLogin(s: Services, ip: string) {
  const { perIp } = LOGIN_LIMITS;
  const byIp = await hitRateLimit(s.kv, "login_ip", ip, perIp.limit, perIp.windowMs, s.clock.now());
  if (!byIp.allowed) throw tooManyRequests(byIp.retryAfterSeconds, "Too many log-in attempts");
}

/** Sets the session cookie for a freshly signed-in user (password or OAuth). */
export async function startSession(c: Context<AppEnv>, s: Services, userId: string) {
  const { token } = await createSession(s.kv, userId, s.config.sessionTtlMs, s.clock.now());
  setAppCookie(c, SESSION_COOKIE, token, s.config.sessionTtlMs / 1000);
}
