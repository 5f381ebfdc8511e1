/**
 * POST /api/auth/reset-password `{ token, password }`: completes a reset (the token arrives
 * by mail). POST /api/auth/forgot-password `{ email }`: mails a reset link when the address
 * is registered, and answers the same either way. No session needed for either.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { okSchema } from "../../lib/base/shapes.ts";
import { completePasswordReset, resetPasswordSchema } from "../../lib/admin/password_reset.ts";
import { forgotPasswordSchema, requestPasswordReset } from "../../lib/auth/forgot_password.ts";

export function passwordResetRoutes(): Routes {
  const app = new Routes("");
  app.post("/auth/reset-password", {
    access: access.public,
    summary: "Sets a new password with a mailed reset token (single use, 1 h); ends every " +
      "session, and verifies the address (an unverified account is claimed: docs/decisions.md)",
    body: resetPasswordSchema,
    response: okSchema,
  }, async (c, { body }) => {
    return c.json(await completePasswordReset(c.get("services"), body.token, body.password));
  });
  app.post("/auth/forgot-password", {
    access: access.public,
    summary: "Mails a reset link when the address is registered; the same answer either way",
    body: forgotPasswordSchema,
    response: okSchema,
    errors: [429],
  }, async (c, { body }) => {
    return c.json(await requestPasswordReset(c.get("services"), c.get("clientIp"), body.email));
  });
  return app;
}
