/**
 * Shown on every signed-in page until the user confirms their address (docs/decisions.md
 * "Email verification"), with a resend button that works without JavaScript (form bridge).
 */
import { ApiForm } from "./ApiForm.tsx";

export function VerifyEmailBanner({ email, canMail }: { email: string; canMail: boolean }) {
  if (!canMail) {
    // An embedded or mail-less installation: saying "we mailed a link" would be untrue.
    return (
      <div class="notice warn" role="status" data-verify-email>
        <p>
          <strong>Your email address is not confirmed.</strong>{" "}
          This server sends no mail (its operator has not set{" "}
          <code>MAIL_TRANSPORT_URL</code>), so no link was sent to{" "}
          <strong>{email}</strong>. Until the address is confirmed, a GitHub or Google sign-in as
          this address takes the account over: its password and API tokens end.
        </p>
      </div>
    );
  }
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
