/**
 * POST /api/auth/reset-password `{ token, password }`: completes a reset a master
 * admin started (the token arrives by mail). No session needed; the token is the proof.
 */
import { Hono } from "hono";
import { z } from "zod";
import { str } from "../../lib/http/text.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import { parseJsonBody } from "../../lib/http/validate.ts";
import { completePasswordReset } from "../../lib/admin/password_reset.ts";

const resetBody = z.object({
  token: str().min(1).max(200),
  password: str().min(1).max(200),
}).strict();

export function passwordResetRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/auth/reset-password", async (c) => {
    const body = await parseJsonBody(c, resetBody);
    return c.json(await completePasswordReset(c.get("services"), body.token, body.password));
  });
  return app;
}
