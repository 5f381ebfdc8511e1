/** The master-admin console under /admin (SPEC "Master-admin endpoints" made visible). */
import { Hono } from "hono";
import type { AppEnv } from "../../../lib/http/env.ts";
import { checkPathParams } from "../../../lib/http/validate.ts";
import { renderAdminPage } from "./shell.tsx";
import { adminOverviewPage } from "./overview.tsx";
import { adminUserPage, adminUsersPage } from "./users.tsx";
import { adminLogsPage } from "./logs.tsx";
import { adminPlatformPage } from "./platform.tsx";
import { adminUsagePage } from "./usage.tsx";
import { adminTenantPage } from "./tenant.tsx";

export function adminPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/admin", (c) => renderAdminPage(c, "", "Overview", adminOverviewPage));
  app.get("/admin/users", (c) => renderAdminPage(c, "users", "Users", adminUsersPage));
  app.get(
    "/admin/users/:id",
    checkPathParams,
    (c) => renderAdminPage(c, "users", "User", adminUserPage),
  );
  app.get("/admin/usage", (c) => renderAdminPage(c, "usage", "Usage", adminUsagePage));
  app.get(
    "/admin/tenants/:slug",
    checkPathParams,
    (c) => renderAdminPage(c, "", "Tenant", adminTenantPage),
  );
  app.get("/admin/logs", (c) => renderAdminPage(c, "logs", "Logs", adminLogsPage));
  app.get("/admin/platform", (c) => renderAdminPage(c, "platform", "Platform", adminPlatformPage));
  return app;
}
