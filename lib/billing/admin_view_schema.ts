/**
 * Response shapes of the master-admin quota endpoints (routes/api/admin_quota.ts), built
 * by earned.ts and quota_backfill.ts, which are typed from these schemas. Every figure of
 * `earned` is defined in docs/decisions.md "Billing".
 */
import { z } from "zod";
import { count } from "../base/shapes.ts";
import { PERIOD_RE } from "../usage/query.ts";
import { PLAN_CODES } from "./plans.ts";

/** A fraction of the owner's account, 0 to 1. */
const share = z.number().min(0).max(1);

/** GET /api/admin/tenants/{slug}/earned. */
export const tenantEarnedSchema = z.strictObject({
  tenant: z.string(),
  period: z.string().regex(PERIOD_RE),
  currency: z.literal("USD"),
  owner: z.strictObject({
    userId: z.string().nullable(),
    plan: z.enum(PLAN_CODES),
    priceUsd: z.number().nonnegative(),
  }),
  usage: z.strictObject({
    tenant: z.strictObject({ requests: count, bytes: count }),
    owner: z.strictObject({ requests: count, bytes: count, tenants: count }),
  }),
  share: z.strictObject({ requests: share, bytes: share, revenue: share }),
  revenue: z.strictObject({
    subscriptionUsd: z.number().nonnegative(),
    overageUsd: z.number().nonnegative(),
    overageBasis: z.enum(["projected", "billed"]),
    totalUsd: z.number().nonnegative(),
  }),
  cost: z.strictObject({
    computeUsd: z.number().nonnegative(),
    databaseUsd: z.number().nonnegative(),
    kvUsd: z.number().nonnegative(),
    totalUsd: z.number().nonnegative(),
    costSource: z.literal("modeled"),
  }),
  margin: z.strictObject({ usd: z.number(), percent: z.number().nullable() }),
});
export type TenantEarned = z.infer<typeof tenantEarnedSchema>;

/** POST /api/admin/quota-snapshots/backfill (SPEC `{ ok, orgs, processed }`); `failed` lists user ids. */
export const quotaBackfillSchema = z.strictObject({
  ok: z.boolean(),
  orgs: count,
  processed: count,
  changed: count,
  failed: z.array(z.string()),
});
export type QuotaBackfill = z.infer<typeof quotaBackfillSchema>;
