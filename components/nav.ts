/**
 * The dashboard's navigation: one entry per tenant area (the sidebar) and the user menu.
 * Pages live at /dashboard/<slug>/<path> ("" is the overview); each area's page is
 * routes/pages/tenant/<file>.tsx. The user pages and /admin belong to their own routes.
 */
import type { Role } from "../lib/base/roles.ts";

export type NavItem = { label: string; href: string; current?: boolean };

export type TenantArea = {
  /** Path segment after /dashboard/<slug>/ ("" for the overview). */
  path: string;
  label: string;
  /** Least role that sees the area in the sidebar (its page explains a refusal). */
  minRole: Role;
};

export const TENANT_AREAS: readonly TenantArea[] = [
  { path: "", label: "Overview", minRole: "viewer" },
  { path: "api", label: "API proxy", minRole: "viewer" },
  { path: "assets", label: "Assets & providers", minRole: "viewer" },
  { path: "cache", label: "Cache", minRole: "viewer" },
  { path: "domains", label: "Domains", minRole: "viewer" },
  { path: "members", label: "Members", minRole: "viewer" },
  { path: "webhooks", label: "Webhooks", minRole: "editor" },
  { path: "previews", label: "Previews", minRole: "editor" },
  { path: "ai", label: "AI transforms", minRole: "viewer" },
  { path: "ai-review", label: "AI review", minRole: "viewer" },
  { path: "experiments", label: "Experiments", minRole: "viewer" },
  { path: "usage", label: "Usage & analytics", minRole: "viewer" },
  { path: "logs", label: "Logs", minRole: "viewer" },
  { path: "audit", label: "Audit", minRole: "viewer" },
  { path: "settings", label: "Settings", minRole: "viewer" },
];

export function tenantHref(slug: string, path = ""): string {
  return `/dashboard/${encodeURIComponent(slug)}${path ? `/${path}` : ""}`;
}

/** The user menu (profile, password, tokens, billing): every page under /account/. */
export const USER_MENU: readonly NavItem[] = [
  { label: "Profile", href: "/account/profile" },
  { label: "Password", href: "/account/password" },
  { label: "Personal access tokens", href: "/account/tokens" },
  { label: "Billing", href: "/account/billing" },
];
