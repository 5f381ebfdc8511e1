/**
 * A master admin's actions on one user: edit, block or unblock, plan override (set, release),
 * billing sync from the payment provider, password reset.
 */
import { ApiForm, Field, Hidden, Select } from "../ApiForm.tsx";

type Props = {
  user: { id: string; email: string; name: string | null; blocked: boolean };
  plan: string;
  /** The plan was set by an admin: payment-provider events do not change it. */
  adminOverride: boolean;
  /** Payments are configured: a sync from the payment provider can be asked for. */
  payments: boolean;
  /** The admin looking at their own account: blocking is refused by the API, so not offered. */
  self: boolean;
};

/** Plan: the admin override, its release, a sync from the payment provider. */
function PlanActions({ user, plan, adminOverride, payments }: Omit<Props, "self">) {
  return (
    <div>
      <h3>Plan</h3>
      <ApiForm
        api={`/api/admin/billing/${encodeURIComponent(user.id)}`}
        method="PATCH"
        submit="Set plan"
        confirm={`Override the plan of ${user.email}? Payment-provider events will not revert it.`}
        done="Plan set to {billing.plan}"
        label="Plan override"
      >
        <Select name="planCode" label="Plan" options={["free", "pro"]} value={plan} />
      </ApiForm>
      {adminOverride && (
        <>
          <p class="muted" data-plan-override>
            Set by an admin: payment-provider events do not change it.
          </p>
          <ApiForm
            api={`/api/admin/billing/${encodeURIComponent(user.id)}`}
            method="PATCH"
            submit="Release the override"
            confirm={`Hand the plan of ${user.email} back to the payment provider? Its next event or a sync sets the plan.`}
            done="Override released; the plan follows the payment provider again"
            secondary
            label="Release the plan override"
          >
            <Hidden name="planCode" value={plan} />
            <Hidden name="adminOverride:bool" value="false" />
          </ApiForm>
        </>
      )}
      {payments && (
        <ApiForm
          api={`/api/billing/sync?userId=${encodeURIComponent(user.id)}`}
          submit="Sync from the payment provider"
          busy={`Syncing\u2026`}
          done="Synced: plan {billing.plan}, subscription {billing.status}"
          expect="synced=true"
          fail="Nothing to sync: no subscription at the payment provider (plan stays {billing.plan})"
          secondary
          label="Sync billing"
        />
      )}
    </div>
  );
}

export function UserActions({ user, plan, adminOverride, payments, self }: Props) {
  const base = `/api/admin/users/${encodeURIComponent(user.id)}`;
  return (
    <section class="card">
      <h2>Actions</h2>
      <div class="actions-grid">
        <div>
          <h3>Profile</h3>
          <ApiForm api={base} method="PATCH" submit="Save" done="Saved" label="Edit user">
            <Field name="name:null" label="Name" value={user.name} />
            <Field name="email" label="Email" type="email" value={user.email} required />
          </ApiForm>
        </div>
        <PlanActions user={user} plan={plan} adminOverride={adminOverride} payments={payments} />
        <div>
          <h3>Block</h3>
          {self
            ? <p class="muted" data-own-account>You cannot block your own account.</p>
            : user.blocked
            ? (
              <ApiForm
                api={`${base}/block`}
                submit="Unblock"
                confirm={`Unblock ${user.email}? They can log in again.`}
                done="Unblocked"
                label="Unblock user"
              >
                <Hidden name="blocked:bool" value="false" />
              </ApiForm>
            )
            : (
              <ApiForm
                api={`${base}/block`}
                submit="Block"
                confirm={`Block ${user.email}? Every session ends now and log-in is refused.`}
                done="Blocked; {sessionsEnded} session(s) ended"
                danger
                label="Block user"
              >
                <Hidden name="blocked:bool" value="true" />
                <Field name="reason" label="Reason (optional)" />
              </ApiForm>
            )}
        </div>
        <div>
          <h3>Password</h3>
          <p class="muted">Mails a reset link valid for one hour and ends every session.</p>
          <ApiForm
            api={`${base}/reset-password`}
            submit="Send reset link"
            confirm={`Send ${user.email} a password reset link and end their sessions?`}
            done="Reset link sent (mail sent: {emailSent})"
            label="Password reset"
          />
        </div>
      </div>
    </section>
  );
}
