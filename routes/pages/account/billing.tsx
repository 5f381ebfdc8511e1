/** GET /account/billing: the plan, its limits and period, and the ways to change it. */
import type { AccountCtx } from "./shell.tsx";
import { billingView, findBilling } from "../../../lib/billing/state.ts";
import { billingEnabled } from "../../../lib/config.ts";
import { PlanCard } from "../../../components/PlanCard.tsx";
import { Empty, Time } from "../../../components/ui.tsx";

export async function billingPage({ s, auth }: AccountCtx) {
  const billing = billingView(s, await findBilling(s, auth.user.id));
  if (!billingEnabled(s.config)) {
    return (
      <Empty title="Billing is not set up on this installation">
        Every account has the same limits here; nothing to pay or change.
      </Empty>
    );
  }
  return (
    <>
      <PlanCard billing={billing} />
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
            {billing.currentPeriodEnd ? <Time at={billing.currentPeriodEnd} /> : "—"}
            {billing.cancelAtPeriodEnd ? " (cancels then)" : ""}
          </dd>
        </dl>
      </section>
    </>
  );
}
