/** The owner's warning mails at 80 % and 100 % of the month's included use (lib/mail). */
import type { Services } from "../services.ts";
import type { QuotaState } from "./quota.ts";
import { sendMail } from "../mail/mod.ts";
import { findUserById } from "../users/mod.ts";

const GB = 1_000_000_000;
const n = (x: number) => x.toLocaleString("en-US");
const gb = (b: number) => `${(b / GB).toFixed(2)} GB`;

export function quotaMailText(
  q: QuotaState,
  dashboardUrl: string,
): { subject: string; text: string } {
  const lim = q.limits!;
  const use = `Requests: ${n(q.requests)} of ${n(lim.requests)} (${q.percent!.requests} %)\n` +
    `Bandwidth: ${gb(q.bytes)} of ${gb(lim.bytes)} (${q.percent!.bytes} %)`;
  if (q.level === 100) {
    const what = q.reason === "requests" ? "requests" : "bandwidth";
    const then = q.paused
      ? `Your tenants are paused until ${q.resumesAt} (the 1st of next month, UTC): ` +
        `visitors get 429 until then. Upgrade to pro to resume now.`
      : `Service continues; use above the included amounts is billed as overage.`;
    return {
      subject: `Cachely: you have used all included ${what} of your ${q.plan} plan for ${q.period}`,
      text: `${use}\n\n${then}\n\n${dashboardUrl}\n`,
    };
  }
  return {
    subject: `Cachely: 80 % of your ${q.plan} plan's monthly use reached (${q.period})`,
    text: `${use}\n\nAt 100 % ${
      q.plan === "free"
        ? "your tenants are paused until the 1st of next month (UTC)"
        : "overage is billed"
    }.\n\n${dashboardUrl}\n`,
  };
}

/** Sends the warning for `q.level` to the account's email; never throws. */
export async function sendQuotaMail(s: Services, userId: string, q: QuotaState): Promise<boolean> {
  try {
    const user = await findUserById(s, userId);
    if (!user) return false;
    const { subject, text } = quotaMailText(q, new URL("/dashboard", s.config.publicUrl).href);
    return await sendMail(s, { to: user.email, subject, text });
  } catch (e) {
    s.log.warn("quota mail failed", { error: e instanceof Error ? e.name : "error" });
    return false;
  }
}
