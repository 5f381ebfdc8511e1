/** /api/auth: sign-up, log-in (rate-limited per IP and per email), log-out, me. */
import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import type { AppEnv } from "../../lib/http/env.ts";
import { parseJsonBody } from "../../lib/http/validate.ts";
import { requireAuth } from "../../lib/http/auth.ts";
import { createUser, findUserByEmail, publicUser } from "../../lib/users/mod.ts";
import { hashPassword, passwordPolicyViolation, verifyPassword } from "../../lib/auth/password.ts";
import { createSession, deleteSession, SESSION_COOKIE } from "../../lib/auth/sessions.ts";
import { hitRateLimit } from "../../lib/kv/rate_limit.ts";
import { ApiError, tooManyRequests } from "../../lib/errors.ts";
import type { Services } from "../../lib/services.ts";
import type { Context } from "hono";

const credentials = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(200),
});

export const LOGIN_LIMITS = {
  perIp: { limit: 30, windowMs: 15 * 60_000 },
  perEmail: { limit: 10, windowMs: 15 * 60_000 },
};

export function authRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/signup", async (c) => {
    const s = c.get("services");
    const body = await parseJsonBody(c, credentials);
    const problem = passwordPolicyViolation(body.password, body.email);
    if (problem) throw new ApiError(400, "bad_request", `Invalid password: ${problem}`);
    await limitLogin(s, c.get("clientIp"), body.email);
    const user = await createUser(s, body.email, body.password);
    await startSession(c, s, user.id);
    return c.json({ ok: true, user: publicUser(s, user) }, 201);
  });

  app.post("/login", async (c) => {
    const s = c.get("services");
    const body = await parseJsonBody(c, credentials);
    await limitLogin(s, c.get("clientIp"), body.email);
    const user = await findUserByEmail(s, body.email);
    // Verify even for unknown users' dummy hash so timing does not reveal registration.
    const ok = await verifyPassword(body.password, user?.passwordHash ?? await DUMMY_HASH());
    if (!user || !ok) throw new ApiError(401, "invalid_credentials", "Invalid email or password");
    if (user.blocked) throw new ApiError(403, "user_blocked", "This account is blocked");
    await startSession(c, s, user.id);
    return c.json({ ok: true, user: publicUser(s, user) });
  });

  app.post("/logout", async (c) => {
    const auth = c.get("auth");
    if (auth?.sessionToken) await deleteSession(c.get("services").kv, auth.sessionToken);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json({ ok: true });
  });

  app.get("/me", (c) => {
    const auth = requireAuth(c);
    return c.json({ user: publicUser(c.get("services"), auth.user) });
  });

  return app;
}

// A real hash of a random password: verifying against it spends the same time on unknown emails.
let dummyHash: Promise<string> | undefined;
const DUMMY_HASH = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

async function limitLogin(s: Services, ip: string, email: string) {
  const now = s.clock.now();
  const byIp = await hitRateLimit(
    s.kv,
    "login_ip",
    ip,
    LOGIN_LIMITS.perIp.limit,
    LOGIN_LIMITS.perIp.windowMs,
    now,
  );
  if (!byIp.allowed) throw tooManyRequests(byIp.retryAfterSeconds, "Too many log-in attempts");
  const byEmail = await hitRateLimit(
    s.kv,
    "login_email",
    email.trim().toLowerCase(),
    LOGIN_LIMITS.perEmail.limit,
    LOGIN_LIMITS.perEmail.windowMs,
    now,
  );
  if (!byEmail.allowed) {
    throw tooManyRequests(byEmail.retryAfterSeconds, "Too many log-in attempts");
  }
}

async function startSession(c: Context<AppEnv>, s: Services, userId: string) {
  const { token } = await createSession(s.kv, userId, s.config.sessionTtlMs, s.clock.now());
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(s.config.publicUrl).protocol === "https:",
    path: "/",
    maxAge: Math.floor(s.config.sessionTtlMs / 1000),
  });
}
