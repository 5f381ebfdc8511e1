/**
 * Password reset pages: `/forgot-password` asks for a reset link by mail, and
 * `/reset-password?token=...` (the link in that mail) sets the new password. Both forms
 * post JSON with JavaScript and post the form here without it.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { Island } from "../../components/Island.tsx";
import { page, pageUser } from "./render.tsx";
import { formInput, readFormFields, requireSameOriginForm } from "./form_post.ts";
import { forgotPasswordSchema, requestPasswordReset } from "../../lib/auth/forgot_password.ts";
import { completePasswordReset, resetPasswordSchema } from "../../lib/admin/password_reset.ts";
import { ApiError } from "../../lib/errors.ts";

const SENT = "If that address has an account, a reset link is on its way. It works for one hour.";

function forgotPage(c: Context<AppEnv>, opts: { error?: string; sent?: boolean; status?: number }) {
  return page(
    c,
    <Layout title="Forgot password" user={pageUser(c)}>
      <h1>Forgot your password?</h1>
      {opts.error && <p class="notice error" role="alert">{opts.error}</p>}
      {opts.sent ? <p class="notice ok" role="status">{SENT}</p> : (
        <>
          <p>
            Enter the email address you log in with; we mail you a link to choose a new password.
          </p>
          <Island
            name="JsonForm"
            props={{
              method: "POST",
              url: "/api/auth/forgot-password",
              action: "/forgot-password",
              fields: [{
                name: "email",
                label: "Email",
                type: "email",
                required: true,
                autocomplete: "email",
              }],
              submitLabel: "Send reset link",
              successText: SENT,
            }}
          />
        </>
      )}
      <p>
        <a href="/login">Back to log in</a>
      </p>
    </Layout>,
    opts.status,
  );
}

function resetPage(c: Context<AppEnv>, token: string, opts: { error?: string; status?: number }) {
  const action = `/reset-password?token=${encodeURIComponent(token)}`;
  return page(
    c,
    <Layout title="Reset password" user={pageUser(c)}>
      <h1>Reset password</h1>
      {opts.error && <p class="notice error" role="alert">{opts.error}</p>}
      {token === ""
        ? (
          <p class="notice error">
            This link has no reset token. <a href="/forgot-password">Ask for a new link</a>.
          </p>
        )
        : (
          <Island
            name="JsonForm"
            props={{
              method: "POST",
              url: "/api/auth/reset-password",
              action,
              constants: { token },
              fields: [{
                name: "password",
                label: "New password",
                type: "password",
                required: true,
                autocomplete: "new-password",
              }],
              submitLabel: "Set new password",
              redirectTo: "/login",
            }}
          />
        )}
    </Layout>,
    opts.status,
  );
}

/** Runs a form's action; a 4xx refusal answers the form page again with the reason. */
async function answerWithPage(
  run: () => Promise<Response>,
  fail: (e: ApiError) => Response | Promise<Response>,
) {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return fail(err);
    throw err;
  }
}

export function passwordResetPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/forgot-password", (c) => forgotPage(c, {}));
  app.post("/forgot-password", async (c) => {
    requireSameOriginForm(c);
    // The API's declared body (POST /api/auth/forgot-password), parsed the same way.
    const parsed = formInput(forgotPasswordSchema, await readFormFields(c, ["email"]));
    if (!parsed.ok) return forgotPage(c, { error: parsed.error.message, status: 400 });
    return answerWithPage(async () => {
      await requestPasswordReset(c.get("services"), c.get("clientIp"), parsed.body.email);
      return forgotPage(c, { sent: true });
    }, (e) => forgotPage(c, { error: e.message, status: e.status }));
  });
  app.get("/reset-password", (c) => resetPage(c, c.req.query("token") ?? "", {}));
  app.post("/reset-password", async (c) => {
    requireSameOriginForm(c);
    const token = c.req.query("token") ?? "";
    const { password } = await readFormFields(c, ["password"]);
    // The API's declared body (POST /api/auth/reset-password): the link's token, the password.
    const parsed = formInput(resetPasswordSchema, { token, password });
    if (!parsed.ok) return resetPage(c, token, { error: parsed.error.message, status: 400 });
    return answerWithPage(async () => {
      await completePasswordReset(c.get("services"), parsed.body.token, parsed.body.password);
      return c.redirect("/login", 303);
    }, (e) => resetPage(c, token, { error: e.message, status: e.status }));
  });
  return app;
}
