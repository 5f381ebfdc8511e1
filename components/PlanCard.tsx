/** The caller's plan on the dashboard, with the way to change it (only where billing is on). */
import { Island } from "./Island.tsx";
import type { billingView } from "../lib/billing/state.ts";

export function PlanCard({ billing }: { billing: ReturnType<typeof billingView> }) {
  const pro = billing.plan === "pro";
  return (
    <section class="card">
      <h2>Plan</h2>
      <p>
        You are on the <strong>{billing.plan}</strong> plan
        {billing.limits ? `: up to ${billing.limits.tenants ?? "unlimited"} tenant(s)` : ""}
        {billing.cancelAtPeriodEnd && billing.currentPeriodEnd
          ? `, ending ${billing.currentPeriodEnd.slice(0, 10)}`
          : ""}.
      </p>
      {!pro && (
        <Island
          name="ActionButton"
          props={{
            method: "POST",
            url: "/api/billing/checkout",
            label: "Upgrade to pro",
            followKey: "url",
          }}
        />
      )}
      {billing.hasCustomer && (
        <Island
          name="ActionButton"
          props={{
            method: "POST",
            url: "/api/billing/portal",
            label: "Manage billing",
            followKey: "url",
          }}
        />
      )}
    </section>
  );
}
