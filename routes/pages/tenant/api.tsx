/** API proxy: origin, auth mode, header, TTL, preview parameter, and the write-only token. */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Field, Select } from "../../../components/ApiForm.tsx";
import { Refusal, Time } from "../../../components/ui.tsx";
import { AUTH_MODES } from "../../../lib/providers/mod.ts";

// Long: one page's markup: the API configuration form (origin, auth mode and header, TTL, preview
// parameter, each with its hint) and the write-only token form; the fields' hints are most of it.
export const apiPage: TenantAreaPage = (t) => {
  const v = t.view;
  const admin = t.can("admin");
  return (
    <>
      <p>
        Requests to <code>{v.proxyBase}/~api/&lt;path&gt;</code>{" "}
        are forwarded to the origin below with the stored credential, cached for the TTL, and
        delivery URLs are rewritten.
      </p>
      {!admin && <Refusal role={t.role} need="admin" what="change the API proxy" />}
      <section class="card">
        <h2>Configuration</h2>
        {admin
          ? (
            <ApiForm
              api={`${t.api}/api-config`}
              method="PUT"
              submit="Save API config"
              busy={`Saving\u2026`}
              done="API config saved: origin {config.apiOrigin}, TTL {config.cacheTTL} s"
              label="API configuration"
            >
              <Field
                name="apiOrigin:null"
                label="API origin"
                type="url"
                value={v.apiOrigin}
                placeholder="https://api.example.com"
                hint="Empty turns the API proxy off"
              />
              <Select
                name="apiAuthMode"
                label="Auth mode"
                options={AUTH_MODES}
                value={v.apiAuthMode}
              />
              <Field
                name="apiAuthHeader:null"
                label="Header or parameter name"
                value={v.apiAuthHeader}
                hint="For header and query auth modes"
              />
              <Field
                name="apiCacheTTL:number"
                label="API cache TTL (seconds)"
                type="number"
                min={10}
                max={3600}
                value={v.apiCacheTTL}
                hint="10-3600; assets have their own TTL under Assets & providers"
              />
              <Field name="previewParam" label="Preview parameter" value={v.previewParam} />
            </ApiForm>
          )
          : (
            <dl class="grid">
              <dt>Origin</dt>
              <dd>{v.apiOrigin ?? "not configured"}</dd>
              <dt>Auth mode</dt>
              <dd>{v.apiAuthMode}</dd>
              <dt>Cache TTL</dt>
              <dd>{v.apiCacheTTL} s</dd>
            </dl>
          )}
      </section>
      <section class="card">
        <h2>Upstream token</h2>
        <p>
          {v.hasToken
            ? (
              <>
                A token is stored (set <Time at={v.tokenUpdatedAt} />). It is never shown again.
              </>
            )
            : "No token stored: requests go upstream without credentials."}
        </p>
        {admin && (
          <ApiForm
            api={`${t.api}/api-token`}
            method="PUT"
            submit={v.hasToken ? "Replace token" : "Store token"}
            busy={`Storing\u2026`}
            done="Token stored"
            label="Upstream token"
          >
            <Field
              name="token"
              label="Token (write-only)"
              type="password"
              required
              autocomplete="off"
            />
          </ApiForm>
        )}
      </section>
    </>
  );
};
