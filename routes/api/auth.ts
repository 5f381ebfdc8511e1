/**
 * /api/auth: sign-up, log-in (rate-limited per IP and per email), log-out, me, and email
 * verification (docs/decisions.md "Email verification").
 */
import { access, Routes } from "../../lib/http/route.ts";
import { clearAppCookie, readAppCookie } from "../../lib/http/cookies.ts";
import { refuseCrossSite } from "../../lib/http/origin.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { okSchema } from "../../lib/base/shapes.ts";
import { publicUser } from "../../lib/users/mod.ts";
import { publicUserSchema } from "../../lib/users/public_user_schema.ts";
import { deleteSession, SESSION_COOKIE } from "../../lib/auth/sessions.ts";
import { credentialsSchema, logInWithPassword, signUpWithPassword } from "../../lib/auth/login.ts";
import { resendVerification, verifyEmail } from "../../lib/auth/email_verification.ts";

export { LOGIN_LIMITS } from "../../lib/auth/login.ts";

const verifyBody = z.object({ token: str().min(1).max(200) }).strict();

export function authRoutes(): Routes {
  const app = new Routes("/auth");

  app.post("/signup", {
    access: access.public,
    summary: "Creates an account (unverified), starts its session and mails a verification link",
    body: credentialsSchema,
    ok: 201,
    response: z.strictObject({
      ok: z.literal(true),
      user: publicUserSchema,
      emailSent: z.boolean().describe(
        "Whether the verification mail went out (false without MAIL_TRANSPORT_URL)",
      ),
    }),
    errors: [409, 429],
  }, async (c, { body }) => {
    const user = await signUpWithPassword(c, body);
    const s = c.get("services");
    return c.json({ ok: true, user: publicUser(s, user), emailSent: user.emailSent }, 201);
  });

  app.post("/login", {
    access: access.public,
    summary: "Checks email and password and starts a session (throttled per email and IP)",
    body: credentialsSchema,
    response: z.strictObject({ ok: z.literal(true), user: publicUserSchema }),
    errors: [401, 403, 429],
  }, async (c, { body }) => {
    const user = await logInWithPassword(c, body);
    return c.json({ ok: true, user: publicUser(c.get("services"), user) });
  });

  app.post("/logout", {
    access: access.public,
    summary: "Ends the session the cookie names (if any) and clears the cookie",
    response: okSchema,
    errors: [403],
  }, async (c) => {
    // Public: logging out needs no valid session; the cookie's session is ended whatever it is.
    // A cookie write like any other: only from our own site (a cross-site page is 403).
    refuseCrossSite(c, c.get("services").config.publicUrl);
    const token = readAppCookie(c, SESSION_COOKIE);
    if (token) await deleteSession(c.get("services").kv, token);
    clearAppCookie(c, SESSION_COOKIE);
    return c.json({ ok: true });
  });

  app.get("/me", {
    access: access.session,
    summary: "The signed-in user",
    response: z.strictObject({ user: publicUserSchema }),
  }, (c, { auth }) => {
    return c.json({ user: publicUser(c.get("services"), auth.user) });
  });

  app.post("/verify-email", {
    access: access.session,
    summary: "Verifies the signed-in user's address with the mailed token (single use, 24 h)",
    body: verifyBody,
    response: z.strictObject({ ok: z.literal(true), email: str() }),
    errors: [403],
  }, async (c, { auth, body }) => {
    return c.json(await verifyEmail(c.get("services"), auth.user, body.token));
  });

  app.post("/verify-email/resend", {
    access: access.session,
    summary: "Mails a new verification link (the old one stops working); 3 mails per 15 minutes",
    response: z.strictObject({ ok: z.literal(true), emailSent: z.boolean() }),
    errors: [409, 429],
  }, async (c, { auth }) => {
    return c.json(await resendVerification(c.get("services"), auth.user));
  });

  return app;
}
