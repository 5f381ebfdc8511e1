/** GET /account/profile and /account/password: name, email, and the password change form. */
import type { AccountCtx } from "./shell.tsx";
import { ApiForm, Field } from "../../../components/ApiForm.tsx";
import { Time } from "../../../components/ui.tsx";

export function profilePage({ auth }: AccountCtx) {
  const u = auth.user;
  return (
    <>
      <section class="card">
        <h2>Your details</h2>
        <dl class="grid">
          <dt>Email</dt>
          <dd>{u.email}</dd>
          <dt>Member since</dt>
          <dd>
            <Time at={u.createdAt} />
          </dd>
          {auth.isAdmin && (
            <>
              <dt>Role</dt>
              <dd>
                Master admin (<a href="/admin">admin console</a>)
              </dd>
            </>
          )}
        </dl>
        <p class="muted">
          To change your email address, ask an administrator: it is your log-in name.
        </p>
      </section>
      <section class="card">
        <h2>Display name</h2>
        <ApiForm api="/api/user/profile" method="PATCH" submit="Save name" done="Name saved">
          <Field
            name="name:null"
            label="Name"
            value={u.name}
            autocomplete="name"
            hint="Shown to members of your tenants instead of your email. Empty removes it."
          />
        </ApiForm>
      </section>
    </>
  );
}

export function passwordPage(_a: AccountCtx) {
  return (
    <section class="card">
      <h2>Change your password</h2>
      <p class="muted">
        Changing it logs out every other session of yours (this one stays signed in) and revokes all
        your personal access tokens.
      </p>
      <ApiForm
        api="/api/user/change-password"
        submit="Change password"
        busy="Changing…"
        done="Password changed"
      >
        <Field
          name="currentPassword"
          label="Current password"
          type="password"
          required
          autocomplete="current-password"
        />
        <Field
          name="newPassword"
          label="New password"
          type="password"
          required
          autocomplete="new-password"
          hint="At least 10 characters, not your email address."
        />
      </ApiForm>
      <p>
        Forgot it? <a href="/forgot-password">Get a reset link by mail</a>.
      </p>
    </section>
  );
}
