/** Settings: website origin and site proxy, preview parameter, delete tenant (type the slug). */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Checkbox, Field } from "../../../components/ApiForm.tsx";
import { Refusal } from "../../../components/ui.tsx";

export const settingsPage: TenantAreaPage = (t) => {
  const v = t.view;
  return (
    <>
      <section class="card">
        <h2>Website</h2>
        <p class="muted">
          With a website origin and the site proxy on, <code>{v.previewBase}</code>{" "}
          and verified custom domains serve your site through Cachely.
        </p>
        {t.can("admin")
          ? (
            <ApiForm
              api={t.api}
              method="PUT"
              submit="Save settings"
              busy={`Saving\u2026`}
              done="Settings saved: origin {value.websiteOrigin}, site proxy {value.siteProxy}, preview parameter {value.previewParam}"
              label="Website settings"
            >
              <Field
                name="websiteOrigin:null"
                label="Website origin"
                type="url"
                value={v.websiteOrigin}
                placeholder="https://www.example.com"
                hint="Empty removes it"
              />
              <Checkbox
                name="siteProxy"
                label="Serve the website through the proxy"
                checked={v.siteProxy}
              />
              <Field
                name="previewParam"
                label="Preview parameter"
                value={v.previewParam}
                hint="Query parameter that marks preview requests"
              />
            </ApiForm>
          )
          : <Refusal role={t.role} need="admin" what="change settings" />}
      </section>
      <section class="card">
        <h2>Delete tenant</h2>
        {t.can("owner")
          ? (
            <ApiForm
              api={t.api}
              method="DELETE"
              submit="Delete tenant"
              busy={`Deleting\u2026`}
              danger
              confirm={`Delete ${t.tenant.slug} with its domains, rules, experiments and history? This cannot be undone.`}
              done={`Deleted ${t.tenant.slug}`}
              next="/dashboard"
              label="Delete tenant"
            >
              <p>Everything of this tenant is removed and its hosts stop answering.</p>
              <div class="field">
                <label for="confirm-slug">
                  Type <code>{t.tenant.slug}</code> to confirm
                </label>
                <input
                  id="confirm-slug"
                  name="_confirm_slug"
                  required
                  pattern={t.tenant.slug.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}
                  autocomplete="off"
                />
              </div>
            </ApiForm>
          )
          : <Refusal role={t.role} need="owner" what="delete this tenant" />}
      </section>
    </>
  );
};
