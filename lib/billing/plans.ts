/**
 * Plans as data (SPEC "Other records": free and pro; README "Plans"). The one definition of
 * every plan figure: tenants per account, the monthly included requests and bandwidth (per
 * account, across all its tenants, UTC calendar months), what happens over the limit, and the
 * pro overage prices. An installation overrides any figure with the PLANS variable (config.ts).
 */
export const PLAN_CODES = ["free", "pro"] as const;
export type PlanCode = typeof PLAN_CODES[number];

export type Plan = {
  code: PlanCode;
  /** Subscription price per month in USD (0 for free). */
  priceUsd: number;
  /** Tenants an account may own; null is unlimited. */
  tenants: number | null;
  /** Requests included per UTC month, across the account's tenants. */
  monthlyRequests: number;
  /** Bytes sent to visitors included per UTC month (hits and misses alike). */
  monthlyBytes: number;
  /** Over the limit: `pause` serves 429 until the next month; `meter` bills overage. */
  overLimit: "pause" | "meter";
  /** USD per extra 1,000,000 requests (metered plans). */
  overageUsdPerMillionRequests: number;
  /** USD per extra 10 GB (10^10 bytes) sent (metered plans). */
  overageUsdPer10Gb: number;
};

export type Plans = Record<PlanCode, Plan>;

const GB = 1_000_000_000;

export const DEFAULT_PLANS: Plans = {
  free: {
    code: "free",
    priceUsd: 0,
    tenants: 1,
    monthlyRequests: 500_000,
    monthlyBytes: 5 * GB,
    overLimit: "pause",
    overageUsdPerMillionRequests: 0,
    overageUsdPer10Gb: 0,
  },
  pro: {
    code: "pro",
    priceUsd: 15,
    tenants: null,
    monthlyRequests: 5_000_000,
    monthlyBytes: 200 * GB,
    overLimit: "meter",
    overageUsdPerMillionRequests: 1,
    overageUsdPer10Gb: 0.05,
  },
};

/** The defaults with an installation's partial overrides laid over them. */
export function mergePlans(overrides: Partial<Record<PlanCode, Partial<Omit<Plan, "code">>>>) {
  const out = {} as Plans;
  for (const code of PLAN_CODES) out[code] = { ...DEFAULT_PLANS[code], ...overrides[code], code };
  return out;
}

/** The public figures of a plan (billing state, usage check). */
export function planLimits(plan: Plan) {
  return {
    tenants: plan.tenants,
    monthlyRequests: plan.monthlyRequests,
    monthlyBytes: plan.monthlyBytes,
    overLimit: plan.overLimit,
  };
}

/** Subscription statuses that grant pro; every other status (canceled, unpaid, incomplete_expired, ...) is free. */
const PAID_STATUSES = new Set(["active", "trialing"]);

export function planForSubscriptionStatus(status: string): PlanCode {
  return PAID_STATUSES.has(status) ? "pro" : "free";
}
