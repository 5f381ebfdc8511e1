/** Assets & providers: the CMS kind, its asset hosts and how their URLs map to the tenant host. */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Checkbox, Field } from "../../../components/ApiForm.tsx";
import { DerivedOrigins, ProviderFields } from "../../../components/ProviderFields.tsx";
import { Refusal } from "../../../components/ui.tsx";

// Long: one page's markup: the provider, its identifier and website, and the asset-delivery form
// (TTL, allowed types, bot switches), each field with its hint; no logic.
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
          Provider asset URLs inside proxied responses are rewritten to clean URLs on the tenant
          host; old <code>/~assets/</code> URLs redirect to them.
        </p>
        <DerivedOrigins
          described={{ ...v.providerOrigins, sample: v.sampleAsset }}
          apiOrigin={v.apiOrigin}
        />
      </section>
      <section class="card">
        <h2>Identifier and website</h2>
        {t.can("admin")
          ? (
            <ApiForm
              api={t.api}
              method="PUT"
              submit="Save provider settings"
              done="Provider settings saved"
              label="Provider settings"
            >
              <ProviderFields
                cms={v.cms}
                values={v}
                tenantOrigin={v.proxyBase}
                described={{ ...v.providerOrigins, sample: v.sampleAsset }}
              />
            </ApiForm>
          )
          : <Refusal role={t.role} need="admin" what="change the provider settings" />}
      </section>
      <section class="card">
        <h2>Asset delivery</h2>
        {t.can("admin")
          ? (
            <ApiForm
              api={t.api}
              method="PUT"
              submit="Save asset delivery"
              done="Asset delivery saved"
              label="Asset delivery"
            >
              <Field
                name="assetCacheTTL:number"
                label="Asset cache TTL (seconds)"
                type="number"
                min={60}
                max={31536000}
                value={v.assetCacheTTL}
                hint="Default one day, at most one year"
              />
              <Field
                name="allowedTypes:list"
                label="Allowed content types"
                type="textarea"
                value={v.allowedTypes.join(", ")}
                hint="MIME types or families (image, video/*); anything else is answered 403"
              />
              <Field
                name="stripQueryTypes:list"
                label="Strip the query for these file types"
                value={v.stripQueryTypes.join(", ")}
                placeholder="image, .pdf"
                hint="File classes (image, video, audio, font, document, other) or extensions (.pdf): their query is left out of the cache key and the origin request. Empty: the provider's rule"
              />
              <Checkbox
                name="blockBots"
                label="Block scrapers and AI crawlers"
                checked={v.blockBots}
              />
              <Checkbox
                name="allowImageSearchBots"
                label="Let search engines' image crawlers through"
                checked={v.allowImageSearchBots}
              />
            </ApiForm>
          )
          : <Refusal role={t.role} need="admin" what="change asset delivery" />}
      </section>
    </>
  );
};
