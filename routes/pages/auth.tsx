/**
 * Log-in, sign-up and log-out pages. The forms are real `method="post"` forms: with
 * JavaScript the island posts JSON to /api/auth/*, without it (or before the bundle
 * loads) the browser posts the form here, and the password never lands in a URL.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { clearAppCookie } from "../../lib/http/cookies.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { Island } from "../../components/Island.tsx";
import { page, pageUser } from "./render.tsx";
import { deleteSession, SESSION_COOKIE } from "../../lib/auth/sessions.ts";
import { safeNext } from "../../lib/http/next.ts";
import { credentialsSchema, logInWithPassword, signUpWithPassword } from "../../lib/auth/login.ts";
import { ApiError } from "../../lib/errors.ts";
import { formInput, readFormFields, requireSameOriginForm } from "./form_post.ts";
import { OAuthButtons } from "../../components/OAuthButtons.tsx";

const FORMS = {
  "/login": { title: "Log in", api: "/api/auth/login", run: logInWithPassword },
  "/signup": { title: "Sign up", api: "/api/auth/signup", run: signUpWithPassword },
} as const;
type FormPath = keyof typeof FORMS;

function credentialsPage(
  c: Context<AppEnv>,
  path: FormPath,
  opts: { email?: string; error?: string; status?: number } = {},
) {
  const { title, api } = FORMS[path];
  const next = safeNext(c.req.query("next"), c.get("services").config.publicUrl);
  const self = `${path}?next=${encodeURIComponent(next)}`;
  return page(
    c,
    <Layout title={title} user={pageUser(c)}>
      <h1>{title}</h1>
      {opts.error && <p class="error" role="alert">{opts.error}</p>}
      <Island
        name="JsonForm"
        props={{
          method: "POST",
          url: api,
          action: self,
          fields: [
            {
              name: "email",
              label: "Email",
              type: "email",
              required: true,
              value: opts.email,
              autocomplete: "email",
            },
            {
              name: "password",
              label: "Password",
              type: "password",
              required: true,
              autocomplete: path === "/login" ? "current-password" : "new-password",
            },
          ],
          submitLabel: title,
          redirectTo: next,
        }}
      />
      <OAuthButtons providers={c.get("services").config.oauth} next={next} />
      {path === "/login"
        ? (
          <>
            <p>
              No account? <a href={`/signup?next=${encodeURIComponent(next)}`}>Sign up</a>
            </p>
            <p>
              <a href="/forgot-password">Forgot your password?</a>
            </p>
          </>
        )
        : (
          <p>
            Have an account? <a href={`/login?next=${encodeURIComponent(next)}`}>Log in</a>
          </p>
        )}
      {path === "/signup" && (
        <p>
          Passwords need 10 to 200 characters, at least 4 different ones, and must not contain the
          name part of your email address.
        </p>
      )}
    </Layout>,
    opts.status,
  );
}

export function authPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const path of Object.keys(FORMS) as FormPath[]) {
    app.get(path, (c) => credentialsPage(c, path));
    // The form post without JavaScript: the JSON API's declared body and rules, answered with a
    // page.
    app.post(path, async (c) => {
      requireSameOriginForm(c);
      const fields = await readFormFields(c, ["email", "password"]);
      const parsed = formInput(credentialsSchema, fields);
      if (!parsed.ok) {
        const { message: error, status } = parsed.error;
        return credentialsPage(c, path, { email: fields.email, error, status });
      }
      try {
        await FORMS[path].run(c, parsed.body);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return credentialsPage(c, path, {
          email: fields.email,
          error: err.message,
          status: err.status,
        });
      }
      return c.redirect(safeNext(c.req.query("next"), c.get("services").config.publicUrl), 303);
    });
  }
  app.post("/logout", async (c) => {
    const auth = c.get("auth");
    if (auth?.sessionToken) await deleteSession(c.get("services").kv, auth.sessionToken);
    clearAppCookie(c, SESSION_COOKIE);
    return c.redirect("/", 303);
  });
  return app;
}
