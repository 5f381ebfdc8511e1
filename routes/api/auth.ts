/** /api/auth: sign-up, log-in (rate-limited per IP and per email), log-out, me. */
import { access, Routes } from "../../lib/http/route.ts";
import { deleteCookie, getCookie } from "hono/cookie";
import { parseJsonBody } from "../../lib/http/validate.ts";
import { requireAuth } from "../../lib/http/auth.ts";
import { publicUser } from "../../lib/users/mod.ts";
import { deleteSession, SESSION_COOKIE } from "../../lib/auth/sessions.ts";
import { credentialsSchema, logInWithPassword, signUpWithPassword } from "../../lib/auth/login.ts";

export { LOGIN_LIMITS } from "../../lib/auth/login.ts";

export function authRoutes(): Routes {
  const app = new Routes("/auth");

  app.post("/signup", {
    access: access.public,
    summary: "POST /signup",
    body: credentialsSchema,
    ok: 201,
  }, async (c) => {
    const user = await signUpWithPassword(c, await parseJsonBody(c, credentialsSchema));
    return c.json({ ok: true, user: publicUser(c.get("services"), user) }, 201);
  });

  app.post(
    "/login",
    { access: access.public, summary: "POST /login", body: credentialsSchema },
    async (c) => {
      const user = await logInWithPassword(c, await parseJsonBody(c, credentialsSchema));
      return c.json({ ok: true, user: publicUser(c.get("services"), user) });
    },
  );

  app.post("/logout", {
    access: access.public,
    summary: "Ends the session the cookie names (if any) and clears the cookie",
  }, async (c) => {
    // Public: logging out needs no valid session; the cookie's session is ended whatever it is.
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await deleteSession(c.get("services").kv, token);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json({ ok: true });
  });

  app.get("/me", { access: access.session, summary: "GET /me" }, (c) => {
    const auth = requireAuth(c);
    return c.json({ user: publicUser(c.get("services"), auth.user) });
  });

  return app;
}
