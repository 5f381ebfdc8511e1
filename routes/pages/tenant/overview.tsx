/** Overview: where the tenant is reachable, how it is set up, this month at a glance. */
import type { TenantAreaPage } from "./shell.tsx";
import { tenantOverview } from "../../../lib/dashboard/overview.ts";
import { ApiForm, Field } from "../../../components/ApiForm.tsx";
import { Bytes, Empty, Stat } from "../../../components/ui.tsx";
import { formatCount, formatPercent } from "../../../lib/dashboard/format.ts";
import { savedByCache } from "../../../lib/usage/figures.ts";
import { TenantMonthStats } from "../../../components/TenantMonth.tsx";
import { sdkDistVersion, sdkTarballName } from "../../../lib/sdk_package/tarball.ts";
import { billingOwner } from "../../../lib/billing/owners.ts";
import { accountPlan } from "../../../lib/billing/account.ts";
import { tenantAccountQuota } from "../../../lib/billing/tenant_quota.ts";
import { TenantQuotaNotice } from "../../../components/TenantQuotaNotice.tsx";
import { SavingsStat } from "../../../components/SavingsStat.tsx";

type TenantView = Parameters<TenantAreaPage>[0]["view"];

/** Hosts, origins, CMS, auth and cache settings of the tenant. */
function WhereItRuns({ v, href }: { v: TenantView; href: string }) {
  return (
    <section class="card">
      <h2>Where it runs</h2>
      <dl class="grid">
        <dt>Proxy host</dt>
        <dd>
          <code>{v.proxyBase}</code>
        </dd>
        <dt>API proxy</dt>
        <dd>
          <code>{v.proxyBase}/~api/{`\u2026`}</code> {`\u2192`}{" "}
          {v.apiOrigin ? <code>{v.apiOrigin}</code> : <a href={`${href}/api`}>not configured</a>}
        </dd>
        <dt>Preview host</dt>
        <dd>
          <code>{v.previewBase}</code>
          {v.websiteOrigin
            ? (
              <>
                {`\u2192`} <code>{v.websiteOrigin}</code>
              </>
            )
            : " (no website origin)"}
        </dd>
        <dt>CMS</dt>
        <dd>{v.cms}{v.cloudName ? ` (${v.cloudName})` : ""}</dd>
        <dt>Auth</dt>
        <dd>{v.apiAuthMode}, token {v.hasToken ? "stored" : "not set"}</dd>
        <dt>API cache TTL</dt>
        <dd>{v.apiCacheTTL} s</dd>
        <dt>Cache versions</dt>
        <dd>
          api {v.apiCacheVersion}, assets {v.assetCacheVersion}, html {v.htmlCacheVersion}
        </dd>
      </dl>
    </section>
  );
}

/** The website probes: is it served through Cachely, and does its code use it? */
function ImplementationChecks(
  { api, websiteOrigin }: { api: string; websiteOrigin: TenantView["websiteOrigin"] },
) {
  return (
    <section class="card">
      <h2>Implementation checks</h2>
      <p class="muted">Is your website served through Cachely, and does its code use it?</p>
      <div class="actions">
        <ApiForm
          api={`${api}/cachely-check`}
          submit="Probe the website surface"
          busy={`Probing\u2026`}
          done="{headline}"
          layout="inline"
          secondary
          label="Probe the website surface"
        />
      </div>
      <ApiForm
        api={`${api}/website-implementation-check`}
        submit="Check a website"
        busy={`Fetching the site\u2026`}
        done="{analysis.verdict}"
        expect="ok=true"
        fail="The check could not finish: {message}"
        label="Check a website"
      >
        <Field
          name="url"
          label="Website URL"
          type="url"
          required
          placeholder="https://www.example.com/"
          value={websiteOrigin}
        />
      </ApiForm>
    </section>
  );
}

export const overviewPage: TenantAreaPage = async (t) => {
  const o = await tenantOverview(t.s, t.tenant.id);
  const { thisMonth, lastMonth } = o;
  const saved = savedByCache(thisMonth);
  const v = t.view;
  const sdkVersion = await sdkDistVersion();
  const sdkUrl = `${t.s.config.publicUrl.replace(/\/$/, "")}/sdk/${sdkTarballName(sdkVersion)}`;
  // "Next steps" never suggests what the plan forbids: custom domains need pro.
  const owner = t.s.config.quotas ? await billingOwner(t.s, t.tenant.id) : null;
  const account = await tenantAccountQuota(t.s, t.tenant.id);
  const domainsAllowed = !t.s.config.quotas || (owner !== null &&
    (await accountPlan(t.s, owner)) === "pro");
  const steps = [
    !v.apiOrigin &&
    { step: "api", href: `${t.href}/api`, text: "Configure the API proxy (origin and token)" },
    o.domains.length === 0 && domainsAllowed &&
    { step: "domains", href: `${t.href}/domains`, text: "Add a custom domain" },
    o.members.length <= 1 &&
    { step: "members", href: `${t.href}/members`, text: "Invite a teammate" },
  ].filter(Boolean) as { step: string; href: string; text: string }[];
  return (
    <>
      <TenantQuotaNotice quota={account?.quota ?? null} isOwner={account?.ownerId === t.userId} />
      <div class="cards">
        <Stat
          label={`Cache hit ratio, ${thisMonth.period}`}
          value={formatPercent(thisMonth.cacheHitRatio)}
        />
        <Stat
          label={`Origin requests saved, ${thisMonth.period}`}
          value={formatCount(saved.requests)}
        />
        <Stat
          label={`Origin bandwidth saved, ${thisMonth.period}`}
          value={<Bytes n={saved.bytes} />}
        />
        <SavingsStat cms={v.cms} savedBytes={saved.bytes} period={thisMonth.period} />
        <Stat label="Custom domains" value={o.domains.length} />
      </div>
      <TenantMonthStats current={thisMonth} previous={lastMonth} />
      {steps.length > 0 && (
        <section class="card">
          <h2>Next steps</h2>
          <ul>
            {steps.map((s) => (
              <li key={s.href}>
                <a href={s.href} data-next-step={s.step}>{s.text}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <WhereItRuns v={v} href={t.href} />
      <section class="card" id="sdk">
        <h2>Use it from your code</h2>
        <p>
          The client library <code>@cachely/sdk</code> {sdkVersion}{" "}
          is served by this instance. Install it in your project:
        </p>
        <pre><code data-sdk-install="">npm install {sdkUrl}</code></pre>
        <p>
          Then run <code>npx cachely setup</code> and set{" "}
          <code>CACHELY_PROXY_URL={v.proxyBase}</code>: without it the CMS helpers talk to the CMS
          directly.
        </p>
      </section>
      <ImplementationChecks api={t.api} websiteOrigin={v.websiteOrigin} />
      {thisMonth.requests === 0 && lastMonth.requests === 0 && (
        <Empty title="No traffic yet">
          Send a request to <code>{v.proxyBase}/~api/</code> and it shows up under{" "}
          <a href={`${t.href}/usage`}>Usage &amp; analytics</a>.
        </Empty>
      )}
    </>
  );
};
