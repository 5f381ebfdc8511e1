/**
 * Sign-up and log-in, shared by the JSON API (/api/auth/*) and the HTML form posts
 * (/login, /signup) that work before and without JavaScript. Both are rate-limited per client
 * (an IPv6 client per /64 for log-in, per /56 for sign-up: lib/net/limit_key.ts); failed log-ins
 * wait per (email, client) and per account across all clients; both start a session cookie.
 */
import type { Context } from "hono";
import { setAppCookie } from "../http/cookies.ts";
import { z } from "zod";
import { str } from "../base/text.ts";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../services.ts";
import { createUser, findUserByEmail, type User } from "../users/mod.ts";
import { hashPassword, passwordPolicyViolation, verifyPassword } from "./password.ts";
import { createSession, SESSION_COOKIE } from "./sessions.ts";
import { hitRateLimit } from "../kv/rate_limit.ts";
import { ApiError, tooManyRequests } from "../errors.ts";
import { sendVerificationMail } from "./email_verification.ts";
import { assertNotThrottled, clearLoginFailures, recordLoginFailure } from "./throttle.ts";
import { clearAccountAttempts, takeAccountAttempt } from "./account_throttle.ts";
import { isKnownDevice, rememberDevice } from "./known_device.ts";
import { limitKey } from "../net/limit_key.ts";

export const credentialsSchema = z.object({
  email: z.email().max(254),
  password: str().min(1).max(200),
});
export type Credentials = z.output<typeof credentialsSchema>;

/**
 * Log-in attempts per client (IPv4 address, IPv6 /64); failed log-ins per (email, client):
 * throttle.ts; per account from anywhere: account_throttle.ts.
 */
export const LOGIN_LIMITS = {
  perIp: { limit: 30, windowMs: 15 * 60_000 },
};

/** Sign-ups per client site (IPv4 address, IPv6 /56): a whole site is one sign-up source. */
export const SIGNUP_LIMITS = {
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
  await limitSignup(s, c.get("clientIp"));
  const user = await createUser(s, body.email, body.password);
  await startSession(c, s, user.id);
  const emailSent = await sendVerificationMail(s, user, { enforce: false });
  return { ...user, emailSent };
}

/** Checks the password (401 wrong, 403 blocked, 429 too many tries) and starts a session. */
export async function logInWithPassword(c: Context<AppEnv>, body: Credentials): Promise<User> {
  const s = c.get("services");
  const ip = c.get("clientIp");
  const client = limitKey(ip); // the (email, client) pair: an IPv6 client is its /64
  await assertNotThrottled(s.kv, body.email, client, s.clock.now());
  await limitLogin(s, ip);
  // A browser that logged in to this account before skips its budget (known_device.ts).
  const known = await isKnownDevice(c, body.email);
  if (!known) await takeAccountAttempt(s.kv, body.email, s.clock.now());
  const user = await findUserByEmail(s, body.email);
  // Verify even for unknown users' dummy hash so timing does not reveal registration.
  const ok = await verifyPassword(body.password, user?.passwordHash ?? await DUMMY_HASH());
  if (!user || !ok) {
    await recordLoginFailure(s.kv, body.email, client, s.clock.now());
    throw new ApiError(401, "invalid_credentials", "Invalid email or password");
  }
  await clearLoginFailures(s.kv, body.email, client);
  if (!known) await clearAccountAttempts(s.kv, body.email); // a known browser spent none of it
  if (user.blocked) throw new ApiError(403, "user_blocked", "This account is blocked");
  await startSession(c, s, user.id);
  if (!known) await rememberDevice(c, body.email);
  return user;
}

// A real hash of a random password: verifying against it spends the same time on unknown emails.
let dummyHash: Promise<string> | undefined;
const DUMMY_HASH = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

/** Counts one attempt against the client's log-in window (its /64); 429 once it is spent. */
export async function limitLogin(s: Services, ip: string) {
  const { perIp } = LOGIN_LIMITS;
  const id = limitKey(ip);
  const byIp = await hitRateLimit(s.kv, "login_ip", id, perIp.limit, perIp.windowMs, s.clock.now());
  if (!byIp.allowed) throw tooManyRequests(byIp.retryAfterSeconds, "Too many log-in attempts");
}

/** Counts one sign-up against the client site's window (its /56); 429 once it is spent. */
async function limitSignup(s: Services, ip: string) {
  const { perIp } = SIGNUP_LIMITS;
  const id = limitKey(ip, 56);
  const r = await hitRateLimit(s.kv, "signup_ip", id, perIp.limit, perIp.windowMs, s.clock.now());
  if (!r.allowed) throw tooManyRequests(r.retryAfterSeconds, "Too many sign-ups");
}

/** Sets the session cookie for a freshly signed-in user (password or OAuth). */
export async function startSession(c: Context<AppEnv>, s: Services, userId: string) {
  const { token } = await createSession(s.kv, userId, s.config.sessionTtlMs, s.clock.now());
  setAppCookie(c, SESSION_COOKIE, token, s.config.sessionTtlMs / 1000);
}
