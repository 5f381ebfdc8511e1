/**
 * Shown on every signed-in page until the user confirms their address (docs/decisions.md
 * "Email verification"), with a resend button that works without JavaScript (form bridge).
 */
import { ApiForm } from "./ApiForm.tsx";

export function VerifyEmailBanner({ email }: { email: string }) {
  return (
    <div class="notice warn" role="status" data-verify-email>
      <p>
        <strong>Confirm your email address.</strong> We mailed a link to <strong>{email}</strong>
        {" "}
        (it works for 24 hours, opened while logged in). Until then, a password reset by mail or a
        GitHub or Google sign-in as this address takes the account over: its password and API tokens
        end.
      </p>
      <ApiForm
        api="/api/auth/verify-email/resend"
        submit="Mail a new link"
        busy="Sending…"
        done="A new link is on its way: check your mail."
        layout="inline"
        secondary
        label="Resend the verification mail"
      />
    </div>
  );
}
