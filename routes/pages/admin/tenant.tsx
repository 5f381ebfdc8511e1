/**
 * GET /admin/tenants/:slug: what one tenant earned in a UTC month and what its traffic cost
 * (GET /api/admin/tenants/{slug}/earned; every figure is defined in decisions.md
 * "Billing").
 */
import type { AdminCtx, Titled } from "./shell.tsx";
import { findTenantBySlug } from "../../../lib/tenants/service.ts";
import { tenantEarned } from "../../../lib/billing/earned.ts";
import { notFound } from "../../../lib/errors.ts";
import { findUserById } from "../../../lib/users/mod.ts";
import { currentPeriod } from "../../../lib/usage/query.ts";
import {
  formatBytes,
  formatCount,
  formatPercent,
  formatUsd as usd,
} from "../../../lib/dashboard/format.ts";
import { Stat, TableWrap } from "../../../components/ui.tsx";
import { PeriodPicker } from "../../../components/admin/PeriodPicker.tsx";
import { periodParam } from "./overview.tsx";

// Long: one page's markup: who pays (owner, plan, this tenant's and the owner's traffic) and the
// revenue and cost table of tenantEarned, every row a figure defined in decisions.md
// "Billing"; no logic but formatting.
export async function adminTenantPage(a: AdminCtx): Promise<Titled> {
  const slug = (a.c.req.param("slug") ?? "").toLowerCase();
  const tenant = await findTenantBySlug(a.s, slug);
  if (!tenant) throw notFound("Tenant");
  const period = periodParam(a);
  const e = await tenantEarned(a.s, tenant, period);
  const owner = e.owner.userId ? await findUserById(a.s, e.owner.userId) : null;
  const share = (n: number) => formatPercent(n);
  return {
    title: `Tenant ${e.tenant}`,
    content: (
      <>
        <p class="muted crumb">
          <a href="/admin">Overview</a> / tenant {e.tenant} ·{" "}
          <a href={`/dashboard/${encodeURIComponent(e.tenant)}`}>open its dashboard</a>
        </p>
        <PeriodPicker
          action={`/admin/tenants/${encodeURIComponent(e.tenant)}`}
          period={period}
          current={currentPeriod(a.s.clock.now())}
        />
        <div class="cards">
          <Stat label={`Revenue (${e.currency})`} value={usd(e.revenue.totalUsd)} />
          <Stat label={`Modeled cost (${e.currency})`} value={usd(e.cost.totalUsd)} />
          <Stat label={`Margin (${e.currency})`} value={usd(e.margin.usd)} />
          <Stat
            label="Margin of revenue"
            value={e.margin.percent === null ? "\u2014" : `${e.margin.percent.toFixed(1)} %`}
          />
        </div>
        <section class="card">
          <h2>Who pays</h2>
          <dl class="grid">
            <dt>Billing owner</dt>
            <dd>
              {e.owner.userId
                ? (
                  <a href={`/admin/users/${encodeURIComponent(e.owner.userId)}`}>
                    {owner?.email ?? e.owner.userId}
                  </a>
                )
                : <span class="muted">none (no owner member)</span>}
            </dd>
            <dt>Owner's plan</dt>
            <dd>
              {e.owner.plan} ({usd(e.owner.priceUsd)} a month)
            </dd>
            <dt>This tenant's traffic</dt>
            <dd>
              {formatCount(e.usage.tenant.requests)} requests, {formatBytes(e.usage.tenant.bytes)}
            </dd>
            <dt>The owner's traffic</dt>
            <dd>
              {formatCount(e.usage.owner.requests)} requests, {formatBytes(e.usage.owner.bytes)}
              {" "}
              over {e.usage.owner.tenants} tenant(s)
            </dd>
            <dt>Share of the owner's requests / bytes</dt>
            <dd>
              {share(e.share.requests)} / {share(e.share.bytes)} (revenue share{" "}
              {share(e.share.revenue)})
            </dd>
          </dl>
        </section>
        <section class="card">
          <h2>Revenue and cost, {e.period}</h2>
          <TableWrap label="Revenue and cost">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col" class="num">{e.currency}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Subscription (revenue share of the plan price)</th>
                <td class="num">{usd(e.revenue.subscriptionUsd)}</td>
              </tr>
              <tr>
                <th scope="row">
                  Overage ({e.revenue.overageBasis === "projected"
                    ? "projected to the month's end"
                    : "as billed"})
                </th>
                <td class="num">{usd(e.revenue.overageUsd)}</td>
              </tr>
              <tr>
                <th scope="row">Revenue</th>
                <td class="num">
                  <strong>{usd(e.revenue.totalUsd)}</strong>
                </td>
              </tr>
              <tr>
                <th scope="row">Compute</th>
                <td class="num">{usd(e.cost.computeUsd)}</td>
              </tr>
              <tr>
                <th scope="row">Database rows written</th>
                <td class="num">{usd(e.cost.databaseUsd)}</td>
              </tr>
              <tr>
                <th scope="row">KV reads and writes</th>
                <td class="num">{usd(e.cost.kvUsd)}</td>
              </tr>
              <tr>
                <th scope="row">Cost ({e.cost.costSource})</th>
                <td class="num">
                  <strong>{usd(e.cost.totalUsd)}</strong>
                </td>
              </tr>
            </tbody>
          </TableWrap>
        </section>
      </>
    ),
  };
}
