/**
 * The account's month against its plan (README "Plans"): a quiet line below 80 %, a warning
 * from 80 %, and at 100 % what happens now (paused until the 1st, or overage billed).
 * Self-contained: give it the account's quota state (lib/billing/quota.ts).
 */
import type { QuotaState } from "../lib/billing/quota.ts";
import { Bytes } from "./ui.tsx";
import { formatCount } from "../lib/dashboard/format.ts";
import { PLAN_PAGE } from "../lib/errors.ts";

export function QuotaBanner({ quota }: { quota: QuotaState }) {
  if (!quota.enabled || !quota.limits || !quota.percent) return null;
  const tone = quota.level === 100 ? "error" : quota.level === 80 ? "warn" : "ok";
  const use = (
    <>
      {formatCount(quota.requests)} of {formatCount(quota.limits.requests)} requests (
      {quota.percent.requests} %) and <Bytes n={quota.bytes} /> of <Bytes n={quota.limits.bytes} />
      {" "}
      ({quota.percent.bytes} %)
    </>
  );
  return (
    <div
      class={`notice ${tone}`}
      role={quota.level > 0 ? "alert" : "status"}
      data-quota-level={quota.level}
    >
      <p>
        <strong>{quota.period}</strong> on the <strong>{quota.plan}</strong> plan: {use}.
      </p>
      {quota.level === 100 && quota.paused && (
        <p>
          Your tenants are paused until {quota.resumesAt.slice(0, 10)} (UTC): visitors get 429.{" "}
          <a href={PLAN_PAGE}>Upgrade to pro</a> to resume now.
        </p>
      )}
      {quota.level === 100 && !quota.paused && (
        <p>
          You are over the included amounts: the extra use is billed as overage (so far{" "}
          {quota.overage.totalUsd.toFixed(2)} USD).
        </p>
      )}
      {quota.level === 80 && <p>You have used 80 % of this month's included use.</p>}
    </div>
  );
}
