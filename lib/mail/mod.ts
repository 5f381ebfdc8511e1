/**
 * Outbound mail through an HTTP transport: MAIL_TRANSPORT_URL receives
 * `POST { to, subject, text }` (README). Without it nothing is sent. A send never
 * throws into the request; the result says whether the transport accepted it.
 */
import type { Services } from "../services.ts";

export type Mail = { to: string; subject: string; text: string };

const SEND_TIMEOUT_MS = 5_000;

/**
 * What a mailer may read as the end of a header line (CR, LF, NEL, the Unicode line and
 * paragraph separators) and every other control character.
 */
// deno-lint-ignore no-control-regex -- control characters are what it matches
const HEADER_BREAKS = /[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g;

/**
 * A header value on one line: breaks and controls become one space. Here, in the one
 * place every mail passes, so no caller (an experiment or tenant name in a subject) can
 * add a header line.
 */
function headerValue(v: string): string {
  return v.replace(HEADER_BREAKS, " ").trim();
}

/** True only when a transport is configured and answered 2xx. */
export async function sendMail(s: Services, mail: Mail): Promise<boolean> {
  const url = s.config.mailTransportUrl;
  if (!url) return false;
  if (headerValue(mail.to) !== mail.to) {
    // A recipient is an address, never text: one with a break is refused, not repaired.
    s.log.warn("mail refused: recipient with a control character");
    return false;
  }
  try {
    const res = await s.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...mail, subject: headerValue(mail.subject) }),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (!res.ok) s.log.warn("mail transport refused", { status: res.status });
    return res.ok;
  } catch (e) {
    // The body may carry a secret link: log only the failure, never the mail.
    s.log.warn("mail transport failed", { error: e instanceof Error ? e.name : "error" });
    return false;
  }
}
