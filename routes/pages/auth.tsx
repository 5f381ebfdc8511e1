/** Log-in, sign-up and log-out pages. */
import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { ApiForm, Field } from "../../components/ApiForm.tsx";
import { page, pageUser } from "./render.tsx";
import { deleteSession, SESSION_COOKIE } from "../../lib/auth/sessions.ts";

export function authPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (
    const [path, title, api] of [
      ["/login", "Log in", "/api/auth/login"],
      ["/signup", "Sign up", "/api/auth/signup"],
    ] as const
  ) {
    app.get(path, (c) => {
      const next = safeNext(c.req.query("next"));
      return page(
        c,
        <Layout title={title} user={pageUser(c)}>
          <h1>{title}</h1>
          <ApiForm api={api} submit={title} busy="Please wait…" next={next} label={title}>
            <Field name="email" label="Email" type="email" required autocomplete="email" />
            <Field
              name="password"
              label="Password"
              type="password"
              required
              autocomplete={path === "/login" ? "current-password" : "new-password"}
            />
          </ApiForm>
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

/** Where to go after logging in: a local path only (never `//host` or a URL), else the dashboard. */
export function safeNext(raw: string | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) {
    return "/dashboard";
  }
  return raw.slice(0, 2048);
}
