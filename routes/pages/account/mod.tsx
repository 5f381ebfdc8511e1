/** The user menu's pages under /account (profile, password, tokens, billing). */
import { Hono } from "hono";
import type { AppEnv } from "../../../lib/http/env.ts";
import { renderAccountPage } from "./shell.tsx";
import { passwordPage, profilePage } from "./profile.tsx";
import { tokensPage } from "./tokens.tsx";
import { billingPage } from "./billing.tsx";

export function accountPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/account", (c) => c.redirect("/account/profile"));
  app.get("/account/profile", (c) => renderAccountPage(c, "Profile", profilePage));
  app.get("/account/password", (c) => renderAccountPage(c, "Password", passwordPage));
  app.get("/account/tokens", (c) => renderAccountPage(c, "Personal access tokens", tokensPage));
  app.get("/account/billing", (c) => renderAccountPage(c, "Billing", billingPage));
  return app;
}
