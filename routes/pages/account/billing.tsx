/**
 * GET /account/billing: the plan and the ways to change it (where billing is on), and this
 * month's traffic against the plan's quota (where quotas are on): the quota banner
 * (warning at 80 %, pause or overage at 100 %) and a meter per quota. "Refresh" asks the
 * payment provider for the subscription again (POST /api/billing/sync), e.g. after checkout.
 */
import type { AccountCtx } from "./shell.tsx";
import { billingView } from "../../../lib/billing/state.ts";
import { findBilling } from "../../../lib/billing/account.ts";
import { accountMonth, type QuotaState } from "../../../lib/billing/quota.ts";
import { QuotaBanner } from "../../../components/QuotaBanner.tsx";
import { billingEnabled } from "../../../lib/billing/state.ts";
import { PlanCard } from "../../../components/PlanCard.tsx";
import { Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { ApiForm } from "../../../components/ApiForm.tsx";
import { formatBytes, formatCount } from "../../../lib/dashboard/format.ts";

type View = ReturnType<typeof billingView>;

export async function billingPage({ s, auth }: AccountCtx) {
  const { quota } = await accountMonth(s, auth.user.id);
  const billing = billingView(s, await findBilling(s, auth.user.id), quota);
  const payments = billingEnabled(s.config);
  if (!payments && !billing.quotas) {
    return (
      <Empty title="Billing is not set up on this installation" name="billing">
        Every account has the same limits here; nothing to pay or change.
      </Empty>
    );
  }
  return (
    <>
      <Plans s={s} current={billing.plan} payments={payments} />
      {billing.quotas && <QuotaUsage billing={billing} quota={quota} />}
      {payments && <PlanCard billing={billing} />}
      <section class="card">
        <h2>Subscription</h2>
        <dl class="grid">
          <dt>Plan</dt>
          <dd>{billing.plan}{billing.adminOverride ? " (set by an administrator)" : ""}</dd>
          <dt>Status</dt>
          <dd>{billing.status === "none" ? "no subscription" : billing.status}</dd>
          <dt>Tenants allowed</dt>
          <dd>{billing.limits ? billing.limits.tenants : "no limit"}</dd>
          <dt>Current period ends</dt>
          <dd>
            {billing.currentPeriodEnd ? <Time at={billing.currentPeriodEnd} /> : "\u2014"}
            {billing.cancelAtPeriodEnd ? " (cancels then)" : ""}
          </dd>
        </dl>
        {payments && billing.hasCustomer && (
          <ApiForm
            api="/api/billing/sync"
            submit="Refresh from the payment provider"
            busy={`Refreshing\u2026`}
            done="Refreshed: plan {billing.plan}, subscription {billing.status}"
            expect="synced=true"
            fail="Nothing to refresh: no subscription at the payment provider yet"
            secondary
            label="Refresh billing"
          />
        )}
      </section>
    </>
  );
}

/** This month's requests and bandwidth against the plan's included amounts. */
function QuotaUsage({ billing, quota }: { billing: View; quota: QuotaState }) {
  const u = billing.usage;
  const l = billing.limits;
  if (!u || !l) return null;
  const rows = [
    {
      label: "Requests",
      used: u.requests,
      limit: l.monthlyRequests,
      pct: u.percent?.requests ?? 0,
      fmt: formatCount,
    },
    {
      label: "Bandwidth",
      used: u.bytes,
      limit: l.monthlyBytes,
      pct: u.percent?.bytes ?? 0,
      fmt: formatBytes,
    },
  ];
  return (
    <section class="card">
      <h2>This month ({u.period}, UTC)</h2>
      <QuotaBanner quota={quota} />
      <dl class="grid">
        {rows.map((r, i) => [
          <dt key={`t${i}`}>
            <label for={`quota-${i}`}>{r.label}</label>
          </dt>,
          <dd key={`d${i}`}>
            <meter
              id={`quota-${i}`}
              min={0}
              max={100}
              low={80}
              high={99.9}
              optimum={0}
              value={Math.min(100, r.pct)}
            />{" "}
            {r.fmt(r.used)} of {r.limit === null ? "unlimited" : r.fmt(r.limit)} ({r.pct} %)
          </dd>,
        ])}
      </dl>
    </section>
  );
}

/**
 * The plans (lib/billing/plans.ts), where every refusal naming a plan links.
 * Without Stripe they are still shown, with who can change a plan here.
 */
function Plans(
  { s, current, payments }: { s: AccountCtx["s"]; current: string; payments: boolean },
) {
  const plans = Object.values(s.config.plans);
  return (
    <section class="card" id="plans">
      <h2>Plans</h2>
      {!payments && (
        <p class="notice warn" data-payments="off">
          Payments are not enabled on this server: nothing can be bought here. An administrator of
          this server sets an account's plan.
        </p>
      )}
      <TableWrap label="Plans">
        <thead>
          <tr>
            <th>Plan</th>
            <th>Price</th>
            <th>Tenants</th>
            <th>Included per month</th>
            <th>Over the limit</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.code} aria-current={p.code === current ? "true" : undefined}>
              <td>
                {p.code}
                {p.code === current ? " (yours)" : ""}
              </td>
              <td>{p.priceUsd === 0 ? "free" : `${p.priceUsd} USD/month`}</td>
              <td>{p.tenants ?? "unlimited"}</td>
              <td>
                {formatCount(p.monthlyRequests)} requests, {formatBytes(p.monthlyBytes)}
              </td>
              <td>{p.overLimit === "pause" ? "paused until next month" : "metered overage"}</td>
            </tr>
          ))}
        </tbody>
      </TableWrap>
    </section>
  );
}
