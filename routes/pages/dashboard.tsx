/** The dashboard: the caller's tenants, and one page per tenant. */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { Island } from "../../components/Island.tsx";
import { page, pageUser } from "./render.tsx";
import { requireAuth } from "../../lib/http/auth.ts";
import { listTenantsFor, tenantView } from "../../lib/tenants/service.ts";
import { requireTenant } from "../../lib/tenants/access.ts";
import { CMS_KINDS } from "../../lib/providers/mod.ts";
import { tenantOverview } from "../../lib/dashboard/overview.ts";
import { TenantSections } from "../../components/TenantSections.tsx";
import { PlanCard } from "../../components/PlanCard.tsx";
import { billingView, findBilling } from "../../lib/billing/state.ts";
import { billingEnabled } from "../../lib/config.ts";

export function dashboardPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/dashboard", async (c) => {
    const auth = requireAuth(c);
    const s = c.get("services");
    const rows = await listTenantsFor(s, auth.user.id, auth.isAdmin);
    const billing = billingEnabled(s.config)
      ? billingView(s, await findBilling(s, auth.user.id))
      : null;
    return page(
      c,
      <Layout title="Tenants" user={pageUser(c)}>
        <h1>Tenants</h1>
        {rows.length === 0 ? <p class="muted">No tenants yet. Create one below.</p> : (
          <table>
            <thead>
              <tr>
                <th>Slug</th>
                <th>CMS</th>
                <th>Proxy host</th>
                <th>Your role</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ tenant, role }) => {
                const v = tenantView(s, tenant).value;
                return (
                  <tr key={v.slug}>
                    <td>
                      <a href={`/dashboard/${v.slug}`}>{v.slug}</a>
                    </td>
                    <td>{v.cms}</td>
                    <td>
                      <code>{v.proxyBase}</code>
                    </td>
                    <td>{role}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {billing && <PlanCard billing={billing} />}
        <h2>New tenant</h2>
        <Island
          name="JsonForm"
          props={{
            method: "POST",
            url: "/api/tenants",
            submitLabel: "Create tenant",
            redirectTo: "/dashboard/{key}",
            fields: [
              { name: "slug", label: "Slug", required: true, placeholder: "acme" },
              { name: "cms", label: "CMS", type: "select", options: [...CMS_KINDS] },
              { name: "apiOrigin", label: "API origin (optional)", type: "url" },
              { name: "token", label: "API token (write-only)", type: "password" },
              { name: "cloudName", label: "Cloud name (image host)" },
            ],
          }}
        />
      </Layout>,
    );
  });

  app.get("/dashboard/:slug", async (c) => {
    const { tenant, role } = await requireTenant(c, "viewer");
    const s = c.get("services");
    const v = tenantView(s, tenant, role).value;
    const overview = await tenantOverview(s, tenant.id);
    return page(
      c,
      <Layout title={v.slug} user={pageUser(c)}>
        <TenantSections tenant={v} role={role} overview={overview} />
      </Layout>,
    );
  });

  return app;
}
