/**
 * Shown on signed-in pages until the user confirms their address (docs/decisions.md "Email
 * verification"). It says only what applies on this server: the takeover warning
 * names the OAuth sign-in providers the server offers (none: no warning), the mail sentences
 * need MAIL_TRANSPORT_URL. Only a master admin (`operator`) is told the setting's name;
 * a customer cannot change it and is told to ask the operator. "Hide" keeps it away for the
 * browser session (a session cookie); both forms work without JavaScript.
 */
import { ApiForm } from "./ApiForm.tsx";

const NAMES: Record<string, string> = { github: "GitHub", google: "Google" };

export function VerifyEmailBanner(
  { email, canMail, oauth, back, operator }: {
    email: string;
    canMail: boolean;
    oauth: string[];
    back: string;
    /** A master admin: may be shown the server setting that turns mail on. */
    operator: boolean;
  },
) {
  const providers = oauth.map((p) => NAMES[p] ?? p).join(" or ");
  const ways = [canMail && "a password reset by mail", providers && `a ${providers} sign-in`]
    .filter(Boolean).join(" or ");
  const risk = ways
    ? ` Until then, ${ways} as this address takes the account over: its password and API tokens end.`
    : "";
  return (
    <div
      class="notice warn"
      role="status"
      data-verify-email
      data-mail={canMail ? "sent" : "unavailable"}
      data-takeover={ways ? [canMail && "mail", ...oauth].filter(Boolean).join(" ") : undefined}
    >
      <p>
        {canMail
          ? (
            <>
              <strong>Confirm your email address.</strong> We mailed a link to{" "}
              <strong>{email}</strong> (it works for 24 hours, opened while logged in).
            </>
          )
          : (
            <>
              <strong>Your email address is not confirmed.</strong> {operator
                ? (
                  <>
                    This server sends no mail (set{" "}
                    <code data-operator-setting="MAIL_TRANSPORT_URL">MAIL_TRANSPORT_URL</code>{" "}
                    to turn it on), so no link was sent to <strong>{email}</strong>.
                  </>
                )
                : (
                  <>
                    This server cannot send mail yet; ask its operator. No link was sent to{" "}
                    <strong>{email}</strong>.
                  </>
                )}
            </>
          )}
        {risk}
      </p>
      <div class="actions">
        {canMail && (
          <ApiForm
            api="/api/auth/verify-email/resend"
            submit="Mail a new link"
            busy={`Sending\u2026`}
            done="A new link is on its way: check your mail."
            layout="inline"
            secondary
            label="Resend the verification mail"
          />
        )}
        <form method="post" action="/verify-email/dismiss" aria-label="Hide the banner">
          <input type="hidden" name="next" value={back} />
          <button type="submit" class="link">Hide for this session</button>
        </form>
      </div>
    </div>
  );
}
