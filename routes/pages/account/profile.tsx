/** GET /account/profile and /account/password: name, email, and the password change form. */
import type { AccountCtx } from "./shell.tsx";
import { ApiForm, Field } from "../../../components/ApiForm.tsx";
import { Time } from "../../../components/ui.tsx";
import { type TakeoverReview, takeoverReview } from "../../../lib/auth/takeover_review.ts";

/** After a takeover of a squatted account: who the previous holder let in, to remove. */
function TakeoverReviewCard({ review }: { review: TakeoverReview }) {
  const none = review.members.length === 0 && review.invites.length === 0;
  return (
    <section class="card" data-takeover-review>
      <h2>Review who the previous holder let in</h2>
      <p>
        Someone had registered this address before you proved it was yours (
        <Time at={review.claimedAt} />). Their password, tokens and sessions have ended.
        {none ? " They added no members and sent no invites." : " They added these:"}
      </p>
      <ul>
        {review.members.map((m) => (
          <li key={`m${m.tenant}${m.userId}`}>
            {m.email} ({m.role}) in {m.tenant}
          </li>
        ))}
        {review.invites.map((i) => (
          <li key={`i${i.tenant}${i.email}`}>
            invite to {i.email} ({i.role}) for {i.tenant}
          </li>
        ))}
      </ul>
      <ApiForm
        api="/api/user/takeover-review/confirm"
        submit={none ? "Dismiss" : "Remove them"}
        done="Removed"
        confirm={none ? undefined : "Remove these members and revoke these invites?"}
      />
    </section>
  );
}

export async function profilePage({ s, auth }: AccountCtx) {
  const u = auth.user;
  const review = await takeoverReview(s, u.id);
  return (
    <>
      {review && <TakeoverReviewCard review={review} />}
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
        busy={`Changing\u2026`}
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
