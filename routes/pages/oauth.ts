/** OAuth sign-in pages: the start redirect and the provider's callback (lib/auth/oauth/). */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { checkPathParams } from "../../lib/http/validate.ts";
import { finishOAuth, startOAuth } from "../../lib/auth/oauth/flow.ts";

export function oauthPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get(
    "/auth/oauth/:provider",
    checkPathParams,
    async (c) => c.redirect(await startOAuth(c, c.req.param("provider")), 302),
  );
  app.get(
    "/auth/oauth/:provider/callback",
    checkPathParams,
    async (c) => c.redirect(await finishOAuth(c, c.req.param("provider")), 302),
  );
  return app;
}
