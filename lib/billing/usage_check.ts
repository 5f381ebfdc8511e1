/**
 * The verdict of GET /api/usage/check (decisions.md "Quotas"): the tenant's billing account,
 * its plan's monthly limits, the account's use in the period, and whether traffic is allowed.
 */
import type { Services } from "../services.ts";
import { billingOwner } from "./owners.ts";
import { accountMonth } from "./quota.ts";

export async function usageCheck(s: Services, tenantId: number, period: string) {
  const owner = await billingOwner(s, tenantId);
  if (!owner || !s.config.quotas) {
    return { plan: null, limits: { requests: null, bytes: null }, account: null, allowed: true };
  }
  const { quota } = await accountMonth(s, owner, period);
  return {
    plan: quota.plan,
    limits: quota.limits!,
    account: {
      requests: quota.requests,
      bytes: quota.bytes,
      percent: quota.percent,
      level: quota.level,
      reason: quota.reason,
      resumesAt: quota.paused ? quota.resumesAt : null,
    },
    allowed: !quota.paused,
  };
}
