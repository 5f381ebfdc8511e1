/**
 * Outbound mail through an HTTP transport: MAIL_TRANSPORT_URL receives
 * `POST { to, subject, text }` (README). Without it nothing is sent. A send never
 * throws into the request; the result says whether the transport accepted it.
 */
import type { Services } from "../services.ts";

export type Mail = { to: string; subject: string; text: string };

const SEND_TIMEOUT_MS = 5_000;

/** True only when a transport is configured and answered 2xx. */
export async function sendMail(s: Services, mail: Mail): Promise<boolean> {
  const url = s.config.mailTransportUrl;
  if (!url) return false;
  try {
    const res = await s.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(mail),
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
