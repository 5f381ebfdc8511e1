/**
 * The threshold check the usage aggregator runs after each flush (the `thresholdGate` of
 * /api/admin/usage-aggregator-status): the flushed tenants are mapped to the accounts that
 * pay for them, and each account, at most once per gate interval, has its month-to-date
 * totals recomputed from the shared usage tables and its quota snapshot republished.
 */
import type { Services } from "../services.ts";
import type { ThresholdCheck } from "../usage/aggregator.ts";
import { billingOwners } from "./owners.ts";
import { publishQuota } from "./quota_publish.ts";

export function quotaThresholdCheck(s: Services): ThresholdCheck {
  return async (tenantIds, gate, now) => {
    const owners = new Set((await billingOwners(s, tenantIds)).values());
    for (const userId of owners) {
      if (!gate.allow(`org:${userId}`, now)) continue;
      try {
        await publishQuota(s, userId);
      } catch (e) {
        // Fail-open: the edge keeps serving on the last published snapshot.
        s.log.warn("quota publish failed", { error: e instanceof Error ? e.message : "error" });
      }
    }
  };
}
