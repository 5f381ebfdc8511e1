/** A master admin's actions on one user: edit, block or unblock, plan override, password reset. */
import { ApiForm, Field, Hidden, Select } from "../ApiForm.tsx";

type Props = {
  user: { id: string; email: string; name: string | null; blocked: boolean };
  plan: string;
  /** The admin looking at their own account: blocking is refused by the API, so not offered. */
  self: boolean;
};

export function UserActions({ user, plan, self }: Props) {
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
        </div>
        <div>
          <h3>Block</h3>
          {self ? <p class="muted">You cannot block your own account.</p> : user.blocked
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
