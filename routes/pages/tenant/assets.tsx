/** Assets & providers: the CMS kind, its asset hosts and how their URLs map to the tenant host. */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Field } from "../../../components/ApiForm.tsx";
import { Refusal } from "../../../components/ui.tsx";

export const assetsPage: TenantAreaPage = (t) => {
  const v = t.view;
  return (
    <>
      <section class="card">
        <h2>Provider</h2>
        <dl class="grid">
          <dt>CMS</dt>
          <dd>{v.cms}</dd>
          {v.cloudName && (
            <>
              <dt>Cloud name</dt>
              <dd>
                <code>{v.cloudName}</code>
              </dd>
            </>
          )}
          <dt>Assets served from</dt>
          <dd>
            <code>{v.proxyBase}</code>
          </dd>
          <dt>Cache version</dt>
          <dd>assets {v.assetCacheVersion}</dd>
        </dl>
        <p class="muted">
          Provider asset URLs inside proxied responses are rewritten to the tenant host; image
          transformation segments are kept in the path and in the cache key.
        </p>
        {v.cms === "cloudinary" && v.cloudName && (
          <p>
            Example: <code>{v.proxyBase}/image/upload/v1/sample.jpg</code>
          </p>
        )}
      </section>
      <section class="card">
        <h2>Website</h2>
        {t.can("admin")
          ? (
            <ApiForm
              api={t.api}
              method="PUT"
              submit="Save website domain"
              done="Website domain saved: {value.websiteDomain}"
              label="Website domain"
            >
              <Field
                name="websiteDomain:null"
                label="Website domain"
                value={v.websiteDomain}
                placeholder="www.example.com"
              />
            </ApiForm>
          )
          : <Refusal role={t.role} need="admin" what="change the website domain" />}
      </section>
    </>
  );
};
