/** Mounts every tenant area page at /dashboard/:slug/<path> (TENANT_AREAS in components/nav.ts). */
import { Hono } from "hono";
import type { AppEnv } from "../../../lib/http/env.ts";
import { checkPathParams } from "../../../lib/http/validate.ts";
import { renderTenantArea, type TenantAreaPage } from "./shell.tsx";
import { overviewPage } from "./overview.tsx";
import { apiPage } from "./api.tsx";
import { assetsPage } from "./assets.tsx";
import { cachePage } from "./cache.tsx";
import { domainsPage } from "./domains.tsx";
import { membersPage } from "./members.tsx";
import { webhooksPage } from "./webhooks.tsx";
import { previewsPage } from "./previews.tsx";
import { aiPage } from "./ai.tsx";
import { aiReviewPage } from "./ai_review.tsx";
import { experimentsPage } from "./experiments.tsx";
import { usagePage } from "./usage.tsx";
import { logsPage } from "./logs.tsx";
import { auditPage } from "./audit.tsx";
import { settingsPage } from "./settings.tsx";

export const TENANT_PAGES: Record<string, TenantAreaPage> = {
  "": overviewPage,
  api: apiPage,
  assets: assetsPage,
  cache: cachePage,
  domains: domainsPage,
  members: membersPage,
  webhooks: webhooksPage,
  previews: previewsPage,
  ai: aiPage,
  "ai-review": aiReviewPage,
  experiments: experimentsPage,
  usage: usagePage,
  logs: logsPage,
  audit: auditPage,
  settings: settingsPage,
};

export function tenantPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const [path, body] of Object.entries(TENANT_PAGES)) {
    app.get(
      `/dashboard/:slug${path ? `/${path}` : ""}`,
      checkPathParams,
      (c) => renderTenantArea(c, path, body),
    );
  }
  return app;
}
