/** The page a password-reset mail links to: `/reset-password?token=…`. */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { Island } from "../../components/Island.tsx";
import { page, pageUser } from "./render.tsx";

export function passwordResetPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/reset-password", (c) => {
    const token = c.req.query("token") ?? "";
    return page(
      c,
      <Layout title="Reset password" user={pageUser(c)}>
        <h1>Reset password</h1>
        {token === "" ? <p class="error">This link has no reset token.</p> : (
          <Island
            name="JsonForm"
            props={{
              method: "POST",
              url: "/api/auth/reset-password",
              constants: { token },
              fields: [{
                name: "password",
                label: "New password",
                type: "password",
                required: true,
              }],
              submitLabel: "Set new password",
              redirectTo: "/login",
            }}
          />
        )}
      </Layout>,
    );
  });
  return app;
}
