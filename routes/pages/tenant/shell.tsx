/**
 * One tenant area page: access check, the sidebar of areas, the page heading. Area files
 * (routes/pages/tenant/<area>.tsx) export a `TenantAreaPage` that gets a `TenantPageCtx` and
 * returns the page body; routes/pages/tenant/mod.tsx mounts them at /dashboard/:slug/<path>.
 */
import type { Context } from "hono";
import type { ComponentChildren } from "preact";
import type { AppEnv } from "../../../lib/http/env.ts";
import type { Services } from "../../../lib/services.ts";
import { requireTenant } from "../../../lib/tenants/access.ts";
import { type Tenant, tenantView } from "../../../lib/tenants/service.ts";
import { atLeast, type Role } from "../../../lib/base/roles.ts";
import { Layout } from "../../../components/Layout.tsx";
import { TENANT_AREAS, tenantHref } from "../../../components/nav.ts";
import { page, pageUser } from "../render.tsx";

export type TenantPageCtx = {
  c: Context<AppEnv>;
  s: Services;
  tenant: Tenant;
  view: ReturnType<typeof tenantView>["value"];
  role: Role;
  userId: string;
  /** `/api/tenants/<slug>`: the base of this tenant's API endpoints. */
  api: string;
  /** `/dashboard/<slug>`: the base of this tenant's pages. */
  href: string;
  can: (min: Role) => boolean;
};

export type TenantAreaPage = (t: TenantPageCtx) => Promise<ComponentChildren> | ComponentChildren;

export async function renderTenantArea(c: Context<AppEnv>, areaPath: string, body: TenantAreaPage) {
  const { tenant, role, auth } = await requireTenant(c, "viewer");
  const s = c.get("services");
  const view = tenantView(s, tenant, role).value;
  const area = TENANT_AREAS.find((a) => a.path === areaPath)!;
  const t: TenantPageCtx = {
    c,
    s,
    tenant,
    view,
    role,
    userId: auth.user.id,
    api: `/api/tenants/${encodeURIComponent(tenant.slug)}`,
    href: tenantHref(tenant.slug),
    can: (min) => atLeast(role, min),
  };
  const content = await body(t);
  const items = TENANT_AREAS.filter((a) => atLeast(role, a.minRole)).map((a) => ({
    label: a.label,
    href: tenantHref(tenant.slug, a.path),
    current: a.path === areaPath,
  }));
  return page(
    c,
    <Layout
      title={`${area.label} · ${tenant.slug}`}
      user={pageUser(c)}
      side={{ title: tenant.slug, titleHref: tenantHref(tenant.slug), items }}
    >
      <p class="muted crumb">
        <a href="/dashboard">Tenants</a> / {tenant.slug} · your role: {role}
      </p>
      <h1>{area.label}</h1>
      {content}
    </Layout>,
  );
}
