/**
 * POST /api/auth/reset-password `{ token, password }`: completes a reset (the token arrives
 * by mail). POST /api/auth/forgot-password `{ email }`: mails a reset link when the address
 * is registered, and answers the same either way. No session needed for either.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/http/text.ts";
import { okSchema } from "../../lib/http/shapes.ts";
import { parseJsonBody } from "../../lib/http/validate.ts";
import { completePasswordReset } from "../../lib/admin/password_reset.ts";
import { requestPasswordReset } from "../../lib/auth/forgot_password.ts";

const resetBody = z.object({
  token: str().min(1).max(200),
  password: str().min(1).max(200),
}).strict();

const forgotBody = z.object({ email: z.email().max(254) }).strict();

export function passwordResetRoutes(): Routes {
  const app = new Routes("");
  app.post("/auth/reset-password", {
    access: access.public,
    summary: "Sets a new password with a mailed reset token (single use, 1 h); ends every " +
      "session, and verifies the address (an unverified account is claimed: docs/decisions.md)",
    body: resetBody,
    response: okSchema,
  }, async (c) => {
    const body = await parseJsonBody(c, resetBody);
    return c.json(await completePasswordReset(c.get("services"), body.token, body.password));
  });
  app.post("/auth/forgot-password", {
    access: access.public,
    summary: "Mails a reset link when the address is registered; the same answer either way",
    body: forgotBody,
    response: okSchema,
    errors: [429],
  }, async (c) => {
    const body = await parseJsonBody(c, forgotBody);
    return c.json(await requestPasswordReset(c.get("services"), c.get("clientIp"), body.email));
  });
  return app;
}
