/**
 * A tenant page's word on its billing account's month (Overview, Usage): the owner sees the
 * account's banner (QuotaBanner) from 80 % on; any other member only that visitors get 429
 * while the account is paused, not the owner's use across their other tenants.
 */
import type { QuotaState } from "../lib/billing/quota.ts";
import { QuotaBanner } from "./QuotaBanner.tsx";

export function TenantQuotaNotice(
  { quota, isOwner }: { quota: QuotaState | null; isOwner: boolean },
) {
  if (!quota || quota.level === 0) return null;
  if (isOwner) return <QuotaBanner quota={quota} />;
  if (!quota.paused) return null;
  return (
    <div class="notice error" role="alert" data-quota-level={quota.level}>
      <p>
        This tenant is paused until {quota.resumesAt.slice(0, 10)}{" "}
        (UTC): its owner's account reached its monthly limit, and visitors get 429. Ask the owner to
        upgrade.
      </p>
    </div>
  );
}
