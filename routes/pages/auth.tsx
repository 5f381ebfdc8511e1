/** Log-in, sign-up and log-out pages. */
import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { Island } from "../../components/Island.tsx";
import { page, pageUser } from "./render.tsx";
import { deleteSession, SESSION_COOKIE } from "../../lib/auth/sessions.ts";
import { safeNext } from "../../lib/http/next.ts";

const credentialFields = [
  { name: "email", label: "Email", type: "email" as const, required: true },
  { name: "password", label: "Password", type: "password" as const, required: true },
];

export function authPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (
    const [path, title, api] of [
      ["/login", "Log in", "/api/auth/login"],
      ["/signup", "Sign up", "/api/auth/signup"],
    ] as const
  ) {
    app.get(path, (c) => {
      const next = safeNext(c.req.query("next"), c.get("services").config.publicUrl);
      return page(
        c,
        <Layout title={title} user={pageUser(c)}>
          <h1>{title}</h1>
          <Island
            name="JsonForm"
            props={{
              method: "POST",
              url: api,
              fields: credentialFields,
              submitLabel: title,
              redirectTo: next,
            }}
          />
          {path === "/login"
            ? (
              <p>
                No account? <a href={`/signup?next=${encodeURIComponent(next)}`}>Sign up</a>
              </p>
            )
            : <p>Passwords need at least 10 characters.</p>}
        </Layout>,
      );
    });
  }
  app.post("/logout", async (c) => {
    const auth = c.get("auth");
    if (auth?.sessionToken) await deleteSession(c.get("services").kv, auth.sessionToken);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect("/", 303);
  });
  return app;
}
