/**
 * The page groups a fresh process does not load: dashboard, tenant, admin and account pages,
 * invitations, password reset, e-mail verification, the form bridge and the API reference.
 * routes/pages/mod.tsx imports this module on the first request under one of
 * PAGE_GROUP_PREFIXES (cold start, resident memory); the order is that of mod.tsx.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { dashboardPages } from "./dashboard.tsx";
import { invitePages } from "./invites.tsx";
import { passwordResetPages } from "./password_reset.tsx";
import { verifyEmailPages } from "./verify_email.tsx";
import { type Dispatch, formBridge } from "./forms.tsx";
import { apiReferencePages } from "./api_reference.tsx";
import { loadApi } from "../api/lazy.ts";
import { adminPages } from "./admin/mod.tsx";
import { accountPages } from "./account/mod.tsx";

export function pageGroups(dispatch: Dispatch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/", dashboardPages());
  app.route("/", invitePages());
  app.route("/", passwordResetPages());
  app.route("/", verifyEmailPages());
  app.route("/", formBridge(dispatch));
  app.route("/", apiReferencePages(async () => (await loadApi()).apiDeclarations()));
  app.route("/", adminPages());
  app.route("/", accountPages());
  return app;
}
