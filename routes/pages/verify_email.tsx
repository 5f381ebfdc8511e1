/**
 * The page a verification mail links to: `/verify-email?token=...`. Confirming needs the
 * account's own session (lib/auth/email_verification.ts), so a visitor who is not logged in
 * is asked to log in first, and told what to do if the account is not theirs.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { ApiForm, Hidden } from "../../components/ApiForm.tsx";
import { page, pageUser, VERIFY_BANNER_COOKIE } from "./render.tsx";
import { setAppCookie } from "../../lib/http/cookies.ts";
import { safeNext } from "../../lib/http/next.ts";
import { readFormFields } from "./form_post.ts";

export function verifyEmailPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Hides the banner for the browser session: a session cookie, then back where it was.
  app.post("/verify-email/dismiss", async (c) => {
    const form: Record<string, unknown> = await readFormFields(c, ["next"]); // bounded: 413
    const next = safeNext(
      typeof form.next === "string" ? form.next : undefined,
      c.get("services").config.publicUrl,
    );
    setAppCookie(c, VERIFY_BANNER_COOKIE, "1", null);
    return c.redirect(next, 303);
  });
  app.get("/verify-email", (c) => {
    const token = c.req.query("token") ?? "";
    const user = pageUser(c);
    const here = `/verify-email?token=${encodeURIComponent(token)}`;
    return page(
      c,
      <Layout title="Confirm email" user={user}>
        <h1>Confirm your email address</h1>
        {token === ""
          ? <p class="notice error">This link has no verification token.</p>
          : !user
          ? (
            <>
              <p>
                <a href={`/login?next=${encodeURIComponent(here)}`}>Log in</a>{" "}
                to the account this address signed up for, then confirm it here.
              </p>
              <p>
                Did not sign up? Someone else used your address. Do not log in with a password they
                chose: <a href="/forgot-password">reset the password</a>{" "}
                by mail instead, which makes the account yours and ends their access.
              </p>
            </>
          )
          : user.emailVerified
          ? (
            <p class="notice ok" role="status">
              {user.email} is confirmed. <a href="/dashboard">Go to your tenants</a>.
            </p>
          )
          : (
            <>
              <p>You are logged in as {user.email}.</p>
              <ApiForm
                api="/api/auth/verify-email"
                submit={`Confirm ${user.email}`}
                busy={`Confirming\u2026`}
                done="Your email address is confirmed"
                next="/dashboard"
                label="Confirm email address"
              >
                <Hidden name="token" value={token} />
              </ApiForm>
            </>
          )}
      </Layout>,
    );
  });
  return app;
}
