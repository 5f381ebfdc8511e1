/** Plans (SPEC "Other records": free and pro). The one definition of their numeric limits. */
export const PLAN_CODES = ["free", "pro"] as const;
export type PlanCode = typeof PLAN_CODES[number];

/** Tenants an account may own; only enforced where billing is configured. */
export const PLAN_TENANT_LIMITS: Record<PlanCode, number> = { free: 1, pro: 25 };

export function planLimits(plan: PlanCode) {
  return { tenants: PLAN_TENANT_LIMITS[plan] };
}

/** Subscription statuses that grant pro; every other status (canceled, unpaid, incomplete_expired, …) is free. */
const PAID_STATUSES = new Set(["active", "trialing"]);

export function planForSubscriptionStatus(status: string): PlanCode {
  return PAID_STATUSES.has(status) ? "pro" : "free";
}
