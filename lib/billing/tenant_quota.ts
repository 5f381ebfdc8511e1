/** The quota state of the account that pays for a tenant (null when quotas are off). */
import type { Services } from "../services.ts";
import { billingOwner } from "./owners.ts";
import { accountMonth, type QuotaState } from "./quota.ts";

export async function tenantAccountQuota(
  s: Services,
  tenantId: number,
): Promise<{ quota: QuotaState; ownerId: string } | null> {
  if (!s.config.quotas) return null;
  const ownerId = await billingOwner(s, tenantId);
  if (!ownerId) return null;
  return { quota: (await accountMonth(s, ownerId)).quota, ownerId };
}
