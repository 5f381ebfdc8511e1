/**
 * The verdict of GET /api/usage/check (decisions.md "Quotas"): the tenant's billing account,
 * its plan's monthly limits, the account's use in the period, and whether traffic is allowed.
 */
import type { Services } from "../services.ts";
import { billingOwner } from "./owners.ts";
import { accountMonth } from "./quota.ts";
import { z } from "zod";
import { str } from "../base/text.ts";
import { PLAN_CODES } from "./plans.ts";

/** The response shape of `usageCheck` (merged into GET /api/usage/check's answer). */
export const usageCheckShape = {
  plan: z.enum(PLAN_CODES).nullable().describe("null with QUOTAS=off or no billing account"),
  limits: z.strictObject({
    requests: z.number().int().nullable(),
    bytes: z.number().int().nullable(),
  }),
  account: z.strictObject({
    requests: z.number().int(),
    bytes: z.number().int(),
    percent: z.strictObject({ requests: z.number(), bytes: z.number() }).nullable(),
    level: z.union([z.literal(0), z.literal(80), z.literal(100)]),
    reason: z.enum(["requests", "bandwidth"]).nullable(),
    resumesAt: str().nullable().describe("ISO 8601 time, when paused"),
  }).nullable(),
  allowed: z.boolean(),
};

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
