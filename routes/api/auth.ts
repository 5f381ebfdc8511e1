/** /api/auth: sign-up, log-in (rate-limited per IP and per email), log-out, me. */
import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import type { AppEnv } from "../../lib/http/env.ts";
import { parseJsonBody } from "../../lib/http/validate.ts";
import { requireAuth } from "../../lib/http/auth.ts";
import { publicUser } from "../../lib/users/mod.ts";
import { deleteSession, SESSION_COOKIE } from "../../lib/auth/sessions.ts";
import { credentialsSchema, logInWithPassword, signUpWithPassword } from "../../lib/auth/login.ts";

export { LOGIN_LIMITS } from "../../lib/auth/login.ts";

export function authRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/signup", async (c) => {
    const user = await signUpWithPassword(c, await parseJsonBody(c, credentialsSchema));
    return c.json({ ok: true, user: publicUser(c.get("services"), user) }, 201);
  });

  app.post("/login", async (c) => {
    const user = await logInWithPassword(c, await parseJsonBody(c, credentialsSchema));
    return c.json({ ok: true, user: publicUser(c.get("services"), user) });
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
