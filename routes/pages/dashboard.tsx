/** The dashboard home: the caller's tenants and the create form. Tenant areas: ./tenant/. */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { page, pageUser } from "./render.tsx";
import { requireAuth } from "../../lib/http/auth.ts";
import { listTenantsFor, tenantView } from "../../lib/tenants/service.ts";
import { PROVIDER_LABELS, ProviderFields } from "../../components/ProviderFields.tsx";
import { PROVIDER_KINDS, type ProviderKind } from "../../lib/providers/mod.ts";
import { DEFAULT_ALLOWED_TYPES } from "../../lib/providers/content_types.ts";
import { providerEnv } from "../../lib/tenants/provider_input.ts";
import { PlanCard } from "../../components/PlanCard.tsx";
import { billingEnabled, billingView } from "../../lib/billing/state.ts";
import { findBilling } from "../../lib/billing/account.ts";
import { ApiForm, Field, Select } from "../../components/ApiForm.tsx";
import { Empty, TableWrap } from "../../components/ui.tsx";
import { tenantHref } from "../../components/nav.ts";
import { tenantPages } from "./tenant/mod.tsx";
import { QuotaBanner } from "../../components/QuotaBanner.tsx";
import { TenantMonthCells } from "../../components/TenantMonth.tsx";
import { accountMonth } from "../../lib/billing/quota.ts";
import { usageByTenant } from "../../lib/usage/query.ts";

/**
 * The new-tenant form: the CMS picker (a GET form that works without JavaScript), then the
 * create form with only that CMS's fields.
 */
function NewTenant(
  { chosen, typedSlug, tenantOrigin, env }: {
    chosen: ProviderKind;
    typedSlug: string;
    /** The proxy host pattern shown in the provider hints: `https://{slug}.<proxy domain>`. */
    tenantOrigin: string;
    env: ReturnType<typeof providerEnv>;
  },
) {
  return (
    <section class="card" id="new-tenant">
      <h2>New tenant</h2>
      {
        /* The kind first, then only its fields: a GET form, so it works without
          JavaScript; with it, picking a kind reloads at once (islands/client.tsx). */
      }
      <form
        method="get"
        action="/dashboard#new-tenant"
        class="kind-picker"
        data-autosubmit=""
        aria-label="Pick the CMS"
      >
        <Select
          name="cms"
          label="CMS"
          value={chosen}
          options={PROVIDER_KINDS.map((k) => ({ value: k, label: PROVIDER_LABELS[k] }))}
          hint="Pick it first: the form below then asks only for its fields"
        />
        {/* filled from the create form's slug on change, so the reload keeps it */}
        <input type="hidden" name="draftSlug" value={typedSlug} data-carry="slug" />
        <button type="submit" class="secondary" data-nojs="">Show its fields</button>
      </form>
      <ApiForm
        api="/api/tenants"
        submit="Create tenant"
        busy={`Creating\u2026`}
        done="Tenant {key} created"
        next="/dashboard/{key}"
        label="New tenant"
      >
        <Field
          name="slug"
          label="Slug"
          required
          value={typedSlug || undefined}
          placeholder="acme"
          hint="Lowercase letters, digits and hyphens; part of the proxy host"
        />
        <ProviderFields
          pick={chosen}
          tenantOrigin={tenantOrigin}
          env={env}
        />
        <Field
          name="apiOrigin"
          label="API origin (optional)"
          type="url"
          placeholder="https://api.example.com"
        />
        <Field
          name="token"
          label="API token (optional, write-only)"
          type="password"
          autocomplete="off"
        />
        <Field
          name="allowedTypes:list"
          label="Allowed content types"
          type="textarea"
          value={DEFAULT_ALLOWED_TYPES.join(", ")}
          hint="The safe list: anything else from the asset origin is answered 403. */* serves every type"
        />
      </ApiForm>
    </section>
  );
}

export function dashboardPages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/dashboard", async (c) => {
    const asked = c.req.query("cms") ?? "";
    const chosen: ProviderKind = (PROVIDER_KINDS as readonly string[]).includes(asked)
      ? asked as ProviderKind
      : PROVIDER_KINDS[0];
    // The slug typed before the CMS changed (the picker carries it: islands/client.tsx).
    const typedSlug = (c.req.query("draftSlug") ?? "").slice(0, 63);
    const auth = requireAuth(c);
    const s = c.get("services");
    const rows = await listTenantsFor(s, auth.user.id, auth.isAdmin);
    const { quota } = await accountMonth(s, auth.user.id);
    const billing = billingEnabled(s.config)
      ? billingView(s, await findBilling(s, auth.user.id), quota)
      : null;
    const month = await usageByTenant(s, rows.map((r) => r.tenant.id), quota.period);
    return page(
      c,
      <Layout title="Tenants" user={pageUser(c)}>
        <h1>Tenants</h1>
        <QuotaBanner quota={quota} />
        {rows.length === 0
          ? (
            <Empty title="No tenants yet" name="tenants">
              Create your first tenant below: pick the CMS it fronts, then name it with a slug.
            </Empty>
          )
          : (
            <TableWrap label="Your tenants">
              <thead>
                <tr>
                  <th>Slug</th>
                  <th>CMS</th>
                  <th>Proxy host</th>
                  <th>Your role</th>
                  <th>Requests ({quota.period})</th>
                  <th>Bandwidth ({quota.period})</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ tenant, role }) => {
                  const v = tenantView(s, tenant).value;
                  return (
                    <tr key={v.slug}>
                      <td>
                        <a href={tenantHref(v.slug)}>{v.slug}</a>
                      </td>
                      <td>{v.cms}</td>
                      <td>
                        <code>{v.proxyBase}</code>
                      </td>
                      <td>{role}</td>
                      <TenantMonthCells usage={month.get(tenant.id)} />
                    </tr>
                  );
                })}
              </tbody>
            </TableWrap>
          )}
        {billing && <PlanCard billing={billing} />}
        <NewTenant
          chosen={chosen}
          typedSlug={typedSlug}
          tenantOrigin={`${new URL(s.config.publicUrl).protocol}//{slug}.${s.config.proxyDomain}`}
          env={providerEnv(s)}
        />
      </Layout>,
    );
  });

  app.route("/", tenantPages());
  return app;
}
